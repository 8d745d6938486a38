// Command rtdata writes synthetic data shaped like seed 002's Pi task
// (Masek & Thulin 2016): 2 deployments x 2 kernels x 2 loads x 5 runs x
// 360 000 slices of 100 Hz = 14.4 million slices with four responses in ns,
// the thesis's effects (Table 5.4) plus noise. It feeds bench/analyze-14m.sh:
//
//	go run ./bench/rtdata -csv /tmp/rt14m.csv               one CSV, 14.4M rows
//	go run ./bench/rtdata -db /tmp/rt14m-vanilla.db,/tmp/rt14m-rt.db   two studies as boxtax stores them
//
// The databases hold one study each, as if run on a vanilla and on a
// PREEMPT_RT kernel, with every slice as series, so that
// boxtax analyze --db A --db B reads them as it reads real studies.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/store"
)

const spec = `name: thesis-rt
repetitions: 5
warmup: 0
baseline: native
envs: [native, docker-host]
workloads:
  - name: rt.periodic
    params: {duration: 3600s}
factors:
  - name: load
    levels: [none, cpu]
    background:
      none:
      cpu: {workload: load.cpu}
`

func main() {
	csvPath := flag.String("csv", "", "write one CSV with every slice")
	dbPaths := flag.String("db", "", "two SQLite files, comma-separated: the vanilla and the PREEMPT_RT kernel's study")
	slices := flag.Int("slices", 360000, "slices a run (360000: one hour at 100 Hz)")
	runs := flag.Int("runs", 5, "runs a scenario")
	flag.Parse()
	var err error
	switch {
	case *csvPath != "":
		err = writeCSV(*csvPath, *slices, *runs)
	case *dbPaths != "":
		paths := strings.Split(*dbPaths, ",")
		if len(paths) != 2 {
			err = fmt.Errorf("-db needs two files, vanilla and rt")
			break
		}
		for k, p := range paths {
			if err = writeDB(p, k == 1, *slices, *runs); err != nil {
				break
			}
		}
	default:
		err = fmt.Errorf("give -csv FILE or -db VANILLA,RT")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rtdata:", err)
		os.Exit(1)
	}
}

// slice draws one slice's four parts in a scenario, with the thesis's
// coefficients and noise of its standard deviations' order.
func slice(rng *rand.Rand, docker, rt, load bool) (oh1, work, oh2, sleep float64) {
	d, k, l := b(docker), b(rt), b(load)
	oh1 = 24675 + 119*d + 7358*k - 9644*l - 118*d*k + 19000*rng.NormFloat64()
	work = 8034093 + 2121*d - 48434*k + 291274*l + 4689*d*k + 2.4e6*rng.NormFloat64()
	oh2 = 38997 + 987*d - 13056*k - 6159*l - 877*d*k + 48000*rng.NormFloat64()
	sleep = 2155372 - 77961*d - 414775*k + 156070*l + 71039*d*k + 1.9e6*rng.NormFloat64()
	return
}

func b(x bool) float64 {
	if x {
		return 1
	}
	return 0
}

func writeCSV(path string, slices, runs int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "deployment,kernel,load,run,oh1,work,oh2,sleep")
	rng := rand.New(rand.NewPCG(1, 2))
	run := 0
	var line []byte
	for _, kernel := range []string{"vanilla", "rt"} {
		for _, dep := range []string{"native", "docker"} {
			for _, load := range []string{"none", "cpu"} {
				for range runs {
					run++
					for range slices {
						oh1, work, oh2, sleep := slice(rng, dep == "docker", kernel == "rt", load == "cpu")
						line = append(line[:0], dep...)
						line = append(append(line, ','), kernel...)
						line = append(append(line, ','), load...)
						line = strconv.AppendInt(append(line, ','), int64(run), 10)
						for _, v := range []float64{oh1, work, oh2, sleep} {
							line = strconv.AppendInt(append(line, ','), int64(v), 10)
						}
						w.Write(append(line, '\n'))
					}
				}
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func writeDB(path string, rt bool, slices, runs int) error {
	ctx := context.Background()
	os.Remove(path)
	db, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	host := `{"kernel_release":"6.1.0","preemption":"PREEMPT_DYNAMIC","realtime_kernel":false}`
	if rt {
		host = `{"kernel_release":"6.1.0-rt","preemption":"PREEMPT_RT","realtime_kernel":true}`
	}
	var planned []store.Run
	for rep := range runs {
		for _, env := range []string{"native", "docker-host"} {
			for _, load := range []string{"none", "cpu"} {
				planned = append(planned, store.Run{Seq: len(planned), CellKey: "rt.periodic|env=" + env + "|load=" + load,
					Workload: "rt.periodic", Env: env, Levels: map[string]string{"env": env, "load": load}, Params: map[string]any{}, Rep: rep})
			}
		}
	}
	st := &store.Study{Name: "thesis-rt", SpecYAML: spec, Seed: 1, HostJSON: host}
	if err := db.CreateStudy(ctx, st, planned); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(b(rt))+3, 4))
	names := []string{"oh1_ns", "work_ns", "oh2_ns", "sleep_ns"}
	for i := range planned {
		r := &planned[i]
		cols := make([][]float64, 4)
		for k := range cols {
			cols[k] = make([]float64, slices)
		}
		for s := range slices {
			cols[0][s], cols[1][s], cols[2][s], cols[3][s] = slice(rng, r.Env == "docker-host", rt, r.Levels["load"] == "cpu")
		}
		var series []store.Series
		for k, n := range names {
			series = append(series, store.Series{Name: n, Unit: "ns", Values: cols[k]})
		}
		r.Status, r.Started, r.Ended = store.RunOK, time.Now(), time.Now()
		if err := db.FinishRun(ctx, r, nil, series); err != nil {
			return err
		}
	}
	return db.SetStudyStatus(ctx, st.ID, store.StudyFinished)
}
