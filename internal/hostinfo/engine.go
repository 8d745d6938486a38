package hostinfo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Engine is what a container engine told about itself, recorded with every
// study that ran in it (Host.Engines): its version, API, storage, cgroups,
// or why it could not be asked.
type Engine interface {
	// Name is the engine and its version, e.g. "Docker Engine 20.10.24";
	// empty when unknown.
	Name() string
	// Summary is the engine in one line, as reports name it beside the
	// environments it ran; empty when unknown.
	Summary() string
	// Detail is the engine in one line as boxtax sysinfo prints it, or why
	// it could not be asked.
	Detail() string
	// Facts are the engine as rows of a report's table of host facts.
	Facts() []Fact
}

// Fact is one row of a table of host facts: its name and its value.
type Fact struct{ Name, Value string }

// EngineFacts are the rows of every engine's facts, the engines by rank.
func (h Host) EngineFacts() []Fact {
	var out []Fact
	for _, key := range orderedKeys(h.Engines) {
		if e := h.Engines[key]; e != nil {
			out = append(out, e.Facts()...)
		}
	}
	return out
}

// engineKind is a key engine facts are recorded under, the type they
// read back into and where they are listed.
type engineKind struct {
	key  string
	rank int
	new  func() Engine
}

var (
	kindsMu sync.RWMutex
	kinds   []engineKind
)

// RegisterEngine says that facts recorded under key read back as the
// Engine new returns (a pointer to a struct with JSON tags). Each engine
// registers its own (env/docker, env/podman, env/lxc), so a new engine is
// added there; keys are listed by rank, lowest first, whatever the order
// the packages register them in.
func RegisterEngine(key string, rank int, new func() Engine) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if slices.ContainsFunc(kinds, func(k engineKind) bool { return k.key == key }) {
		panic("hostinfo: engine " + key + " registered twice")
	}
	at := slices.IndexFunc(kinds, func(k engineKind) bool { return k.rank > rank })
	if at < 0 {
		at = len(kinds)
	}
	kinds = slices.Insert(kinds, at, engineKind{key, rank, new})
}

// EngineKeys lists the registered engine keys by rank.
func EngineKeys() []string {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	var keys []string
	for _, k := range kinds {
		keys = append(keys, k.key)
	}
	return keys
}

func kindOf(key string) (engineKind, bool) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	i := slices.IndexFunc(kinds, func(k engineKind) bool { return k.key == key })
	if i < 0 {
		return engineKind{}, false
	}
	return kinds[i], true
}

// hostFields is Host without its JSON methods.
type hostFields Host

// MarshalJSON writes the host's facts with each engine's as a member of
// the object under its key, before boxtax_version, where the fields per
// engine were: a record is the same as before engines were keyed.
func (h Host) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(hostFields(h))
	if err != nil {
		return nil, err
	}
	var members bytes.Buffer
	engines := h.Engines
	for _, key := range orderedKeys(engines) {
		e, err := json.Marshal(engines[key])
		if err != nil {
			return nil, fmt.Errorf("host facts: engine %s: %w", key, err)
		}
		k, _ := json.Marshal(key)
		fmt.Fprintf(&members, ",%s:%s", k, e)
	}
	// Every member before boxtax_version is a plain value, and a quote in
	// a string is escaped, so this finds the member itself.
	at := bytes.Index(b, []byte(`,"boxtax_version":`))
	if at < 0 {
		return nil, fmt.Errorf("host facts: no boxtax_version member in %s", b)
	}
	return slices.Concat(b[:at], members.Bytes(), b[at:]), nil
}

// UnmarshalJSON reads host facts, each registered engine's from its member;
// records written before engines were keyed read the same.
func (h *Host) UnmarshalJSON(b []byte) error {
	var plain hostFields
	if err := json.Unmarshal(b, &plain); err != nil {
		return err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	*h = Host(plain)
	h.Engines = nil
	for key, raw := range members {
		kind, ok := kindOf(key)
		if !ok || bytes.Equal(raw, []byte("null")) {
			continue
		}
		e := kind.new()
		if err := json.Unmarshal(raw, e); err != nil {
			return fmt.Errorf("host facts: engine %s: %w", key, err)
		}
		if h.Engines == nil {
			h.Engines = map[string]Engine{}
		}
		h.Engines[key] = e
	}
	return nil
}

// orderedKeys are the keys of engines, the registered ones by rank,
// then any others in name order.
func orderedKeys(engines map[string]Engine) []string {
	var out []string
	for _, k := range EngineKeys() {
		if _, ok := engines[k]; ok {
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(engines)) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
