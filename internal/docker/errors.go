package docker

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
)

// Error is an error answer from the daemon: its HTTP status and its message.
type Error struct {
	Method, Path string
	StatusCode   int
	Message      string
}

// Error says what the daemon answered, to which request.
func (e *Error) Error() string {
	return fmt.Sprintf("docker daemon: %s (%s %s: HTTP %d)", e.Message, e.Method, e.Path, e.StatusCode)
}

// IsNotFound reports whether err is the daemon saying that the container or
// image does not exist.
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// IsConflict reports whether err is the daemon refusing because of the
// object's state, e.g. killing a container that is not running: Docker's
// 409, or Podman's 500 with libpod's "container state improper" (Podman's
// compatible API answers that case so, as of 4.3).
func IsConflict(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.StatusCode == http.StatusConflict ||
		e.StatusCode == http.StatusInternalServerError && strings.Contains(e.Message, "container state improper"))
}

// versionRefused reports whether the daemon refused the request's API
// version ("client version 1.41 is too old. Minimum supported API version
// is 1.44, ..." or "... is too new. Maximum supported API version is ...").
func (e *Error) versionRefused() bool {
	return e.StatusCode == http.StatusBadRequest && strings.HasPrefix(e.Message, "client version ") &&
		(strings.Contains(e.Message, " is too old.") || strings.Contains(e.Message, " is too new."))
}

func hasStatus(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == code
}

// readError turns an error response into an *Error. The daemon answers
// {"message": "..."}; anything else is kept as text.
func readError(method, path string, resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var m struct {
		Message string `json:"message"`
	}
	msg := strings.TrimSpace(string(b))
	if json.Unmarshal(b, &m) == nil && m.Message != "" {
		msg = m.Message
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return &Error{Method: method, Path: path, StatusCode: resp.StatusCode, Message: msg}
}

// UnreachableError says that the daemon could not be reached at all, and
// what to do about it.
type UnreachableError struct {
	Host string // e.g. unix:///var/run/docker.sock
	Err  error  // the dial error or timeout
	Hint string // optional: where else a daemon may listen
}

// Error says that the daemon cannot be reached and what to do about it.
func (e *UnreachableError) Error() string {
	if e.PermissionDenied() {
		return fmt.Sprintf("cannot reach Docker at %s: permission denied: add your user to the docker group "+
			"(sudo usermod -aG docker $USER, then log in again), run as root, or use --envs native (%v)", e.Host, e.Err)
	}
	hint := ""
	if e.Hint != "" {
		hint = "; " + e.Hint
	}
	return fmt.Sprintf("cannot reach Docker at %s: is the daemon running? Start it (systemctl start docker), "+
		"set DOCKER_HOST, or use --envs native (%v)%s", e.Host, e.Err, hint)
}

// Unwrap returns the dial error or timeout.
func (e *UnreachableError) Unwrap() error { return e.Err }

// PermissionDenied reports whether the socket exists but this user may not use it.
func (e *UnreachableError) PermissionDenied() bool {
	return errors.Is(e.Err, syscall.EACCES) || errors.Is(e.Err, syscall.EPERM)
}
