package analysis

import (
	"encoding/json"
	"io"
	"math"

	"github.com/boxtax/boxtax/internal/stats"
)

// Schema names the JSON document WriteJSON writes (docs/analyze.md).
const Schema = "boxtax.analysis/v1"

// Num is a number that is null in JSON when not finite (R's NA).
type Num float64

// MarshalJSON writes null for NaN and infinities.
func (n Num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

type jsonDoc struct {
	Schema   string         `json:"schema"`
	Analyses []jsonAnalysis `json:"analyses"`
}

type jsonAnalysis struct {
	Workload     string                       `json:"workload"`
	Unit         string                       `json:"unit"`
	Observation  string                       `json:"observation"`
	N            Num                          `json:"n"`
	Runs         int                          `json:"runs,omitempty"`
	Responses    []string                     `json:"responses"`
	Units        map[string]string            `json:"units"`
	Model        string                       `json:"model"`
	Factors      []string                     `json:"factors"`
	Scenarios    []jsonScenario               `json:"scenarios"`
	Overall      map[string]jsonDescribe      `json:"overall"`
	Deadlines    []jsonDeadline               `json:"deadlines,omitempty"`
	ResidualDF   Num                          `json:"residual_df"`
	Manova       map[string][]jsonManova      `json:"manova,omitempty"`
	Anova        map[string][]jsonAnova       `json:"anova"`
	Coefficients map[string][]jsonCoefficient `json:"coefficients"`
	Notes        []string                     `json:"notes"`
}

type jsonScenario struct {
	Levels map[string]string       `json:"levels"`
	N      Num                     `json:"n"`
	Stats  map[string]jsonDescribe `json:"stats"`
}

type jsonDescribe struct {
	N    Num `json:"n"`
	Mean Num `json:"mean"`
	Std  Num `json:"std"`
}

type jsonDeadline struct {
	Levels map[string]string `json:"levels"`
	Runs   int               `json:"runs"`
	Means  map[string]Num    `json:"means"`
}

type jsonManova struct {
	Term         string `json:"term"`
	DF           Num    `json:"df"`
	Stat         Num    `json:"stat"`
	ApproxF      Num    `json:"approx_F"`
	NumDF        Num    `json:"num_df"`
	DenDF        Num    `json:"den_df"`
	P            Num    `json:"p"`
	PartialEtaSq Num    `json:"partial_eta_sq"`
}

type jsonAnova struct {
	Term         string `json:"term"`
	DF           Num    `json:"df"`
	SumSq        Num    `json:"sum_sq"`
	MeanSq       Num    `json:"mean_sq"`
	F            Num    `json:"F"`
	P            Num    `json:"p"`
	EtaSq        Num    `json:"eta_sq"`
	PartialEtaSq Num    `json:"partial_eta_sq"`
}

type jsonCoefficient struct {
	Term      string `json:"term"`
	Name      string `json:"name"`
	Estimate  Num    `json:"estimate"`
	StdError  Num    `json:"std_error"`
	T         Num    `json:"t"`
	P         Num    `json:"p"`
	Intercept Num    `json:"share_of_intercept"`
}

// WriteJSON writes the results as a boxtax.analysis/v1 document.
func WriteJSON(w io.Writer, results []*Result) error {
	doc := jsonDoc{Schema: Schema, Analyses: []jsonAnalysis{}}
	for _, r := range results {
		a := jsonAnalysis{Workload: r.Workload, Unit: r.Unit, Observation: r.Observation, N: Num(r.N), Runs: r.Runs, Responses: r.Responses, Units: r.Units,
			Model: r.Model, Factors: r.Shown, ResidualDF: Num(r.ResidualDF), Overall: map[string]jsonDescribe{},
			Anova: map[string][]jsonAnova{}, Coefficients: map[string][]jsonCoefficient{}, Notes: r.Notes}
		if a.Notes == nil {
			a.Notes = []string{}
		}
		if a.Units == nil {
			a.Units = map[string]string{}
		}
		for _, s := range r.Scenarios {
			js := jsonScenario{Levels: map[string]string{}, N: Num(s.N), Stats: map[string]jsonDescribe{}}
			for k, f := range r.Shown {
				js.Levels[f] = s.Levels[k]
			}
			for i, resp := range r.Responses {
				js.Stats[resp] = describeJSON(s.Stats[i])
			}
			a.Scenarios = append(a.Scenarios, js)
		}
		for i, resp := range r.Responses {
			if i < len(r.Overall) {
				a.Overall[resp] = describeJSON(r.Overall[i])
			}
		}
		if r.Deadlines != nil {
			for _, row := range r.Deadlines.Rows {
				jd := jsonDeadline{Levels: map[string]string{}, Runs: row.Runs, Means: map[string]Num{}}
				for k, f := range r.Shown {
					jd.Levels[f] = row.Levels[k]
				}
				for k, m := range r.Deadlines.Metrics {
					jd.Means[m] = Num(row.Means[k])
				}
				a.Deadlines = append(a.Deadlines, jd)
			}
		}
		if r.Manova != nil {
			a.Manova = map[string][]jsonManova{}
			for _, test := range stats.MultivariateTests {
				for _, row := range r.Manova[test] {
					a.Manova[test] = append(a.Manova[test], jsonManova{Term: row.Term, DF: Num(row.DF), Stat: Num(row.Stat),
						ApproxF: Num(row.ApproxF), NumDF: Num(row.NumDF), DenDF: Num(row.DenDF), P: Num(row.P), PartialEtaSq: Num(row.PartialEtaSq)})
				}
			}
		}
		for _, resp := range r.Responses {
			for _, row := range r.Anova[resp] {
				a.Anova[resp] = append(a.Anova[resp], jsonAnova{Term: row.Term, DF: Num(row.DF), SumSq: Num(row.SumSq), MeanSq: Num(row.MeanSq),
					F: Num(row.F), P: Num(row.P), EtaSq: Num(row.EtaSq), PartialEtaSq: Num(row.PartialEtaSq)})
			}
			coefs := r.Coefficients[resp]
			for j, c := range coefs {
				share := math.NaN()
				if j > 0 {
					share = c.Estimate / coefs[0].Estimate
				}
				a.Coefficients[resp] = append(a.Coefficients[resp], jsonCoefficient{Term: c.Term, Name: c.Name, Estimate: Num(c.Estimate),
					StdError: Num(c.StdError), T: Num(c.T), P: Num(c.P), Intercept: Num(share)})
			}
		}
		doc.Analyses = append(doc.Analyses, a)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func describeJSON(d Describe) jsonDescribe {
	return jsonDescribe{N: Num(d.N), Mean: Num(d.Mean), Std: Num(d.Std)}
}
