package mqtt

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// startSub starts mosquitto_sub printing count messages of topic at qos
// and waits until the broker granted its subscription.
func startSub(t *testing.T, addr, topic string, qos, count int) (*exec.Cmd, *testenv.LockedBuffer) {
	t.Helper()
	host, port, _ := strings.Cut(addr, ":")
	out := &testenv.LockedBuffer{}
	// Line-buffered, so its debug line about the SUBACK shows at once.
	cmd := exec.Command(testenv.RequireTool(t, "stdbuf", "coreutils"), "-oL", "-eL", testenv.RequireTool(t, "mosquitto_sub", "mosquitto-clients"), "-h", host, "-p", port, "-t", topic, "-q", fmt.Sprint(qos), "-C", fmt.Sprint(count), "-v", "-d", "-W", "30")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "received SUBACK") {
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto_sub did not subscribe within 10 s:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd, out
}

// messages are the lines of mosquitto_sub's output that are messages
// (-v: "topic payload"), not its debug lines (-d: "Client ...").
func messages(out string) []string {
	var m []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" && !strings.HasPrefix(l, "Client ") && !strings.HasPrefix(l, "Subscribed") {
			m = append(m, l)
		}
	}
	return m
}

// TestClientToMosquittoSub: boxtax's publishers publish to the real
// mosquitto and mosquitto_sub receives every message, at QoS 1 and 2 (the
// publishers count a message only at its PUBACK or PUBCOMP).
func TestClientToMosquittoSub(t *testing.T) {
	path := requireMosquitto(t)
	for _, qos := range []int{1, 2} {
		t.Run(fmt.Sprintf("qos%d", qos), func(t *testing.T) {
			m, err := startMosquitto(path, "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer m.stop()
			w, err := watchSession(context.Background(), m.addr, m.exited)
			if err != nil {
				t.Fatal(err)
			}
			defer w.conn.Close()
			const perClient, clients = 150, 2
			sub, out := startSub(t, m.addr, "boxtax/interop", qos, perClient*clients)
			p, _, err := workload.Prepare(Pub, workload.Params{"qos": qos, "clients": clients, "messages": perClient, "topic": "boxtax/interop", "payload": 20, "inflight": 4})
			if err != nil {
				t.Fatal(err)
			}
			r := &workloadtest.Recorder{}
			if err := workloadtest.Sides(t, Pub, p).Client(context.Background(), m.addr, r); err != nil {
				t.Fatalf("Client: %v", err)
			}
			if err := sub.Wait(); err != nil {
				t.Fatalf("mosquitto_sub: %v\n%s", err, out)
			}
			lines := messages(out.String())
			if len(lines) != perClient*clients {
				t.Errorf("mosquitto_sub printed %d lines, want %d", len(lines), perClient*clients)
			}
			for _, l := range lines {
				if l != "boxtax/interop abcdefghijklmnopqrst" {
					t.Fatalf("mosquitto_sub printed %q, want the topic and the 20-byte payload", l)
				}
			}
			if got := r.Notes["messages_acknowledged"]; got != fmt.Sprint(perClient*clients) {
				t.Errorf("%s messages acknowledged, want %d", got, perClient*clients)
			}
			if r.One(t, "errors") != 0 {
				t.Errorf("errors: %v (%s)", r.Samples["errors"], r.Notes["first_error"])
			}
			select {
			case <-w.ended:
			case <-time.After(5 * time.Second):
				t.Error("the client's end of session did not reach the server's watch")
			}
		})
	}
}

// TestEmbeddedBrokerWithMosquittoClients: the embedded broker serves the
// Debian clients mosquitto_pub and mosquitto_sub at every QoS, wildcards
// included, and boxtax's subscriber gets mosquitto_pub's messages.
func TestEmbeddedBrokerWithMosquittoClients(t *testing.T) {
	pub := testenv.RequireTool(t, "mosquitto_pub", "mosquitto-clients")
	b, err := NewBroker("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	host, port, _ := strings.Cut(b.Addr(), ":")
	for _, qos := range []int{0, 1, 2} {
		t.Run(fmt.Sprintf("qos%d", qos), func(t *testing.T) {
			sub, out := startSub(t, b.Addr(), "sensors/+/temp", qos, 3)
			lines := "21.5\n21.6\n21.7\n"
			cmd := exec.Command(pub, "-h", host, "-p", port, "-t", "sensors/kitchen/temp", "-q", fmt.Sprint(qos), "-l")
			cmd.Stdin = strings.NewReader(lines)
			if o, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("mosquitto_pub: %v\n%s", err, o)
			}
			// Not matching the filter: must not arrive.
			if o, err := exec.Command(pub, "-h", host, "-p", port, "-t", "sensors/kitchen/humidity", "-m", "40").CombinedOutput(); err != nil {
				t.Fatalf("mosquitto_pub: %v\n%s", err, o)
			}
			if err := sub.Wait(); err != nil {
				t.Fatalf("mosquitto_sub: %v\n%s", err, out)
			}
			want := "sensors/kitchen/temp 21.5|sensors/kitchen/temp 21.6|sensors/kitchen/temp 21.7"
			if got := strings.Join(messages(out.String()), "|"); got != want {
				t.Errorf("mosquitto_sub received %q, want %q", got, want)
			}
		})
	}
	t.Run("boxtax subscriber at qos2", func(t *testing.T) {
		c, err := dialMQTT(context.Background(), b.Addr(), "t-sub")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.subscribe("x/#", 2); err != nil {
			t.Fatal(err)
		}
		s := &subscriber{conn: c, base: time.Now(), done: make(chan struct{})}
		go s.run()
		cmd := exec.Command(pub, "-h", host, "-p", port, "-t", "x/y", "-q", "2", "-m", "0123456789")
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_pub: %v\n%s", err, o)
		}
		deadline := time.Now().Add(5 * time.Second)
		for s.received.Load() < 1 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		s.stop()
		if s.received.Load() != 1 {
			t.Errorf("received %d, want 1 (err %v)", s.received.Load(), s.err)
		}
	})
}

// TestMosquittoConfigRunsAsRoot: the generated configuration starts (its
// `user root` keeps a root mosquitto from switching to a user that a
// container has no entry for) and the version is read.
func TestMosquittoVersion(t *testing.T) {
	path := requireMosquitto(t)
	if v := mosquittoVersion(path); !strings.HasPrefix(v, "mosquitto 2.") && !strings.HasPrefix(v, "mosquitto 1.") {
		t.Errorf("version %q", v)
	}
}
