package workload

import "slices"

// Spec is a workload declared as data: what it says about itself, less
// its parameters, which its config C declares, and a Configure that parses
// the parameters into a new C. Define makes one and registers it.
type Spec[C any, P ConfigOf[C]] struct {
	info      Info
	newConfig func() P // a config before parsing
}

// ConfigOf is a workload's config: a *C that declares its parameters.
type ConfigOf[C any] interface {
	*C
	Declarer
	Config
}

// Define registers the workload that info describes, whose config is a
// C, and returns it.
func Define[C any, P ConfigOf[C]](info Info) Spec[C, P] {
	return DefineFrom(info, func() P { return new(C) })
}

// DefineFrom is Define for a config that is set before its parameters
// are parsed: newConfig makes it.
func DefineFrom[C any, P ConfigOf[C]](info Info, newConfig func() P) Spec[C, P] {
	w := Spec[C, P]{info, newConfig}
	Register(w)
	return w
}

// NewSpec is the workload that info describes, whose config is a C,
// unregistered: for a package's own kind of Spec, with more abilities.
func NewSpec[C any, P ConfigOf[C]](info Info) Spec[C, P] {
	return Spec[C, P]{info, func() P { return new(C) }}
}

// Info implements Workload: the declared info with C's parameters.
func (w Spec[C, P]) Info() Info {
	i := w.info
	i.Params = Declared(w.newConfig())
	i.Metrics = slices.Clone(i.Metrics)
	return i
}

// Configure implements Workload.
func (w Spec[C, P]) Configure(p Params) (Config, error) { return Parse(p, w.newConfig()) }

// SidesSpec is a Spec whose config is also Sides: a ClientServer workload
// declared as data. DefineSides makes one and registers it.
type SidesSpec[C any, P sidesOf[C]] struct{ Spec[C, P] }

// sidesOf is the config of a ClientServer workload.
type sidesOf[C any] interface {
	ConfigOf[C]
	Sides
}

// DefineSides registers the ClientServer workload that info describes,
// whose config is a C, and returns it.
func DefineSides[C any, P sidesOf[C]](info Info) SidesSpec[C, P] {
	w := NewSidesSpec[C, P](info)
	Register(w)
	return w
}

// NewSidesSpec is NewSpec for a ClientServer workload.
func NewSidesSpec[C any, P sidesOf[C]](info Info) SidesSpec[C, P] {
	return SidesSpec[C, P]{NewSpec[C, P](info)}
}

// ConfigureSides implements ClientServer.
func (w SidesSpec[C, P]) ConfigureSides(p Params) (Sides, error) { return Parse(p, w.newConfig()) }
