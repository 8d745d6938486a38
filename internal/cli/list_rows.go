package cli

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// envRow is one environment in `list envs`.
type envRow struct {
	Name        string `json:"name"`
	Available   bool   `json:"available"`
	Reason      string `json:"reason,omitempty"` // why not available
	Description string `json:"description"`
}

// optionRow is one environment option in `list options`. Its JSON has
// lists where the option has lists: the values it takes (or, for a number
// or a size, ValuesText) and the engines that take it.
type optionRow struct {
	Key        string   `json:"key"`
	Values     []string `json:"values,omitempty"`
	ValuesText string   `json:"values_text,omitempty"` // a value that is not one of a list: "a size, e.g. 512m or 2g"
	Default    string   `json:"default"`
	Mechanism  string   `json:"mechanism"`
	Envs       []string `json:"envs"`
	EnvsNote   string   `json:"envs_note,omitempty"` // "Podman's compatible API ignores it per container"
}

// newOptionRow is info as a row, its lists split.
func newOptionRow(info env.OptionInfo) optionRow {
	r := optionRow{Key: info.Key, Default: info.Default, Mechanism: info.Mechanism}
	if strings.Contains(info.Values, "|") && !strings.Contains(info.Values, " ") {
		r.Values = strings.Split(info.Values, "|")
	} else {
		r.ValuesText = info.Values
	}
	envs := info.Envs
	if i := strings.Index(envs, " ("); i >= 0 && strings.HasSuffix(envs, ")") {
		envs, r.EnvsNote = envs[:i], envs[i+2:len(envs)-1]
	}
	r.Envs = splitList(envs)
	return r
}

// studyRow is one study in `list studies`: a preset, or one stored in --db.
type studyRow struct {
	Kind        string    `json:"kind"` // preset or stored
	Name        string    `json:"name"`
	Repetitions int       `json:"repetitions,omitempty"`
	Paper       *paperRow `json:"paper,omitempty"`
	Description string    `json:"description,omitempty"`
	ID          int64     `json:"id,omitempty"`     // stored
	DB          string    `json:"db,omitempty"`     // stored
	Status      string    `json:"status,omitempty"` // stored
	Created     time.Time `json:"created,omitzero"` // stored
}

type paperRow struct {
	ID          string `json:"id"`
	Repetitions int    `json:"repetitions"`
}

// listEnvs opens every environment to ask whether it can run here.
func listEnvs(ctx context.Context, g *Globals) (rows []envRow, err error) {
	opened := map[string]env.Environment{}
	defer func() {
		// Closed together, so that environments sharing a service
		// (Podman's) start it once.
		if err := env.CloseAll(ctx, opened); err != nil {
			warn(g, "%v", err)
		}
	}()
	for _, n := range engines.Names() {
		e, _ := engines.New(n, env.Options{BinaryPath: g.Executable, Version: g.Version})
		r := envRow{Name: n, Available: true, Description: e.Description()}
		if err := e.Available(ctx); err != nil {
			r.Available, r.Reason = false, oneLine(err.Error())
		}
		opened[n] = e
		rows = append(rows, r)
	}
	return rows, nil
}

// listStudies is the presets, then the studies stored in db if it exists.
func listStudies(ctx context.Context, db string) ([]studyRow, error) {
	var rows []studyRow
	for _, n := range study.Presets() {
		r := studyRow{Kind: "preset", Name: n}
		if spec, err := study.Preset(n); err == nil {
			r.Description, r.Repetitions = oneLine(spec.Description), spec.Repetitions
			if r.Repetitions == 0 {
				r.Repetitions = study.DefaultRepetitions
			}
			if p := spec.Paper; p != nil {
				r.Paper = &paperRow{p.ID, p.Repetitions}
			}
		}
		rows = append(rows, r)
	}
	s, err := store.OpenReadOnly(ctx, db)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, store.ErrEmpty) {
		return rows, nil // no stored studies yet
	}
	if err != nil {
		return nil, err
	}
	defer s.Close()
	studies, err := s.Studies(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range studies {
		rows = append(rows, studyRow{Kind: "stored", Name: st.Name, ID: st.ID, DB: db, Status: st.Status, Created: st.CreatedAt})
	}
	return rows, nil
}
