package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestRefusedBeforeTheFirstRun: issue 25 item 14, what a container
// environment cannot do here (a missing image, CPUs the host lacks,
// AppArmor where it is off, a --file link out of its directory) failed
// every run in that environment while native succeeded (exit 3, 6 of 9
// runs failed). Each is refused before the first run, exit 2, saying what
// to do, and no study is stored.
func TestRefusedBeforeTheFirstRun(t *testing.T) {
	testenv.RequireDocker(t)
	dir := t.TempDir()
	// A --file directory holding a link to a file outside it.
	files := filepath.Join(dir, "files")
	if err := os.Mkdir(files, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(files, "out")); err != nil {
		t.Fatal(err)
	}
	cpus := runtime.NumCPU()
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"missing image", []string{"--cmd", "true", "--image", "boxtax-no-such-image:1", "--envs", "native,docker-bridge"},
			[]string{"image boxtax-no-such-image:1 is n", "in Docker", "build, load or pull it"}}, // neither in Docker nor in Podman, or not in Docker when Podman cannot be asked
		{"cpuset beyond the host", []string{"--cmd", "true", "--envs", fmt.Sprintf("native,docker-bridge+cpuset=%d", cpus+3)},
			[]string{fmt.Sprintf("cpuset=%d", cpus+3), "not online on this host", "name CPUs it has"}},
		{"cpus beyond the host", []string{"--cmd", "true", "--envs", fmt.Sprintf("native,docker-bridge+cpus=%d", cpus*50)},
			[]string{fmt.Sprintf("this host has %d CPUs", cpus), fmt.Sprintf("give at most cpus=%d", cpus)}},
		{"file link out of its directory", []string{"--cmd", "cat out", "--file", files, "--envs", "native,docker-bridge"},
			[]string{"outside the --file paths"}},
	}
	if b, err := os.ReadFile("/sys/module/apparmor/parameters/enabled"); err != nil || strings.TrimSpace(string(b)) != "Y" {
		cases = append(cases, struct {
			name string
			args []string
			want []string
		}{"apparmor without AppArmor", []string{"--cmd", "true", "--envs", "native,docker-bridge+apparmor=unconfined"},
			[]string{"AppArmor off", "leave the option out"}})
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := fmt.Sprintf("refused%d.db", i)
			args := append([]string{"run"}, tc.args...)
			args = append(args, "--reps", "3", "--warmup", "0", "--settle", "0", "--monitor-interval", "0", "--db", db)
			res := runIn(t, dir, args...)
			if res.code != ExitUsage {
				t.Errorf("exit %d, want %d (refused before the first run)\n%s", res.code, ExitUsage, res.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.stderr, w) {
					t.Errorf("stderr does not say %q:\n%s", w, res.stderr)
				}
			}
			if strings.Contains(res.stderr, "runs failed") || okRuns(t, filepath.Join(dir, db)) != 0 {
				t.Errorf("runs were made:\n%s", res.stderr)
			}
		})
	}
}
