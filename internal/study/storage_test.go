package study

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/testenv"
)

// Issue 28: the FUSE storage sentence came once per cell after the runs.
// When the engine's storage driver is known, before the first run, the
// study says it once, naming the disk workloads and the environments whose
// own storage it is.
func TestStorageNoteBeforeTheFirstRun(t *testing.T) {
	spec, err := ParseSpec("s.yaml", []byte("name: s\nenvs: [native, docker-bridge, docker-host, docker-bridge+storage=volume]\nworkloads: [cpu.prime, disk.seq, disk.rand]\n"))
	if err != nil {
		t.Fatal(err)
	}
	fuse := hostinfo.Host{Engines: map[string]hostinfo.Engine{"docker": &docker.EngineFacts{ServerVersion: "20.10.24", StorageDriver: "fuse-overlayfs"}}}
	note := spec.StorageNote(fuse)
	testenv.Says(t, "the note", note, "storage: in docker-bridge, docker-host a container's files lie on fuse-overlayfs", "the figures of disk.seq, disk.rand there are the driver's")
	if strings.Contains(note, "cpu.prime") || strings.Contains(note, "storage=volume a container") || strings.Contains(note, "native") {
		t.Errorf("note %q names what does not use the container's storage", note)
	}
	overlay := hostinfo.Host{Engines: map[string]hostinfo.Engine{"docker": &docker.EngineFacts{ServerVersion: "29.0.0", StorageDriver: "overlay2"}}}
	if n := spec.StorageNote(overlay); n != "" {
		t.Errorf("overlay2: %q", n)
	}
	cpu, err := ParseSpec("c.yaml", []byte("name: c\nenvs: [native, docker-bridge]\nworkloads: [cpu.prime]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := cpu.StorageNote(fuse); n != "" {
		t.Errorf("no disk workload: %q", n)
	}
}
