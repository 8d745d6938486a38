package monitor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// thermalSource reads every thermal zone and hwmon temperature sensor.
type thermalSource struct{ sensors map[string]string } // reading name -> file (millidegrees C)

func newThermalSource(sysfs string) (*thermalSource, error) {
	s := &thermalSource{sensors: map[string]string{}}
	for _, zone := range glob(filepath.Join(sysfs, "class/thermal/thermal_zone*/temp")) {
		s.sensors["temp_"+filepath.Base(filepath.Dir(zone))+"_C"] = zone
	}
	for _, in := range glob(filepath.Join(sysfs, "class/hwmon/hwmon*/temp*_input")) {
		dev := filepath.Base(filepath.Dir(in))
		name, _ := os.ReadFile(filepath.Join(filepath.Dir(in), "name"))
		label := strings.TrimSuffix(filepath.Base(in), "_input")
		s.sensors[fmt.Sprintf("temp_%s_%s_%s_C", dev, strings.TrimSpace(string(name)), label)] = in
	}
	for name, path := range s.sensors {
		if _, err := readNumber(path); err != nil {
			delete(s.sensors, name) // listed but unreadable
		}
	}
	if len(s.sensors) == 0 {
		return nil, errors.New("no readable thermal zone or hwmon temperature sensor")
	}
	return s, nil
}

func (s *thermalSource) Name() string { return "temperature" }

func (s *thermalSource) Read(time.Time) []Reading {
	var out []Reading
	for name, path := range s.sensors {
		if v, err := readNumber(path); err == nil {
			out = append(out, Reading{name, "°C", v / 1000})
		}
	}
	return out
}

// freqSource reads every CPU's current frequency.
type freqSource struct{ files []string }

func newFreqSource(sysfs string) (*freqSource, error) {
	files := glob(filepath.Join(sysfs, "devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq"))
	if len(files) == 0 {
		return nil, errors.New("no cpufreq (a VM, or a kernel without cpufreq)")
	}
	return &freqSource{files: files}, nil
}

func (s *freqSource) Name() string { return "cpu frequency" }

func (s *freqSource) Read(time.Time) []Reading {
	var out []Reading
	for _, f := range s.files {
		if v, err := readNumber(f); err == nil {
			cpu := filepath.Base(filepath.Dir(filepath.Dir(f)))
			out = append(out, Reading{"freq_" + cpu + "_MHz", "MHz", v / 1000})
		}
	}
	return out
}

// throttleSource reads the Raspberry Pi firmware's throttling flags
// (get_throttled in sysfs, as vcgencmd get_throttled reports them).
type throttleSource struct{ path string }

func newThrottleSource(sysfs string) (*throttleSource, error) {
	for _, p := range glob(filepath.Join(sysfs, "devices/platform/soc/soc:firmware/get_throttled")) {
		if _, err := os.ReadFile(p); err == nil {
			return &throttleSource{path: p}, nil
		}
	}
	return nil, errors.New("no Raspberry Pi firmware get_throttled file")
}

func (s *throttleSource) Name() string { return "throttling" }

// Read reports the flags: bit 0 under-voltage now, 1 frequency capped now,
// 2 throttled now, 16-18 the same since boot.
func (s *throttleSource) Read(time.Time) []Reading {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return nil
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(string(b)), "0x"), 16, 64)
	if err != nil {
		return nil
	}
	bit := func(n uint) float64 { return float64((v >> n) & 1) }
	return []Reading{{"undervoltage_now", "", bit(0)}, {"freq_capped_now", "", bit(1)}, {"throttled_now", "", bit(2)},
		{"undervoltage_since_boot", "", bit(16)}, {"throttled_since_boot", "", bit(18)}}
}
