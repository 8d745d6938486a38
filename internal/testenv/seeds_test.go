package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedsDir: the seed texts are found through BOXTAX_SEEDS_DIR, or
// beside the checkout (shared/seeds in a directory above the module root);
// where they are not, the test skips naming the package, and in CI fails.
func TestSeedsDir(t *testing.T) {
	seeds := filepath.Join(t.TempDir(), "shared", "seeds")
	if err := os.MkdirAll(seeds, 0o755); err != nil {
		t.Fatal(err)
	}
	WriteFile(t, filepath.Join(seeds, "README.md"), []byte("# seeds\n"), 0o644)
	module := filepath.Join(filepath.Dir(filepath.Dir(seeds)), "checkout")
	if err := os.MkdirAll(filepath.Join(module, "internal", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	WriteFile(t, filepath.Join(module, "go.mod"), []byte("module example.com/m\n"), 0o644)
	empty := t.TempDir()

	for _, tt := range []struct {
		name, dir, env, ci string
		want, said         string // want: the directory found, or how the test ends
	}{
		{name: "beside the checkout", dir: filepath.Join(module, "internal", "pkg"), want: seeds},
		{name: "from the variable", dir: empty, env: seeds, want: seeds},
		{name: "variable without texts", dir: filepath.Join(module, "internal", "pkg"), env: empty, want: "skip", said: "BOXTAX_SEEDS_DIR"},
		{name: "none, developer machine", dir: empty, want: "skip", said: "package pkg"},
		{name: "none, CI", dir: empty, ci: "true", want: "fail", said: "package pkg"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir)
			t.Setenv(SeedsDirEnv, tt.env)
			t.Setenv("BOXTAX_SEEDS", "")
			t.Setenv("CI", tt.ci)
			r := &recordingTB{TB: t}
			got := SeedsDir(r, "pkg")
			switch {
			case tt.want == "skip" || tt.want == "fail":
				if r.ended != tt.want || !strings.Contains(r.said, tt.said) {
					t.Errorf("ended %q saying %q; want %s naming %q", r.ended, r.said, tt.want, tt.said)
				}
			case r.ended != "" || got != tt.want:
				t.Errorf("found %q (ended %q: %s), want %q", got, r.ended, r.said, tt.want)
			}
		})
	}
}
