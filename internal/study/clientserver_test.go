package study

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

func TestMergedPairKeepsClientFiguresAndServerNotes(t *testing.T) {
	client := workerOutput{messages: []workload.Message{
		{Kind: workload.KindHello}, {Kind: workload.KindSample, Metric: "rate", Value: 1}, {Kind: workload.KindDone},
	}, settings: env.Settings{"pid": "7"}}
	server := workerOutput{messages: []workload.Message{
		{Kind: workload.KindHello}, {Kind: workload.KindNote, Key: "listening", Text: "0.0.0.0:9"},
		{Kind: workload.KindError, Text: "boom"}, {Kind: workload.KindDone},
	}, settings: env.Settings{"container_id": "abc"}, stderr: "; stderr: x"}
	out := merged(client, server, "198.18.0.1:9")
	var kinds []string
	for _, m := range out.messages {
		kinds = append(kinds, m.Kind+":"+m.Key+m.Text)
	}
	if got := strings.Join(kinds, " "); got != "hello: sample: done: note:server.listening0.0.0.0:9 error:server: boom" {
		t.Errorf("messages %s", got)
	}
	if out.settings["container_id"] != "abc" || out.settings["client.pid"] != "7" || out.settings["server_address"] != "198.18.0.1:9" {
		t.Errorf("settings %v", out.settings)
	}
	if out.stderr != "; server; stderr: x" {
		t.Errorf("stderr %q", out.stderr)
	}
}

func TestTakePortHandsOutDistinctFreePorts(t *testing.T) {
	seen := map[int]bool{}
	var releases []func()
	for range 20 {
		p, release, err := takePort("127.0.0.1", []string{"tcp", "udp"})
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		releases = append(releases, release)
	}
	for _, r := range releases {
		r()
	}
	if len(portsTaken) != 0 {
		t.Errorf("%d ports still held", len(portsTaken))
	}
}

func TestBarrierWaitsForEveryPair(t *testing.T) {
	b := newBarrier(3)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 2)
	for range 2 {
		go func() {
			b.arrive()
			done <- b.wait(ctx)
		}()
	}
	select {
	case <-done:
		t.Fatal("a pair went on before the third arrived")
	case <-time.After(50 * time.Millisecond):
	}
	b.arrive() // the third pair gave up: it arrives without waiting
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	stuck := newBarrier(2)
	stuck.arrive()
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if err := stuck.wait(short); err == nil {
		t.Error("wait returned without every pair and without ctx ending")
	}
}
