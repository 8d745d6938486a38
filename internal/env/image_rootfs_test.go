package env

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// tarOf is an archive of the entries, in order.
func tarOf(t *testing.T, entries []tar.Header) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range entries {
		body := []byte(nil)
		if h.Typeflag == tar.TypeReg {
			body = []byte("data of " + h.Name)
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write(body)
	}
	_ = tw.Close()
	return &buf
}

// TestUntarStaysInside: the exported files are written under the
// directory with their modes; an entry through a symlink the archive made
// (which could lead anywhere on the host) is refused, and so is a hard
// link through one; .. cannot climb out.
func TestUntarStaysInside(t *testing.T) {
	outside := t.TempDir()
	for _, tc := range []struct {
		name    string
		entries []tar.Header
		want    string // the error's words; "": none
	}{
		{"files", []tar.Header{
			{Name: "usr/", Typeflag: tar.TypeDir, Mode: 0o755},
			{Name: "usr/bin/", Typeflag: tar.TypeDir, Mode: 0o755},
			{Name: "usr/bin/prog", Typeflag: tar.TypeReg, Mode: 0o4755},
			{Name: "bin", Typeflag: tar.TypeSymlink, Linkname: "usr/bin"},
			{Name: "usr/bin/prog2", Typeflag: tar.TypeLink, Linkname: "usr/bin/prog"},
			{Name: "../../climbs", Typeflag: tar.TypeReg, Mode: 0o644},
		}, ""},
		{"through a link", []tar.Header{
			{Name: "etc", Typeflag: tar.TypeSymlink, Linkname: outside},
			{Name: "etc/passwd", Typeflag: tar.TypeReg, Mode: 0o644},
		}, "goes through the symlink /etc"},
		{"hard link through a link", []tar.Header{
			{Name: "etc", Typeflag: tar.TypeSymlink, Linkname: outside},
			{Name: "stolen", Typeflag: tar.TypeLink, Linkname: "etc/secret"},
		}, "goes through the symlink /etc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "root")
			err := untar(tarOf(t, tc.entries), dir)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v, want %q", err, tc.want)
				}
				if left, _ := os.ReadDir(outside); len(left) > 0 {
					t.Errorf("a file landed outside: %v", left)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(filepath.Join(dir, "bin/prog"))
			if err != nil || st.Mode()&os.ModeSetuid == 0 || st.Mode().Perm() != 0o755 {
				t.Errorf("bin/prog through the kept link: %v %v", st, err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "usr/bin/prog2")); string(b) != "data of usr/bin/prog" {
				t.Errorf("the hard link holds %q", b)
			}
			if _, err := os.Stat(filepath.Join(dir, "climbs")); err != nil {
				t.Errorf("../../climbs was not kept inside: %v", err)
			}
		})
	}
}

