package testenv

import (
	"path/filepath"
	"testing"
)

// LocalPlaybook writes dir/own.yml, a playbook of one's own for fleet run
// --playbook that runs on localhost without an inventory's hosts: it
// writes summary (a boxtax.fleet/v1 summary, JSON without single quotes)
// where fleet run reads it, then runs moreTasks (YAML tasks indented by
// four spaces, or ""). It returns the playbook's path.
func LocalPlaybook(tb testing.TB, dir, summary, moreTasks string) string {
	tb.Helper()
	path := filepath.Join(dir, "own.yml")
	yaml := "- hosts: localhost\n  connection: local\n  gather_facts: false\n  tasks:\n" +
		"    - ansible.builtin.copy:\n        dest: \"{{ boxtax_results }}/summary.json\"\n        content: '" + summary + "'\n" + moreTasks
	WriteFile(tb, path, []byte(yaml), 0o644)
	return path
}
