package worker

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// Output is everything one worker produced, or the workers of one run
// merged (Instances, Pair).
type Output struct {
	Messages  []workload.Message
	Settings  env.Settings
	Err       error  // the environment's: non-zero exit, container died...
	DecodeErr error  // reading the protocol failed
	Stderr    string // "; stderr: ..." tail, or ""
}

// Instances merges the outputs of a run's concurrent instances: each
// message tagged with its instance (1..n), each instance's settings
// prefixed with instanceN, their errors and stderr named by instance.
func Instances(outs []Output) Output {
	merged := Output{Settings: env.Settings{"instances": strconv.Itoa(len(outs))}}
	var errs, decodeErrs []error
	var stderr []string
	for i, o := range outs {
		for _, m := range o.Messages {
			m.Instance = i + 1
			merged.Messages = append(merged.Messages, m)
		}
		for k, v := range o.Settings {
			merged.Settings[fmt.Sprintf("instance%d.%s", i+1, k)] = v
		}
		if o.Err != nil {
			errs = append(errs, fmt.Errorf("instance %d: %w", i+1, o.Err))
		}
		if o.DecodeErr != nil {
			decodeErrs = append(decodeErrs, fmt.Errorf("instance %d: %w", i+1, o.DecodeErr))
		}
		if o.Stderr != "" {
			stderr = append(stderr, fmt.Sprintf("instance %d%s", i+1, o.Stderr))
		}
	}
	merged.Err, merged.DecodeErr = errors.Join(errs...), errors.Join(decodeErrs...)
	if len(stderr) > 0 {
		merged.Stderr = "; " + strings.Join(stderr, "; ")
	}
	return merged
}

// Pair merges a client-server pair: the client's messages as they are (it
// measures), the server's as workload.FromServer says (notes as
// server.<key>, errors as errors: they fail the run); the server's settings
// (its container...) as the run's, the client's as client.<key>, and where
// the client connected as server_address.
func Pair(client, server Output, target string) Output {
	out := client
	out.Messages = append([]workload.Message(nil), client.Messages...)
	for _, m := range server.Messages {
		if m, ok := workload.FromServer(m); ok {
			out.Messages = append(out.Messages, m)
		}
	}
	out.Settings = env.Settings{"server_address": target}
	for k, v := range server.Settings {
		out.Settings[k] = v
	}
	for k, v := range client.Settings {
		out.Settings["client."+k] = v
	}
	if out.Err == nil && server.Err != nil {
		out.Err = fmt.Errorf("server: %w", server.Err)
	}
	if out.DecodeErr == nil {
		out.DecodeErr = server.DecodeErr
	}
	if server.Stderr != "" {
		out.Stderr += "; server" + server.Stderr
	}
	return out
}
