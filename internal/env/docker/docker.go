// Package docker runs the worker in a Docker container (docker-bridge,
// docker-host) through the Engine API client of internal/docker; Podman's
// environments (env/podman) reuse its containers on their own service.
package docker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/lazyre"
)

// Environments are Docker's environments by name.
func Environments() map[string]env.Factory {
	return map[string]env.Factory{
		"docker-bridge": Factory("docker-bridge", "bridge",
			`the worker in a Docker container on the default bridge network with NAT, as "docker run" does (the seeds' "docker")`, newDockerEnv),
		"docker-host": Factory("docker-host", "host",
			`the worker in a Docker container sharing the host's network stack, "docker run --network host" (the seeds' "dockerhost")`, newDockerEnv),
	}
}

// Factory makes the container environment name, which newEnv makes on the
// network mode with the description.
func Factory[E env.Environment](name, networkMode, description string, newEnv func(name, networkMode, description string, o env.Options) E) env.Factory {
	return func(o env.Options) env.Environment { return newEnv(name, networkMode, description, o) }
}

// Env runs the worker in a Docker container made from the worker image,
// on one network mode.
type Env struct {
	name, networkMode, description string
	ownNetworkMode                 string // the network mode without a network option
	opts                           env.Options
	client                         *docker.Client
	clientErr                      error // a DOCKER_HOST boxtax cannot use

	// limitCaps caps the containers' limits of open files and processes
	// (nofile, nproc), each set to at most its cap: an engine that cannot
	// give more than its own hard limits (Podman) sets it.
	limitCaps map[string]int64
	// waitAfterOutput: see dockerInstance.waitAfterOutput.
	waitAfterOutput bool
	// runtimeByService: the runtime option chooses the engine's service
	// (Podman, env/podman/runtime.go), not a setting of each container.
	runtimeByService bool
	// imageSource, when set, is the engine a user's image this one lacks
	// is moved from (user_image.go).
	imageSource func() (*docker.Client, error)

	mu            sync.Mutex
	image         workerImage // set by Prepare
	storageDriver string
}

// Engine is what an engine behind the Docker API does otherwise than
// Docker (Podman's, env/podman).
type Engine struct {
	WaitAfterOutput  bool                           // see dockerInstance.waitAfterOutput
	RuntimeByService bool                           // see Env.runtimeByService
	ImageSource      func() (*docker.Client, error) // see Env.imageSource
}

// NewOn makes a container environment on an engine other than Docker,
// whose client Use sets once the engine answers.
func NewOn(name, networkMode, description string, o env.Options, e Engine) *Env {
	d := &Env{name: name, networkMode: networkMode, description: description, opts: o,
		waitAfterOutput: e.WaitAfterOutput, runtimeByService: e.RuntimeByService, imageSource: e.ImageSource}
	d.withVariant()
	return d
}

// Use sets the client of the engine and the caps of its containers'
// limits (Env.limitCaps); a nil client until it answers again.
func (d *Env) Use(c *docker.Client, limitCaps map[string]int64) { d.client, d.limitCaps = c, limitCaps }

// Options are the options the environment was made with.
func (d *Env) Options() env.Options { return d.opts }

// NetworkMode is the network its containers are on: bridge, host or none.
func (d *Env) NetworkMode() string { return d.networkMode }

func newDockerEnv(name, networkMode, description string, o env.Options) *Env {
	// DOCKER_HOST is read here, as the docker CLI does, from the caller's
	// environment; an unusable value is reported by Available.
	c, err := docker.FromGetenv(o.Getenv)
	d := &Env{name: name, networkMode: networkMode, description: description, opts: o, client: c, clientErr: err}
	d.withVariant()
	return d
}

