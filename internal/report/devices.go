package report

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
