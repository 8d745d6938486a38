package cli

import (
	"context"
	"io"
	"net/http"
	"os"
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
	return startServeWith(t, "--db", db)
}

// startServeWith is startServe with serve's flags as given (but --addr).
func startServeWith(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr testenv.LockedBuffer
	g := testGlobals(io.Discard, &stderr)
	done := make(chan int)
	go func() { done <- Execute(ctx, g, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
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

// getPage is the body of a page serve answers 200 with.
func getPage(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", url, resp.StatusCode, body)
	}
	return string(body)
}

// TestServeSeesAReplacedDatabase is issue 42 item 13: a database file
// replaced while serve runs (a new file with its write-ahead log renamed
// over it) is what the next page shows, all of it and nothing of the old
// file; and a file named twice (--db a.db --db ./a.db) is listed once.
func TestServeSeesAReplacedDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	storedStudy(t, db, "old study", epyc, 1)
	base := startServe(t, db)
	if page := getPage(t, base+"/"); !strings.Contains(page, "old study") {
		t.Fatalf("index before: %s", page)
	}

	// The new file as a killed boxtax leaves it: its second study only in
	// its write-ahead log.
	next := filepath.Join(dir, "next.db")
	storedStudy(t, next, "new one", pi4, 1)
	writer := testenv.OpenStore(t, next)
	storedStudy(t, next, "new two", pi4, 2)
	crashed := filepath.Join(dir, "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(next + suffix)
		if err != nil {
			t.Fatal(err)
		}
		testenv.WriteFile(t, crashed+suffix, b, 0o644)
	}
	writer.Close()
	for _, suffix := range []string{"-wal", ""} { // as a fetch would move them into place
		if err := os.Rename(crashed+suffix, db+suffix); err != nil {
			t.Fatal(err)
		}
	}
	page := getPage(t, base+"/")
	if !strings.Contains(page, "new one") || !strings.Contains(page, "new two") || strings.Contains(page, "old study") {
		t.Errorf("index after the file was replaced, want new one and new two only:\n%s", page)
	}
	if study := getPage(t, base+"/study/2"); !strings.Contains(study, "new two") {
		t.Errorf("study 2 of the new file:\n%.400s", study)
	}

	link := filepath.Join(dir, "link.db")
	if err := os.Symlink("a.db", link); err != nil {
		t.Fatal(err)
	}
	twice := startServeWith(t, "--db", db, "--db", dir+"/./a.db", "--db", link, "--db", db)
	if page := getPage(t, twice+"/"); strings.Count(page, "new one") != 1 {
		t.Errorf("the file named four times, want its study listed once:\n%s", page)
	}
}
