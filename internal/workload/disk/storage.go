package disk

import "github.com/boxtax/boxtax/internal/workload"

// onStorage is a disk workload declared as data: a workload.Spec whose
// figures are the storage it writes to (workload.StorageUser).
type onStorage[C any, P workload.ConfigOf[C]] struct{ workload.Spec[C, P] }

// UsesStorage implements workload.StorageUser.
func (onStorage[C, P]) UsesStorage() bool { return true }

// defineOnStorage registers the disk workload that info describes, whose
// config is a C, and returns it.
func defineOnStorage[C any, P workload.ConfigOf[C]](info workload.Info) onStorage[C, P] {
	w := onStorage[C, P]{workload.NewSpec[C, P](info)}
	workload.Register(w)
	return w
}

// The disk workloads keep this optional ability (checked by the compiler).
var _ workload.StorageUser = Seq
