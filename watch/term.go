package watch

import (
	"os"

	"golang.org/x/term"
)

// Cbreak puts the terminal f in cbreak mode, each key read as it is typed
// and not echoed, and returns the function that restores the terminal as
// it was; ok is false when f is no terminal (a pipe, a file, /dev/null),
// which is then left alone.
//
// It is raw mode without two of term.MakeRaw's changes: output processing
// stays on, so the run's reports, written with "\n", still begin each
// line at the left margin, and signals stay on, so Ctrl-C still sends
// SIGINT, which cancels the context and stops the running batch as it
// stops `testdex run`, and the deferred restore runs.
func Cbreak(f *os.File) (restore func(), ok bool) {
	fd := int(f.Fd())
	if !term.IsTerminal(fd) {
		return func() {}, false
	}
	old, err := term.GetState(fd)
	if err != nil {
		return func() {}, false
	}
	if err := cbreak(fd); err != nil {
		return func() {}, false
	}
	stop := reapplyOnResume(fd)
	return func() { stop(); _ = term.Restore(fd, old) }, true
}
