package cli

import (
	"path/filepath"
	"testing"
)

func TestFleetSnapshot(t *testing.T) {
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "dev.db"), "on the device", epyc, 1)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no copy named", []string{"fleet", "snapshot", "--db", "dev.db"}, ExitUsage, "name the database and the one file"},
		{"no database", []string{"fleet", "snapshot", "--db", "none.db", "copy.db"}, 1, "no database at none.db"},
		{"an unknown verb", []string{"fleet", "stop"}, ExitUsage, "fleet's verb is run"},
		{"a copy", []string{"fleet", "snapshot", "--db", "dev.db", "copy.db"}, ExitOK, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runExits(t, dir, tt.code, tt.args, tt.want)
		})
	}
	r := runOK(t, dir, "list", "studies", "--db", "copy.db")
	stdoutSays(t, r, "on the device")
}