// withVariant names the environment after its options and lets a network
// option replace the network mode.
func (d *Env) withVariant() {
	d.ownNetworkMode = d.networkMode
	v := d.opts.Variant
	if len(v) == 0 {
		return
	}
	d.name += v.String()
	d.description += ", with " + strings.ReplaceAll(strings.TrimPrefix(v.String(), "+"), "+", ", ")
	if n := v["network"]; n != "" {
		d.networkMode = n
	}
}

// DefaultNetwork implements env.NetworkOwner.
func (d *Env) DefaultNetwork() string { return d.ownNetworkMode }

func (d *Env) Name() string        { return d.name }
func (d *Env) Description() string { return d.description }

// Available checks that the daemon answers and that the worker binary can
// run in a FROM scratch image on the daemon's architecture.
func (d *Env) Available(ctx context.Context) error {
	if d.clientErr != nil {
		return fmt.Errorf("%s: %w", d.name, d.clientErr)
	}
	if err := d.client.Ping(ctx); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	arch, err := env.CheckStaticELF(d.opts.BinaryPath)
	if err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	v, err := d.client.Version(ctx)
	if err != nil {
		return fmt.Errorf("%s: asking the daemon its version: %w", d.name, err)
	}
	if arch != "" && v.Arch != "" && arch != v.Arch {
		return fmt.Errorf("%s: the boxtax binary at %s is built for %s but the Docker daemon runs on %s: "+
			"build it with GOARCH=%s CGO_ENABLED=0", d.name, d.opts.BinaryPath, arch, v.Arch, v.Arch)
	}
	if len(d.opts.Variant) > 0 {
		info, err := d.client.Info(ctx)
		if err != nil {
			return fmt.Errorf("%s: asking the daemon for its CPUs: %w", d.name, err)
		}
		if err := env.CheckVariantHost(d.opts.Variant, env.FirstCPUs(info.NCPU)); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		if rt := d.opts.Variant["runtime"]; rt != "" && !d.runtimeByService {
			if err := runtimeListed(info, rt); err != nil {
				return fmt.Errorf("%s: %w", d.name, err)
			}
		}
	}
	return nil
}

// Prepare checks availability and makes sure the worker image exists,
// building it once per process for all Docker environments.
func (d *Env) Prepare(ctx context.Context) error {
	if err := d.Available(ctx); err != nil {
		return err
	}
	img, err := ensureWorkerImage(ctx, d.client, d.opts)
	if err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	info, err := d.client.Info(ctx)
	if err != nil {
		return fmt.Errorf("%s: asking the daemon for its storage driver: %w", d.name, err)
	}
	d.mu.Lock()
	d.image, d.storageDriver = img, info.Driver
	d.mu.Unlock()
	return nil
}

// prepared returns the worker image, preparing first if Prepare was not called.
func (d *Env) prepared(ctx context.Context) (workerImage, string, error) {
	d.mu.Lock()
	img, driver := d.image, d.storageDriver
	d.mu.Unlock()
	if img.Tag != "" {
		return img, driver, nil
	}
	if err := d.Prepare(ctx); err != nil {
		return workerImage{}, "", err
	}
	return d.prepared(ctx)
}

// userImage is the user's image named, which must be on the engine (or
// moved to it: user_image.go) with the id wantID when that is set.
func (d *Env) userImage(ctx context.Context, name, wantID string) (workerImage, error) {
	return d.findUserImage(ctx, name, wantID)
}

// startImage is the image a spec's container starts from, with the
// entrypoint and binds a user's image needs, and the storage driver.
func (d *Env) startImage(ctx context.Context, spec env.Spec) (img workerImage, driver string, entrypoint, binds []string, err error) {
	img, driver, err = d.prepared(ctx)
	if err != nil {
		return img, "", nil, nil, err
	}
	if spec.Image != "" {
		// The user's image, with this very binary mounted as its entrypoint.
		if img, err = d.userImage(ctx, spec.Image, spec.ImageID); err != nil {
			return img, "", nil, nil, err
		}
		return img, driver, []string{env.UserImageBinary}, []string{d.opts.BinaryPath + ":" + env.UserImageBinary + ":ro"}, nil
	}
	if img, err = workerImageFor(ctx, d.client, d.opts, img, spec); err != nil {
		return img, "", nil, nil, fmt.Errorf("%s: %w", d.name, err)
	}
	if err := env.HoldImage(img.ID); err != nil { // again after ReleaseImages
		return img, "", nil, nil, fmt.Errorf("%s: %w", d.name, err)
	}
	return img, driver, nil, nil, nil
}

