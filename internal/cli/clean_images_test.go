package cli

import (
	"archive/tar"
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/hostimage"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestCleanSaysWhichImagesItKeeps is issue 27 item 4: boxtax clean without
// --images counts the images boxtax built that it keeps, with their size,
// and says how to remove them; an image without boxtax's label is never
// counted. (clean --images itself is tested on this test's own images in
// internal/env, TestRemoveManagedImages: removing every boxtax image here
// would pull them from under other boxtax runs sharing the daemon.)
func TestCleanSaysWhichImagesItKeeps(t *testing.T) {
	c := testenv.RequireDocker(t)
	ctx := context.Background()
	count := func() int {
		res := runOK(t, t.TempDir(), "clean")
		m := regexp.MustCompile(`kept (\d+) image\(s\) built by boxtax \([0-9.]+ [kMGT]?B\): boxtax clean --images removes them`).FindStringSubmatch(res.stdout)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	var layer bytes.Buffer
	tw := tar.NewWriter(&layer)
	tw.WriteHeader(&tar.Header{Name: "hello", Mode: 0o644, Size: 3, ModTime: time.Now()})
	tw.Write([]byte("hi\n"))
	tw.Close()
	suffix := strconv.FormatInt(time.Now().UnixNano(), 36)
	managed, foreign := "boxtax-clean-test:"+suffix, "not-boxtax-clean-test:"+suffix
	for tag, labels := range map[string]map[string]string{
		managed: {"io.boxtax.managed": "true", "io.boxtax.test": suffix, hostimage.LabelName: managed},
		foreign: {"io.boxtax.test": suffix},
	} {
		if _, err := c.ImageImport(ctx, bytes.NewReader(layer.Bytes()), docker.ImportOptions{Tag: tag, Labels: labels, Message: hostimage.MessageHostPrograms}); err != nil {
			t.Fatal(err)
		}
		removeImagesAtEnd(t, c, tag)
	}
	// Other boxtax runs may add or remove images meanwhile: the count is
	// at least this test's one.
	if n := count(); n < 1 {
		t.Fatalf("clean does not mention the boxtax image %s it keeps", managed)
	}
	if _, err := c.ImageInspect(ctx, managed); err != nil {
		t.Errorf("clean without --images removed a boxtax image: %v", err)
	}
	if _, err := c.ImageInspect(ctx, foreign); err != nil {
		t.Errorf("clean removed an image that is not boxtax's: %v", err)
	}
}
