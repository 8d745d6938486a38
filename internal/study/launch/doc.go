// Package launch carries out one run in its environment: the procedure that
// starts its worker(s) (one, N concurrent instances, a server in the
// environment with its client outside it over a wire level, a startup timed
// by the controller), the CPUs each instance gets (placement), and the
// background loads beside it.
//
// It sits below study, which plans, orders and stores the runs and asks
// launch only how to carry each out; launch knows no spec, plan or store.
package launch
