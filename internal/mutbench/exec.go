package mutbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// ErrTimeout is returned by an Exec command that outlived its Timeout.
var ErrTimeout = errors.New("timed out")

// Exec runs the commands of one project copy: in Dir, with Env, each in a
// process group of its own that is killed whole when Timeout passes or
// the context ends (a mutant can loop forever, and runners start
// workers). Out is the report file the recorders write (FIDELITY_OUT).
type Exec struct {
	Ctx       context.Context
	Dir       string
	Env       []string
	Recorders string // internal/fidelity/testdata/recorders, absolute
	Out       string
	Timeout   time.Duration // 0: none
	// Log keeps the tail of what the commands printed on stderr.
	Log bytes.Buffer
}

// Output runs name and returns its stdout. A non-zero exit is no error
// (failing tests make runners exit 1); a command that cannot start, or
// times out (ErrTimeout), is.
func (x *Exec) Output(name string, args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	_, err := x.run(&out, &errb, name, args...)
	x.keepLog(errb.Bytes())
	return out.Bytes(), err
}

// Combined runs name like Output and returns stdout and stderr as one
// stream.
func (x *Exec) Combined(name string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	_, err := x.run(&out, &out, name, args...)
	x.keepLog(out.Bytes())
	return out.Bytes(), err
}

// Succeeds runs name and reports whether it exited 0, with its combined
// output for the reason when it did not.
func (x *Exec) Succeeds(name string, args ...string) (bool, string, error) {
	var out bytes.Buffer
	code, err := x.run(&out, &out, name, args...)
	return err == nil && code == 0, string(tailBytes(out.Bytes(), 2000)), err
}

func (x *Exec) keepLog(b []byte) {
	x.Log.Reset()
	x.Log.Write(tailBytes(b, 4000))
}

// run starts name in its own process group and waits for it; it returns
// the exit code.
func (x *Exec) run(stdout, stderr *bytes.Buffer, name string, args ...string) (int, error) {
	ctx, cancel := x.Ctx, context.CancelFunc(func() {})
	if x.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, x.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = x.Dir
	cmd.Env = append(append([]string{}, x.Env...), "FIDELITY_OUT="+x.Out)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		// Workers the runner left behind in its group end with it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && x.Ctx.Err() == nil {
		return -1, fmt.Errorf("%s %s: %w after %s", name, strings.Join(args, " "), ErrTimeout, x.Timeout)
	}
	if x.Ctx.Err() != nil {
		return -1, x.Ctx.Err()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return -1, fmt.Errorf("%s: %w", name, err)
	}
	return 0, nil
}

// Venv is the path of a command in the project's virtualenv.
func (x *Exec) Venv(name string) string { return filepath.Join(x.Dir, ".venv", "bin", name) }

// Bin is the path of a command the project's npm install provided.
func (x *Exec) Bin(name string) string { return filepath.Join(x.Dir, "node_modules", ".bin", name) }

// Report reads the report file Out; a missing one is an error that quotes
// what the runner printed.
func (x *Exec) Report() ([]byte, error) {
	b, err := os.ReadFile(x.Out)
	if err != nil {
		return nil, fmt.Errorf("no report from the runner (%w); it printed:\n%s", err, x.Log.String())
	}
	return b, nil
}

func tailBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[len(b)-n:]
}
