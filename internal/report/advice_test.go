package report

import (
	"math"
	"strings"
	"testing"
)

// adviceStudy is test.cpu's events/s (higher is better) at threads=1
// natively at 1000, in
// the full container at 190 (-81 %), with storage=bind at 900 (removes
// 71 pp), storage=volume at 970 (an option that swaps the storage: removes
// 78 pp), seccomp off at 200 (1 pp, within noise); and at threads=2,
// which the container makes faster (+20 %): nothing to remove.
func adviceStudy() *Report {
	envs := []string{"native", "docker-bridge", "docker-bridge+storage=bind", "docker-bridge+storage=volume", "docker-bridge+seccomp=unconfined"}
	means := map[string]map[string]float64{
		"1": {"native": 1000, "docker-bridge": 190, "docker-bridge+storage=bind": 900, "docker-bridge+storage=volume": 970, "docker-bridge+seccomp=unconfined": 200},
		"2": {"native": 1000, "docker-bridge": 1200, "docker-bridge+storage=bind": 1000, "docker-bridge+storage=volume": 1000, "docker-bridge+seccomp=unconfined": 1200},
	}
	return meansStudy(3, "explain", envs, []float64{-5, 0, 5}, means)
}

func TestAdviceNamesTheOptionThatRemovesMostOfACost(t *testing.T) {
	r := adviceStudy()
	got := Advise(r)
	if len(got) != 1 {
		t.Fatalf("advice %+v: want one, for threads=1 (threads=2 is faster in the container)", got)
	}
	a := got[0]
	if a.Workload != "test.cpu" || a.Levels["threads"] != "1" || a.Env != "docker-bridge" || a.Option != "storage=volume" || a.Variant != "docker-bridge+storage=volume" {
		t.Errorf("advice %+v: want storage=volume for test.cpu threads=1 in docker-bridge", a)
	}
	if math.Abs(a.CostPct-(-81)) > 1e-9 || math.Abs(a.RemovesPts-78) > 1e-9 {
		t.Errorf("cost %g%%, removes %g pts: want -81 and 78", a.CostPct, a.RemovesPts)
	}
	if !(a.CI95[0] > 0 && a.CI95[0] < 78 && a.CI95[1] > 78) {
		t.Errorf("interval %v: want it around 78 and above 0", a.CI95)
	}
}

// An option whose part is within noise is not advice, however large.
func TestNoAdviceFromAPartWithinNoise(t *testing.T) {
	r := adviceStudy()
	for i := range r.Attributions {
		a := &r.Attributions[i]
		for j := range a.Parts {
			a.Parts[j].Significant = false
		}
		for j := range a.Others {
			a.Others[j].Significant = false
		}
	}
	if got := Advise(r); len(got) != 0 {
		t.Errorf("advice %+v from parts within noise", got)
	}
}

// TestTheVerdictSaysWhatToChange is issue 28 item 6 as a user reads it:
// the cost's verdict names the option that removes most of it, with the
// figure, in the text every format prints and in the JSON's advice; a
// verdict that is not a cost gets none.
func TestTheVerdictSaysWhatToChange(t *testing.T) {
	r := adviceStudy()
	var advised int
	for _, v := range r.Verdicts {
		if v.Advice == nil {
			continue
		}
		advised++
		if v.Decision != VerdictCosts || v.Env != "docker-bridge" || v.Levels["threads"] != "1" {
			t.Errorf("advice on %s %v %s (%s): want only the threads=1 cost in docker-bridge", v.Env, v.Levels, v.Decision, v.Text)
		}
		if !strings.Contains(v.Text, "less throughput; storage=volume removes 78.0 points of it [") {
			t.Errorf("verdict %q does not say what to change", v.Text)
		}
	}
	if advised != 1 {
		t.Errorf("%d verdicts advised, want 1: %+v", advised, r.Verdicts)
	}
	var b strings.Builder
	if err := Write(&b, "table", r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "storage=volume removes 78.0 points of it") {
		t.Errorf("the terminal's verdict lacks the advice:\n%s", b.String())
	}
}
