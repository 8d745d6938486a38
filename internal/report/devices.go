package report

import (
	"io"

	"github.com/boxtax/boxtax/internal/registry"
)

// DevicesSchema names the JSON form of a report by device.
const DevicesSchema = "boxtax.devices/v1"

// Devices is one study run on several devices (merged from a fleet), put
// side by side: a column group per device, each with its own baseline and
// the overhead of its other environments against it.
type Devices struct {
	Schema  string         `json:"schema"`
	Devices []DeviceReport `json:"devices"`
}

// DeviceReport is one device's study.
type DeviceReport struct {
	Label string `json:"label"` // the device label (run --host-label, else the hostname)
	// Unavailable names the environments that could not run on the device,
	// with the reason.
	Unavailable map[string]string `json:"unavailable,omitempty"`
	Report      *Report           `json:"report"`
}

// NewDevices puts reports of one study on several devices side by side, in
// the given order.
func NewDevices(reports []*Report) *Devices {
	d := &Devices{Schema: DevicesSchema}
	for _, r := range reports {
		d.Devices = append(d.Devices, DeviceReport{Label: r.host.Label(), Unavailable: r.host.Unavailable, Report: r})
	}
	return d
}

// DeviceFormats lists the formats a report by device can be written in.
func DeviceFormats() []string { return deviceFormats.Names() }

var deviceFormats = registry.Registry[func(io.Writer, *Devices) error]{Unknown: "unknown format %q for a report by host; valid formats: %s"}

func init() { deviceFormats.Register("json", WriteJSON[*Devices]) }

// RegisterDeviceFormat adds a format of a report by device by name, from
// the package that writes it (tables), in its init.
func RegisterDeviceFormat(name string, fn func(io.Writer, *Devices) error) {
	deviceFormats.Register(name, fn)
}

// WriteDevices renders d in the named format; an unknown name lists the
// valid ones.
func WriteDevices(w io.Writer, format string, d *Devices) error {
	return writeWith(&deviceFormats, w, format, d)
}
