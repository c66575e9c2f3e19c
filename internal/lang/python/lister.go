package python

import (
	"bufio"
	"bytes"
	"errors"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Python is the interpreter the Listers run; PATH decides which one.
const Python = "python3"

// pytestLister runs `python3 -m pytest --collect-only -q -p
// no:cacheprovider` in the project folder (so pytest finds the same
// rootdir and testpaths as the Detector) and reads the node IDs it prints.
// rootRel is the rootdir relative to the project folder ("." mostly):
// node IDs are rootdir-relative, Listed.File project-relative.
type pytestLister struct{ rootRel string }

// ListCommand ignores files: pytest lists the whole project, as the static
// pass does, with the interpreter the run uses (a project .venv's, else
// python3 from PATH, which is an activated virtualenv's).
func (l pytestLister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	py := interpreter(p.Dir, filepath.Join(p.Dir, filepath.FromSlash(l.rootRel)), lang.RunOptions{})
	return &lang.Command{Args: []string{py, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"},
		Dir: p.Dir, Env: []string{"PYTHONDONTWRITEBYTECODE=1"}}, nil
}

// ParseList reads -q output: one node ID a line until the first empty
// line, then a summary ("3 tests collected in 0.01s") and any collection
// errors. Besides each item it reports the classes and the parametrized
// functions the IDs imply, so that static suites and parametrized tests
// compare too. Exit codes 0, 1 (errors in some files) and 5 (no tests) are
// normal; others without any node ID are an error.
func (l pytestLister) ParseList(p *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	var out []lang.Listed
	seen := map[string]bool{}
	add := func(file, name string, kind testdex.Kind) {
		if !seen[name] {
			seen[name] = true
			if l.rootRel != "" && l.rootRel != "." {
				file = path.Join(l.rootRel, file)
			}
			out = append(out, lang.Listed{File: file, Name: name, Kind: kind})
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			break
		}
		file, rest, ok := strings.Cut(line, "::")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		// A row's parameters may hold "::" and "[": the path ends at the
		// row's first "[".
		params := ""
		if j := strings.IndexByte(rest, '['); j > 0 && strings.HasSuffix(rest, "]") {
			rest, params = rest[:j], rest[j:]
		}
		parts := strings.Split(rest, "::")
		for i := 1; i < len(parts); i++ {
			add(file, file+"::"+strings.Join(parts[:i], "::"), testdex.KindSuite)
		}
		if params != "" {
			add(file, file+"::"+rest, testdex.KindTest)
			add(file, line, testdex.KindSubtest)
			continue
		}
		add(file, line, testdex.KindTest)
	}
	if len(out) == 0 && exitCode != 0 && exitCode != 5 {
		return nil, errors.New("pytest --collect-only failed: " + lastLine(stdout, stderr) + " (install the project's test dependencies, e.g. pip install -e '.[test]')")
	}
	return out, nil
}

// unittestScript lists unittest's discovery as `python -m unittest
// discover` from the project folder sees it, one test ID a line.
const unittestScript = `import sys, unittest
def walk(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from walk(t)
        else:
            yield t
for t in walk(unittest.TestLoader().discover(".", pattern="test*.py", top_level_dir=".")):
    print(t.id())
`

// unittestLister runs unittestScript with python3 -c.
type unittestLister struct{}

// ListCommand ignores files: discovery lists the whole project.
func (unittestLister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	return &lang.Command{Args: []string{interpreter(p.Dir, p.Dir, lang.RunOptions{}), "-c", unittestScript}, Dir: p.Dir,
		Env: []string{"PYTHONDONTWRITEBYTECODE=1"}}, nil
}

// ParseList reads one dotted ID a line and reports each test and its
// class (package.module.Class). Modules that failed to import appear as
// unittest.loader._FailedTest and are left out.
func (unittestLister) ParseList(p *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	if exitCode != 0 {
		return nil, errors.New("unittest discovery failed: " + lastLine(stdout, stderr))
	}
	var out []lang.Listed
	seen := map[string]bool{}
	for _, line := range strings.Split(string(stdout), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "unittest.loader.") || strings.Contains(line, " ") {
			continue
		}
		cls := line[:max(strings.LastIndexByte(line, '.'), 0)]
		file := ""
		if i := strings.LastIndexByte(cls, '.'); i > 0 {
			file = filepath.ToSlash(strings.ReplaceAll(cls[:i], ".", "/")) + ".py"
		}
		if cls != "" && !seen[cls] {
			seen[cls] = true
			out = append(out, lang.Listed{File: file, Name: cls, Kind: testdex.KindSuite})
		}
		out = append(out, lang.Listed{File: file, Name: line, Kind: testdex.KindTest})
	}
	return out, nil
}

func lastLine(stdout, stderr []byte) string {
	for _, b := range [][]byte{stderr, stdout} {
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
			return l
		}
	}
	return "no output"
}
