package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/workload"
)

// StorageNote is what a study says before its first run when its disk
// workloads (workload.StorageUser) run in a container environment that
// keeps their files on its own storage (no +storage=bind, volume or
// tmpfs) through a driver that lets memory serve the I/O: fuse-overlayfs
// (O_DIRECT stops at the FUSE daemon, which reads through the host's page
// cache) or vfs. The host facts h, recorded before the plan, name each
// engine's driver. Empty when nothing of the kind runs. The report says
// the same after the runs, once, as the storage warning.
func (s *Spec) StorageNote(h hostinfo.Host) string {
	var disks []string
	for _, w := range s.Workloads {
		if wl, err := workload.Lookup(w.Name); err == nil && !slices.Contains(disks, w.Name) {
			if u, ok := wl.(workload.StorageUser); ok && u.UsesStorage() {
				disks = append(disks, w.Name)
			}
		}
	}
	if len(disks) == 0 {
		return ""
	}
	var envs []string
	driver := ""
	for _, name := range s.EnvNames() {
		d := storageDriver(h, name)
		if (!strings.Contains(d, "fuse") && d != "vfs") || !ownStorage(name) {
			continue
		}
		envs, driver = append(envs, name), d
	}
	if len(envs) == 0 {
		return ""
	}
	return fmt.Sprintf("storage: in %s a container's files lie on %s, where O_DIRECT stops at the driver and reads may come from the host's page cache: the figures of %s there are the driver's, not the disk's (+storage=volume or +storage=bind measures the disk)",
		strings.Join(envs, ", "), driver, strings.Join(disks, ", "))
}

// storageDriver is the storage driver the engine of environment name
// reported, from its facts; empty when none is recorded.
func storageDriver(h hostinfo.Host, name string) string {
	e := h.Engines[engines.FactsKey(name)]
	if e == nil {
		return ""
	}
	for _, f := range e.Facts() {
		if f.Name == "storage driver" {
			return f.Value
		}
	}
	return ""
}

// ownStorage says whether environment name keeps a workload's files on the
// container's own filesystem: no storage option, or storage=own.
func ownStorage(name string) bool {
	_, v, err := env.ParseName(name)
	if err != nil {
		return false
	}
	for _, o := range v.Options() {
		if o.Key == "storage" {
			return o.Value == "own"
		}
	}
	return true
}
