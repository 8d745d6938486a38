package hostinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// DeviceFacts tell the devices of a fleet apart and say what one of them
// could not run.
type DeviceFacts struct {
	// Device is the user's name for the machine (run --host-label, e.g. an
	// Ansible inventory hostname); see Label.
	Device string `json:"device,omitempty"`
	// MachineID is a digest of /etc/machine-id: it tells machines that
	// share a hostname (every Raspberry Pi is "raspberrypi") apart.
	MachineID string `json:"machine_id,omitempty"`
	// Unavailable names the environments of the study that could not run on
	// this machine, with the reason (run --skip-unavailable left them out).
	Unavailable map[string]string `json:"unavailable_envs,omitempty"`
}

// Label is how reports name the machine: the device name the user gave
// (an Ansible inventory hostname, say), else the hostname.
func (h Host) Label() string {
	if h.Device != "" {
		return h.Device
	}
	if h.Hostname != "" {
		return h.Hostname
	}
	return "unknown"
}

// LabelOf reads the label from host facts stored as JSON; "unknown" when
// they cannot be read.
func LabelOf(hostJSON string) string { return Parse(hostJSON).Label() }

// Parse reads host facts stored as JSON (a study's host_json). Facts it
// cannot read are left empty, as Collect leaves those it cannot find.
func Parse(hostJSON string) Host {
	var h Host
	_ = json.Unmarshal([]byte(hostJSON), &h)
	return h
}

// CheckLabel tells whether a device label can name a column, a factor level
// and a file: 1 to 64 letters, digits and . _ -.
func CheckLabel(label string) error {
	if label == "" || len(label) > 64 {
		return fmt.Errorf("device label %q: use 1 to 64 characters", label)
	}
	for _, r := range label {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-", r)) {
			return fmt.Errorf("device label %q: use letters, digits and . _ - only (as in an inventory hostname such as pi4-kitchen)", label)
		}
	}
	return nil
}

// machineID is a short digest of /etc/machine-id (never the id itself,
// which systemd asks not to expose): stable across reboots and renames.
func machineID() string {
	id := readTrim("/etc/machine-id")
	if id == "" {
		id = readTrim("/var/lib/dbus/machine-id")
	}
	if id == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("boxtax device\x00" + id))
	return hex.EncodeToString(sum[:8])
}
