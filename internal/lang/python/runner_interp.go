package python

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
)

// interpreter is the Python the project's tests run with, as the project's
// own command would find it: the active virtualenv's (VIRTUAL_ENV in the
// run's environment), else a .venv or venv folder's in the project folder,
// then in the rootdir, else Python (python3) looked up in the run's PATH.
// A virtualenv without an interpreter is passed over.
func interpreter(project, rootdir string, o lang.RunOptions) string {
	var envs []string
	if v := o.Getenv("VIRTUAL_ENV"); v != "" {
		envs = append(envs, v)
	}
	for _, d := range []string{project, rootdir} {
		envs = append(envs, filepath.Join(d, ".venv"), filepath.Join(d, "venv"))
	}
	for _, env := range envs {
		if py := venvPython(env); py != "" {
			return py
		}
	}
	return Python
}

// venvPython is a virtualenv's interpreter, "" when it has none.
func venvPython(env string) string {
	py := filepath.Join(env, "bin", "python")
	if runtime.GOOS == "windows" {
		py = filepath.Join(env, "Scripts", "python.exe")
	}
	if st, err := os.Stat(py); err == nil && !st.IsDir() {
		return py
	}
	return ""
}

// probeExit is the probe's exit status when pytest is not importable.
const probeExit = 3

// probe asks the interpreter, as the driver will run (the driver's folder
// off sys.path), whether pytest is importable, without importing it; it
// prints the interpreter's path.
const probe = `import sys
del sys.path[0]
import importlib.util
print(sys.executable)
sys.exit(0 if importlib.util.find_spec("pytest") else 3)`

// probeTimeout bounds the probe: a python that takes longer to start is
// left to the run itself.
const probeTimeout = 30 * time.Second

// checkPytest reports, as an error wrapping lang.ErrNotInstalled with the
// fix, a python that cannot be found or cannot import pytest. It starts
// the interpreter once (tens of milliseconds) in dir with env, the run's
// environment: whether pytest is importable cannot be read from files (a
// user site, a virtualenv with system site packages, a .pth file). Any
// other failure of the probe is left to the run, which reports it in the
// interpreter's own words.
func checkPytest(python, dir string, env []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	res, err := proc.Run(ctx, proc.Spec{Args: []string{python, "-c", probe}, Dir: dir, Env: env})
	var missing *proc.MissingError
	switch {
	case errors.As(err, &missing):
		return fmt.Errorf("%w: %s is not in PATH (install Python 3, or activate the project's virtualenv)", lang.ErrNotInstalled, python)
	case err != nil || res.TimedOut || res.ExitCode != probeExit:
		return nil
	}
	exe := strings.TrimSpace(string(res.Stdout))
	if exe == "" {
		exe = python
	}
	return fmt.Errorf("%w: pytest is not installed for %s (pip install pytest, or activate the project's virtualenv)", lang.ErrNotInstalled, exe)
}
