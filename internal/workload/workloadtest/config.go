package workloadtest

import (
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
)

// Requirements is what w needs from its environment with parameters p;
// the test fails when p are bad.
func Requirements(t testing.TB, w workload.Workload, p workload.Params) workload.Requirements {
	t.Helper()
	r, err := workload.RequirementsOf(w, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Sides is w configured with p, for running one side; the test fails
// when p are bad.
func Sides(t testing.TB, w workload.ClientServer, p workload.Params) workload.Sides {
	t.Helper()
	s, err := w.ConfigureSides(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Prepare is w's parameters p checked, with the defaults filled in
// (workload.Prepare); the test fails when p are bad.
func Prepare(t testing.TB, w workload.Workload, p workload.Params) workload.Params {
	t.Helper()
	out, _, err := workload.Prepare(w, p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Check is parameters p checked against info, with the defaults filled in
// (workload.Check); the test fails when p are bad.
func Check(t testing.TB, info workload.Info, p workload.Params) workload.Params {
	t.Helper()
	out, err := workload.Check(info, p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
