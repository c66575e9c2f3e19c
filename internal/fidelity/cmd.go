package fidelity

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Cmd runs the commands of one side of one project: in Dir, with Env, and
// a report file Out the recorders write to (FIDELITY_OUT).
type Cmd struct {
	Ctx       context.Context
	Dir       string
	Env       []string
	Recorders string // testdata/recorders, absolute
	Out       string // the runner's report file
	// Log collects what the commands printed on stderr (and their exit
	// status), for a failure message.
	Log bytes.Buffer
	// Elapsed adds up the commands' wall time.
	Elapsed time.Duration
}

// ProjectEnv is the environment both sides run a project in: the caller's,
// with a project's virtualenv activated when it has one (as a user runs
// its tests), and cargo building into the project's own target folder.
func ProjectEnv(base []string, dir string) []string {
	env := make([]string, 0, len(base)+3)
	path := ""
	for _, kv := range base {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			path = strings.TrimPrefix(kv, "PATH=")
		case strings.HasPrefix(kv, "VIRTUAL_ENV="), strings.HasPrefix(kv, "CARGO_TARGET_DIR="),
			strings.HasPrefix(kv, "FIDELITY_OUT="), strings.HasPrefix(kv, "PYTHONPATH="):
		default:
			env = append(env, kv)
		}
	}
	if venv := filepath.Join(dir, ".venv"); isDir(venv) {
		env = append(env, "VIRTUAL_ENV="+venv)
		path = filepath.Join(venv, "bin") + string(os.PathListSeparator) + path
	}
	if isFile(filepath.Join(dir, "Cargo.toml")) {
		env = append(env, "CARGO_TARGET_DIR="+filepath.Join(dir, "target"))
	}
	return append(env, "PATH="+path)
}

// Venv is the path of a command in the project's virtualenv.
func (c *Cmd) Venv(name string) string { return filepath.Join(c.Dir, ".venv", "bin", name) }

// Bin is the path of a command the project's npm install provided.
func (c *Cmd) Bin(name string) string { return filepath.Join(c.Dir, "node_modules", ".bin", name) }

// Output runs name with args and returns its stdout. A non-zero exit is no
// error (failing tests make runners exit 1); a command that cannot start
// or outlives the context is.
func (c *Cmd) Output(name string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := c.run(&out, &c.Log, name, args...)
	return out.Bytes(), err
}

// Combined runs name like Output and returns stdout and stderr as one
// stream, in the order they were written.
func (c *Cmd) Combined(name string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := c.run(&out, &out, name, args...)
	c.Log.Write(tail(out.Bytes(), 4000))
	return out.Bytes(), err
}

func (c *Cmd) run(stdout, stderr *bytes.Buffer, name string, args ...string) error {
	cmd := exec.CommandContext(c.Ctx, name, args...)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string{}, c.Env...), "FIDELITY_OUT="+c.Out)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	c.Elapsed += time.Since(start)
	if c.Ctx.Err() != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), c.Ctx.Err())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		fmt.Fprintf(&c.Log, "\n[%s exited %d]\n", name, exit.ExitCode())
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Records parses the recorder's report file Out.
func (c *Cmd) Records(fw string) (Results, error) {
	f, err := os.Open(c.Out)
	if err != nil {
		return nil, fmt.Errorf("no %s report (%w); the runner said:\n%s", fw, err, tail(c.Log.Bytes(), 3000))
	}
	defer f.Close()
	return ParseRecords(fw, f)
}

func tail(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[len(b)-n:]
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