// TestRemoveImageRootsKeepsThoseInUse: boxtax clean removes the unpacked
// images no running boxtax holds, and leaves the one a process holds.
func TestRemoveImageRootsKeepsThoseInUse(t *testing.T) {
	old := imageRootsDir
	imageRootsDir = t.TempDir()
	t.Cleanup(func() { imageRootsDir = old })
	for _, key := range []string{"aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"} {
		if err := os.MkdirAll(filepath.Join(imageRootsDir, key, "usr"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(imageRootsDir, key+".lock"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	held, err := os.Open(filepath.Join(imageRootsDir, "bbbbbbbbbbbbbbbb.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	done, err := RemoveImageRoots()
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || !strings.Contains(done[0], "removed 1 unpacked image(s)") || !strings.Contains(done[0], "aaaaaaaaaaaa") {
		t.Errorf("said %q", done)
	}
	if _, err := os.Stat(filepath.Join(imageRootsDir, "aaaaaaaaaaaaaaaa")); !os.IsNotExist(err) {
		t.Errorf("the unused image is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(imageRootsDir, "bbbbbbbbbbbbbbbb", "usr")); err != nil {
		t.Errorf("the image in use was removed: %v", err)
	}
}

// TestCheckImageSpace: unpacking is refused up front where the files
// would not fit, saying how much they need and where.
func TestCheckImageSpace(t *testing.T) {
	dir := t.TempDir()
	if err := checkImageSpace(dir, "small:1", 1<<10); err != nil {
		t.Fatal(err)
	}
	err := checkImageSpace(dir, "huge:1", 1<<60)
	if err == nil || !strings.Contains(err.Error(), "unpacking image huge:1 for the native runs needs") || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "MB free") {
		t.Fatalf("err %v", err)
	}
}

// TestImageRootfsUnpackedOnceByTwoProcesses: two boxtax processes that
// start a study of the same image at once (both holding the image's lock
// shared) unpack its files once; the second finds them, rather than
// unpacking them again and replacing the files the first has already put
// its worker binary in (runs failed with "fork/exec /.boxtax/boxtax: no
// such file or directory").
func TestImageRootfsUnpackedOnceByTwoProcesses(t *testing.T) {
	if dir := os.Getenv("BOXTAX_TEST_UNPACK_INTO"); dir != "" {
		unpackAndKeep(t, dir)
		return
	}
	testenv.RequireRoot(t, "unpacking an image's files (owners, devices)")
	testenv.RequireDebianImage(t, testenv.DebianGzipImage)
	dir := t.TempDir()
	var children []*exec.Cmd
	var outs []*bytes.Buffer
	var goOn []io.WriteCloser
	for i := range 2 {
		c := exec.Command(os.Args[0], "-test.run=^TestImageRootfsUnpackedOnceByTwoProcesses$", "-test.v")
		c.Env = append(os.Environ(), "BOXTAX_TEST_UNPACK_INTO="+dir, fmt.Sprintf("BOXTAX_TEST_MARK=%d", i))
		out := &bytes.Buffer{}
		c.Stdout, c.Stderr = out, out
		w, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		children, outs, goOn = append(children, c), append(outs, out), append(goOn, w)
	}
	for _, c := range children {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	// Both have their files before either looks for its mark again.
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if ready, _ := filepath.Glob(filepath.Join(dir, "ready-*")); len(ready) == 2 {
			break
		}
	}
	for _, w := range goOn {
		w.Close()
	}
	for i, c := range children {
		if err := c.Wait(); err != nil {
			t.Errorf("process %d: %v:\n%s", i, err, outs[i])
		}
	}
}

// unpackAndKeep is one process of the test above: it unpacks the image
// into dir, marks the files as its own, says it is ready, waits for its
// stdin to close and checks its mark is still in them.
func unpackAndKeep(t *testing.T, dir string) {
	imageRootsDir = dir
	c := testenv.RequireDocker(t)
	root, _, err := EnsureImageRootfs(context.Background(), c, testenv.DebianGzipImage, "")
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(root, "mark-"+os.Getenv("BOXTAX_TEST_MARK"))
	if err := os.WriteFile(mark, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ready-"+os.Getenv("BOXTAX_TEST_MARK")), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("the image's files this process unpacked or found were replaced under it: %v", err)
	}
}

// TestCopyBinaryIntoLinksTheFile: the native worker of an image study runs
// the very file a container's worker is mounted from (a hard link on one
// filesystem), so both map the same pages: a copy written in one go was
// mapped in larger folios and read 18.2 MiB of peak RSS natively against
// 12.4 in Docker (docs/design/009). Done twice, it leaves no other file.
func TestCopyBinaryIntoLinksTheFile(t *testing.T) {
	dir := t.TempDir()
	bin, root := filepath.Join(dir, "boxtax"), filepath.Join(dir, "root")
	if err := os.WriteFile(bin, []byte("worker"), 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := CopyBinaryInto(bin, root); err != nil {
			t.Fatal(err)
		}
		binaryCopied.Delete(root) // as a new process would
	}
	a, errA := os.Stat(bin)
	b, errB := os.Stat(filepath.Join(root, NativeImageBinary))
	if errA != nil || errB != nil || !os.SameFile(a, b) {
		t.Errorf("the worker in the image's files is not the binary itself: %v %v", errA, errB)
	}
	if left, _ := filepath.Glob(filepath.Join(root, NativeImageBinary) + ".*"); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