// Start creates the container, attaches to its output, then starts it, so
// that no output is lost. ctx bounds starting only; Stop ends the instance.
func (d *Env) Start(ctx context.Context, spec env.Spec, stdout, stderr io.Writer) (env.Instance, error) {
	img, driver, entrypoint, binds, err := d.startImage(ctx, spec)
	if err != nil {
		return nil, err
	}
	var user string
	if spec.Image != "" {
		user = "0" // the worker; the program runs as the image's user (the cmd workload)
	}
	labels := maps.Clone(spec.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[env.LabelManaged] = "true"
	// What tells boxtax's own containers (ownContainer) from a user's run
	// of a boxtax image; without /proc, a value no live controller has.
	labels[env.LabelController] = cmp.Or(env.ThisController(), "unknown")
	if spec.Netns != "" {
		return nil, fmt.Errorf("%s: a container cannot run in network namespace %s; only native workers can", d.name, spec.Netns)
	}
	exposed, bindings := d.publish(spec.Ports)
	hc := docker.HostConfig{
		NetworkMode:  d.networkMode,
		CpusetCpus:   spec.CPUSet,
		CapAdd:       spec.CapAdd,
		Ulimits:      dockerUlimits(capUlimits(spec.Ulimits, d.limitCaps)),
		PortBindings: bindings,
		Binds:        binds,

		CPURealtimeRuntime: spec.CPURealtimeRuntimeUs,
	}
	undo, err := d.applyVariant(ctx, &hc, spec)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", d.name, err), undo())
	}
	t0 := time.Now()
	// Not cancelled with ctx: the engine goes on creating a container
	// whose request was given up, and nobody would know its ID to remove
	// it (Ctrl-C while creating left it behind, in state Created). Once
	// created, it is removed below if ctx ended meanwhile.
	createCtx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), env.CreateTimeout)
	create := func() (docker.Created, error) {
		return d.client.ContainerCreate(createCtx, docker.ContainerConfig{
			Image:        img.Tag,
			Cmd:          spec.Args,
			Entrypoint:   entrypoint,
			User:         user,
			Labels:       labels,
			ExposedPorts: exposed,
			HostConfig:   hc,
		})
	}
	created, err := create()
	if err != nil && docker.IsNotFound(err) && spec.Image == "" {
		// boxtax's image went (a boxtax clean --images that ran before
		// this process held it, or docker rmi): build it again, once.
		forgetWorkerImage(d.client, img.Tag)
		d.mu.Lock()
		d.image = workerImage{}
		d.mu.Unlock()
		if img, _, _, _, err = d.startImage(createCtx, spec); err == nil { // no entrypoint or binds: boxtax's own image
			created, err = create()
		}
	}
	cancelCreate()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", d.name, err), undo())
	}
	createDur := time.Since(t0)
	inst := newDockerInstance(d.client, created.ID, stdout, stderr)
	inst.waitAfterOutput = d.waitAfterOutput
	inst.undo = undo
	fail := func(err error) (env.Instance, error) {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), env.StopTimeout)
		defer cancel()
		_ = inst.Stop(stopCtx)
		return nil, fmt.Errorf("%s: %w", d.name, err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if err := inst.attach(ctx); err != nil {
		return fail(err)
	}
	t1 := time.Now()
	if err := d.client.ContainerStart(ctx, created.ID); err != nil {
		return fail(realtimeBudgetHint(err, spec))
	}
	startDur := time.Since(t1)
	inst.watch()
	ct, err := d.client.ContainerInspect(ctx, created.ID)
	if err != nil {
		return fail(err)
	}
	cpuset := ct.HostConfig.CpusetCpus
	if cpuset == "" {
		cpuset = "all"
	}
	inst.settings = env.Settings{
		"env":            d.name,
		"container_id":   ct.ID,
		"image":          img.Tag,
		"image_id":       ct.Image,
		"network_mode":   ct.HostConfig.NetworkMode,
		"cpuset":         cpuset,
		"cap_add":        strings.Join(ct.HostConfig.CapAdd, ","),
		"storage_driver": driver,
		"create_ms":      env.MsString(createDur),
		"start_ms":       env.MsString(startDur),
	}
	if len(spec.HostPrograms) > 0 {
		inst.settings["host_programs"] = strings.Join(env.HostProgramList(spec.HostPrograms), ",")
	}
	if exposed != nil {
		inst.settings["ip"] = ct.NetworkSettings.IP()
		inst.settings["ports"] = env.PortList(spec.Ports)
	}
	if len(created.Warnings) > 0 {
		inst.settings["warnings"] = strings.Join(created.Warnings, "; ")
	}
	if spec.CPURealtimeRuntimeUs > 0 {
		inst.settings["cpu_rt_runtime_us"] = strconv.FormatInt(ct.HostConfig.CPURealtimeRuntime, 10)
	}
	variantSettings(inst.settings, d.opts.Variant, ct.HostConfig)
	return inst, nil
}

