// Package ansible ships the Ansible playbook and role that run a boxtax
// study on a fleet of devices (study.yml, roles/boxtax), embedded in the
// binary so `boxtax fleet run` needs nothing but boxtax, Ansible and the
// cross-built binaries.
package ansible

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed study.yml stop.yml roles
var files embed.FS

// Playbook is the file name of the playbook inside the written directory.
const Playbook = "study.yml"

// StopPlaybook is the file name of the playbook that stops the study on
// every device (fleet run, when stopped).
const StopPlaybook = "stop.yml"

// WriteTo writes the playbook and its role into dir.
func WriteTo(dir string) error {
	return fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, path)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}
