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
	return must(t, r, err)
}

// Sides is w configured with p, for running one side; the test fails
// when p are bad.
func Sides(t testing.TB, w workload.ClientServer, p workload.Params) workload.Sides {
	t.Helper()
	s, err := w.ConfigureSides(p)
	return must(t, s, err)
}

// Prepare is w's parameters p checked, with the defaults filled in
// (workload.Prepare); the test fails when p are bad.
func Prepare(t testing.TB, w workload.Workload, p workload.Params) workload.Params {
	t.Helper()
	out, _, err := workload.Prepare(w, p)
	return must(t, out, err)
}

// Check is parameters p checked against info, with the defaults filled in
// (workload.Check); the test fails when p are bad.
func Check(t testing.TB, info workload.Info, p workload.Params) workload.Params {
	t.Helper()
	out, err := workload.Check(info, p)
	return must(t, out, err)
}

// must is v, or the end of the test when err is set.
func must[T any](t testing.TB, v T, err error) T {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return v
}
