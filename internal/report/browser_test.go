package report_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/page"
	"github.com/boxtax/boxtax/internal/testenv"
)

// openInBrowser renders the report's HTML in headless Chromium and returns
// the DOM as the browser built it.
func openInBrowser(t *testing.T, r *report.Report, extra ...string) string {
	t.Helper()
	bin := testenv.RequireChromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := report.Write(&buf, "html", r); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFile(t, page, buf.Bytes(), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}, extra...)
	args = append(args, "--dump-dom", "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	return string(out)
}

func TestHTMLReportRendersInChromium(t *testing.T) {
	dom := openInBrowser(t, report.Fixture())
	// One plot for the overview and one bar chart with a bar per env, plus
	// the quartile boxes.
	if n := strings.Count(dom, `class="plot"`); n != len(page.Figures(report.Fixture())) {
		t.Errorf("the browser built %d plots, the report has %d figures", n, len(page.Figures(report.Fixture())))
	}
	bars := regexp.MustCompile(`<svg[^>]*data-kind="bars"[^>]*>(?s:.*?)</svg>`).FindString(dom)
	if n := strings.Count(bars, `<rect class="bar"`); n != 2 {
		t.Errorf("the bar chart has %d bars in the DOM, want 2 (native, docker-bridge)", n)
	}
	if n := strings.Count(bars, `<circle class="point"`); n != 6 {
		t.Errorf("the bar chart shows %d runs, want 6", n)
	}
	if !strings.Contains(dom, "demo &lt;b&gt;|x") || strings.Contains(dom, "<b>|x") {
		t.Errorf("study name not shown as text")
	}
}

func TestHostileStudyNameStaysTextInChromium(t *testing.T) {
	dom := openInBrowser(t, hostileReport())
	if strings.Contains(dom, "<script") || strings.Contains(dom, "<img") {
		t.Errorf("the browser built a script or image element from user text:\n%s", dom)
	}
	if !strings.Contains(dom, "<h1>Study 9: &lt;script&gt;alert(1)&lt;/script&gt;</h1>") {
		t.Errorf("the study name is not a heading of plain text")
	}
}

func TestFactorialPlotsRenderInChromium(t *testing.T) {
	r := report.Factorial()
	dom := openInBrowser(t, r)
	for kind, want := range map[string]int{"intervals": 1, "lines": 1, "stacked": 1, "cdf": 2, "boxes": 1} {
		if n := strings.Count(dom, `data-kind="`+kind+`"`); n != want {
			t.Errorf("%d %s plots in the DOM, want %d", n, kind, want)
		}
	}
	// The line plot: 3 envs x 3 thread levels.
	lines := regexp.MustCompile(`<svg[^>]*data-kind="lines"[^>]*>(?s:.*?)</svg>`).FindString(dom)
	if n := strings.Count(lines, `<circle class="marker"`); n != 9 {
		t.Errorf("line plot has %d points, want 9", n)
	}
	stacked := regexp.MustCompile(`<svg[^>]*data-kind="stacked"[^>]*>(?s:.*?)</svg>`).FindString(dom)
	if n := strings.Count(stacked, `<rect class="segment"`); n != 9 {
		t.Errorf("stacked plot has %d segments, want 9 (3 parts x 3 envs)", n)
	}
}

func TestHTMLReportScreenshot(t *testing.T) {
	bin := testenv.RequireChromium(t)
	dir := t.TempDir()
	page, shot := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.png")
	var buf bytes.Buffer
	if err := report.Write(&buf, "html", report.Factorial()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(page, buf.Bytes(), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1200,3000", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 3000 {
		t.Errorf("screenshot is %v", b)
	}
	// A page that failed to render is one colour; ours has plots in several.
	colours := map[uint32]bool{}
	for y := 0; y < 3000; y += 7 {
		for x := 0; x < 1200; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("the screenshot has only %d colours: did the page render?", len(colours))
	}
}
