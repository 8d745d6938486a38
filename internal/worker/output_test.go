package worker

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

func TestMergedPairKeepsClientFiguresAndServerNotes(t *testing.T) {
	client := Output{Messages: []workload.Message{
		{Kind: workload.KindHello}, {Kind: workload.KindSample, Metric: "rate", Value: 1}, {Kind: workload.KindDone},
	}, Settings: env.Settings{"pid": "7"}}
	server := Output{Messages: []workload.Message{
		{Kind: workload.KindHello}, {Kind: workload.KindNote, Key: "listening", Text: "0.0.0.0:9"},
		{Kind: workload.KindError, Text: "boom"}, {Kind: workload.KindDone},
	}, Settings: env.Settings{"container_id": "abc"}, Stderr: "; stderr: x"}
	out := Pair(client, server, "198.18.0.1:9")
	var kinds []string
	for _, m := range out.Messages {
		kinds = append(kinds, m.Kind+":"+m.Key+m.Text)
	}
	if got := strings.Join(kinds, " "); got != "hello: sample: done: note:server.listening0.0.0.0:9 error:server: boom" {
		t.Errorf("messages %s", got)
	}
	if out.Settings["container_id"] != "abc" || out.Settings["client.pid"] != "7" || out.Settings["server_address"] != "198.18.0.1:9" {
		t.Errorf("settings %v", out.Settings)
	}
	if out.Stderr != "; server; stderr: x" {
		t.Errorf("stderr %q", out.Stderr)
	}
}
