package study

import (
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/store"
)

// SameMachine tells whether two stored studies ran on one machine, by the
// host facts each recorded (hostinfo.SameMachine): their figures are then
// a history of that machine.
func SameMachine(a, b store.Study) bool {
	return hostinfo.SameMachine(hostinfo.Parse(a.HostJSON), hostinfo.Parse(b.HostJSON))
}
