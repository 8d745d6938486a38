package study

// RefusedError is an error in what a study run was asked (an invalid spec,
// an environment that cannot run here, nothing to resume): it is the
// user's to fix, and nothing was run. The CLI maps it to its usage exit
// code.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }

func (e *RefusedError) Unwrap() error { return e.Err }

// refused wraps err, unless nil, as a RefusedError.
func refused(err error) error {
	if err == nil {
		return nil
	}
	return &RefusedError{err}
}