// realtimeBudgetHint explains the engine's refusal to give a container a
// real-time budget its parent cgroup does not have, naming that cgroup
// (Docker's /docker, Podman's /libpod_parent) when the error does.
func realtimeBudgetHint(err error, spec env.Spec) error {
	if spec.CPURealtimeRuntimeUs <= 0 || !strings.Contains(err.Error(), "cpu.rt_runtime_us") {
		return err
	}
	parent := "/sys/fs/cgroup/cpu/docker"
	if m := rtParentRE.Get().FindStringSubmatch(err.Error()); m != nil {
		parent = m[1]
	}
	hint := fmt.Sprintf("once as root: echo 950000 > %s/cpu.rt_runtime_us", parent)
	if strings.HasSuffix(parent, "/docker") {
		hint = "start dockerd with --cpu-rt-runtime=950000 (daemon.json \"cpu-rt-runtime\": 950000), or " + hint
	}
	return fmt.Errorf("%w: the engine's cgroup %s has no real-time CPU budget to give the container "+
		"(kernel with CONFIG_RT_GROUP_SCHED): %s", err, parent, hint)
}

// rtParentRE finds the parent cgroup in an OCI runtime's failure to write a
// container's cpu.rt_runtime_us.
var rtParentRE = lazyre.New(`(/sys/fs/cgroup/[^\s:]+)/[^/\s:]+/cpu\.rt_runtime_us`)

// capUlimits is limits with each capped limit at most its cap, and set to
// its cap when the spec leaves it to the engine (whose default may be
// higher) or asks for unlimited (-1).
func capUlimits(limits, caps map[string]int64) map[string]int64 {
	if len(caps) == 0 {
		return limits
	}
	out := maps.Clone(limits)
	if out == nil {
		out = map[string]int64{}
	}
	for name, limit := range caps {
		if v, ok := out[name]; !ok || v < 0 || v > limit {
			out[name] = limit
		}
	}
	return out
}

// dockerUlimits turns a name -> limit map into Docker's ulimit list, soft and
// hard alike, in name order.
func dockerUlimits(limits map[string]int64) []docker.Ulimit {
	var out []docker.Ulimit
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		out = append(out, docker.Ulimit{Name: name, Soft: limits[name], Hard: limits[name]})
	}
	return out
}
