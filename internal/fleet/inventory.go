package fleet

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/lazyre"
)

// InventoryError is an inventory Ansible cannot use: a file that is not
// there, one it cannot parse, or one that names no device. It is bad input
// (exit 2), not a failure of the devices.
type InventoryError struct {
	Inventory string
	Problem   string // what is wrong, with what Ansible said about it
}

func (e *InventoryError) Error() string {
	return fmt.Sprintf("inventory %s: %s", e.Inventory, e.Problem)
}

// inventoryEnv makes ansible-playbook fail, instead of going on with no
// device and a warning, when it can parse none of the inventory's sources.
const inventoryEnv = "ANSIBLE_INVENTORY_UNPARSED_FAILED=true"

// checkInventory refuses an inventory that is neither a host list
// (hosts separated by commas) nor an existing file or directory.
func checkInventory(inventory string) error {
	if strings.Contains(inventory, ",") {
		return nil
	}
	_, err := os.Stat(inventory)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &InventoryError{inventory, "no such file or directory: give an inventory file, a directory, or host names separated by commas (pi1,pi2,)"}
	case err != nil:
		return &InventoryError{inventory, fmt.Sprintf("cannot read it (%v): give an inventory file this user may read", err)}
	}
	return nil
}

var (
	// ansibleSays starts a warning or an error in Ansible's output.
	ansibleSays = lazyre.New(`^(?:\[WARNING\]:|\[ERROR\]:|ERROR!)\s*`)
	// playOutput starts a line of the playbook's own output (PLAY [x],
	// ok: [host]), which ends a wrapped warning.
	playOutput = lazyre.New(`^(?:[A-Za-z ]+ \[|[a-z]+: \[|\[)`)
)

// inventoryWords mark Ansible's messages about the inventory.
var inventoryWords = []string{"inventory", "parse", "hosts list", "host pattern"}

// inventoryComplaints are the messages in Ansible's output about the
// inventory (a source it could not parse, no host in it), each joined from
// the lines Ansible wrapped it onto and said once, in Ansible's order.
func inventoryComplaints(output string) []string {
	var msgs []string
	var cur []string
	flush := func() {
		if cur != nil {
			msgs = append(msgs, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case ansibleSays.Get().MatchString(line):
			flush()
			cur = []string{strings.TrimLeft(ansibleSays.Get().ReplaceAllString(line, ""), "* ")}
		case cur != nil && line != "" && !playOutput.Get().MatchString(line):
			cur = append(cur, line)
		default:
			flush()
		}
	}
	flush()
	var out []string
	seen := map[string]bool{}
	for _, msg := range msgs {
		msg = strings.TrimRight(msg, ". ")
		low := strings.ToLower(msg)
		if seen[msg] || !slices.ContainsFunc(inventoryWords, func(w string) bool { return strings.Contains(low, w) }) {
			continue
		}
		seen[msg] = true
		out = append(out, msg)
	}
	return out
}

// badInventory is the error for an inventory Ansible could not use, with
// what Ansible said about it (from output), or nil when it said nothing.
func badInventory(inventory, output, what string) error {
	said := inventoryComplaints(output)
	if len(said) == 0 {
		return nil
	}
	return &InventoryError{inventory, fmt.Sprintf("%s; Ansible says: %s. Check it with: ansible-inventory -i %s --graph", what, strings.Join(said, "; "), inventory)}
}
