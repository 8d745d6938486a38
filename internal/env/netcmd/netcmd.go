// Package netcmd runs the ip and iptables commands the engines' networks
// need (LXC's bridge and NAT, Podman's forward rule) and reads back the
// iptables rules boxtax marked with a comment.
package netcmd

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"strings"
	"time"
)

// Rule is a rule of boxtax's as iptables -S prints it, without its -A.
type Rule struct {
	Spec    []string // chain and rule, as -D takes them
	Comment string
}

// CommentedRules picks from iptables -S output the rules whose
// comment starts with prefix. boxtax's comments have no spaces, so the
// fields split as given.
func CommentedRules(out, prefix string) []Rule {
	var rules []Rule
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] != "-A" {
			continue
		}
		for i := 0; i+1 < len(f); i++ {
			// iptables-nft quotes comments, iptables-legacy does not.
			if c := strings.Trim(f[i+1], `"`); f[i] == "--comment" && strings.HasPrefix(c, prefix) {
				f[i+1] = c
				rules = append(rules, Rule{Spec: f[1:], Comment: c})
				break
			}
		}
	}
	return rules
}

// Run runs a command (ip, iptables) and returns its error with what it
// said on stderr.
func Run(ctx context.Context, args ...string) error {
	_, err := Output(ctx, args...)
	return err
}

// Output runs a command and returns its output, or an *Error with what
// it said on stderr.
func Output(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), &Error{Args: args, Out: msg, Err: err}
	}
	return out.String(), nil
}

// Error is a failed command with what it said.
type Error struct {
	Args []string
	Out  string // what it said on stderr
	Err  error
}

func (e *Error) Error() string { return strings.Join(e.Args, " ") + ": " + e.Out }
func (e *Error) Unwrap() error { return e.Err }
