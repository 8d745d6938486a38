package cli

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// startServe runs `boxtax serve` on a free loopback port until the test
// ends and returns its base URL.
func startServe(t *testing.T, db string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr testenv.LockedBuffer
	g := testGlobals(io.Discard, &stderr)
	done := make(chan int)
	go func() { done <- Execute(ctx, g, []string{"serve", "--db", db, "--addr", "127.0.0.1:0"}) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != ExitOK {
			t.Errorf("serve exited %d after Ctrl-C: %s", code, stderr.String())
		}
	})
	re := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("serve did not say where it listens: %s", stderr.String())
	return ""
}

func TestServeShowsStudiesInABrowser(t *testing.T) {
	dir := studyDir(t, "<script>alert(1)</script>")
	db := filepath.Join(dir, "boxtax.db")
	storedStudy(t, db, "second", pi4, 0.25)
	base := startServe(t, db)

	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<a href="/study/2">second</a>`) {
		t.Fatalf("index: %d\n%s", resp.StatusCode, body)
	}

	bin := testenv.RequireChromium(t)
	dom := func(url string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", url).Output()
		if err != nil {
			t.Fatalf("%s %s: %v", bin, url, err)
		}
		return string(out)
	}
	index := dom(base + "/")
	if !strings.Contains(index, "&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(index, "<script") {
		t.Errorf("index: the hostile study name is not plain text:\n%s", index)
	}
	report := dom(base + "/study/2")
	// The overview, then bars and boxes for cpu.prime and for mem.stream.
	if n := strings.Count(report, `class="plot"`); n != 5 {
		t.Errorf("the study page has %d plots in the browser, want 5", n)
	}
	bars := regexp.MustCompile(`<svg[^>]*data-kind="bars"[^>]*data-bars="8"`).FindAllString(report, -1)
	if len(bars) != 1 {
		t.Errorf("want one bar chart with 8 bars (mem.stream: 4 metrics x 2 envs) in the DOM")
	}
	cmp := dom(base + "/compare?s=1&s=2")
	if !strings.Contains(cmp, "B vs A") || !strings.Contains(cmp, "-75.0%*") {
		t.Errorf("comparison page:\n%s", cmp)
	}
}
