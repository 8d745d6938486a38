package mqtt

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// dockerEnvs are the container environments when a Docker engine answers;
// without one they are left out, except in CI (CI=true), where that fails.
func dockerEnvs(t *testing.T) []string {
	t.Helper()
	if _, err := testenv.Docker(); err != nil {
		testenv.DoWithout(t, "%v: native only", err)
		return nil
	}
	return []string{"docker-bridge", "docker-host"}
}

// TestStudyThroughTheCLI runs a small mqtt.pub study with `boxtax run`,
// natively and in both Docker networks: the table prints, every run is
// stored with its metrics, and the broker that ran is the real mosquitto
// (in the containers from the image with the host's programs).
func TestStudyThroughTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	mosq := requireMosquitto(t)
	envs := append([]string{"native"}, dockerEnvs(t)...)
	bin := testenv.BoxtaxBinary(t)
	dir := t.TempDir()
	studyFile := filepath.Join(dir, "mqtt.yaml")
	spec := `name: mqtt-e2e
repetitions: 1
warmup: 0
envs: [` + strings.Join(envs, ", ") + `]
workloads:
  - name: mqtt.pub
    params: {duration: 500ms, subscribers: 1, broker: mosquitto}
factors:
  - name: clients
    levels: [1, 3]
`
	testenv.WriteFile(t, studyFile, []byte(spec), 0o644)
	db := filepath.Join(dir, "boxtax.db")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", studyFile, "--db", db, "--settle", "0", "--monitor-interval", "0", "--seed", "7")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("boxtax run: %v\nstderr: %s\nstdout: %s", err, stderr.String(), stdout.String())
	}
	for _, w := range []string{"mqtt.pub clients=1", "mqtt.pub clients=3", "MQTT msg/s", "ack mean ms", "e2e mean ms", "error %"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, stdout.String())
		}
	}
	for _, e := range envs[1:] {
		if !strings.Contains(stdout.String(), e) {
			t.Errorf("table lacks %s:\n%s", e, stdout.String())
		}
	}

	_, runs, samples := testenv.Stored(t, db)
	rate := map[int64]float64{}
	for _, s := range samples {
		if s.Metric == "msgs_per_s" && s.Instance == 0 {
			rate[s.RunID] = s.Value
		}
	}
	if len(runs) != 2*len(envs) {
		t.Fatalf("%d runs, want %d", len(runs), 2*len(envs))
	}
	for _, r := range runs {
		if r.Status != "ok" {
			t.Errorf("run %s %v: %s %s", r.Env, r.Levels, r.Status, r.Reason)
			continue
		}
		if rate[r.ID] <= 0 {
			t.Errorf("run %s %v: msgs_per_s %v", r.Env, r.Levels, rate[r.ID])
		}
		if b := r.Notes["server.broker"]; !strings.HasPrefix(b, "mosquitto ") || r.Notes["server.broker_path"] != mosq {
			t.Errorf("run %s: broker %q at %q, want the host's mosquitto %s", r.Env, b, r.Notes["server.broker_path"], mosq)
		}
		if r.Notes["received_pct"] != "100.00" {
			t.Errorf("run %s %v: the subscriber received %s %% of the messages", r.Env, r.Levels, r.Notes["received_pct"])
		}
		if r.Notes["server.stopped"] != "" {
			t.Errorf("run %s: the server did not end with its session: %s", r.Env, r.Notes["server.stopped"])
		}
		if r.Env != "native" && !strings.Contains(r.Settings["host_programs"], mosq) {
			t.Errorf("run %s: host_programs %q, want %s", r.Env, r.Settings["host_programs"], mosq)
		}
	}
}
