package hostinfo

// SameMachine tells whether two studies' host facts are of one machine,
// so that their figures are a history of it: the same machine id when
// both recorded one (it survives renames and reboots), else the same
// hostname, CPU model and number of CPUs. A new kernel, engine or boxtax
// version is the same machine in another state, which a history is meant
// to show, so they do not count.
func SameMachine(a, b Host) bool {
	if a.MachineID != "" && b.MachineID != "" {
		return a.MachineID == b.MachineID
	}
	return a.Hostname != "" && a.Hostname == b.Hostname && a.CPUModel == b.CPUModel && a.CPUs == b.CPUs
}
