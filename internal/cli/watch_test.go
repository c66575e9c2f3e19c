package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/testenv"
)

// watchFixture is a root with Go, pytest and node:test tests: calc's
// tests use calc.go, other's do not; py/test_shapes.py uses shapes.py.
var watchFixture = map[string]string{
	"go.mod":       "module example.com/fx\n\ngo 1.22\n",
	"calc/calc.go": "package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n",
	"calc/calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatalf("Add(2, 3) = %d, want 5", Add(2, 3))
	}
}

func TestMul(t *testing.T) {
	if Mul(2, 3) != 6 {
		t.Fatalf("Mul(2, 3) = %d, want 6", Mul(2, 3))
	}
}
`,
	"other/other.go":      "package other\n\nfunc Hello() string { return \"hello\" }\n",
	"other/other_test.go": "package other\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(Hello())\n\t}\n}\n",
	"py/pytest.ini":       "[pytest]\n",
	"py/shapes.py":        "def area(w, h):\n    return w * h\n",
	"py/test_shapes.py":   "from shapes import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n\n\ndef test_square():\n    assert area(4, 4) == 16\n",
	"js/package.json":     `{"name": "fxjs", "private": true, "scripts": {"test": "node --test"}}` + "\n",
	"js/math.js":          "exports.double = (x) => x * 2;\n",
	"js/math.test.js":     "const test = require('node:test');\nconst assert = require('node:assert');\nconst { double } = require('./math.js');\n\ntest('double', () => {\n  assert.strictEqual(double(2), 4);\n});\n",
}

// watchTerm is testdex watch running in a tmux pane on a private socket
// (a file in the test's temporary folder: no other tmux server is seen,
// and nothing is left behind).
type watchTerm struct {
	t      *testing.T
	socket string
}

// newWatchTerm starts a tmux server of its own running command in a
// session named watch, ended when the test ends.
func newWatchTerm(t *testing.T, cols, rows int, command string) *watchTerm {
	t.Helper()
	w := &watchTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	w.tmux("new-session", "-d", "-s", "watch", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), command)
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", w.socket, "kill-session", "-t", "watch").Run() })
	return w
}

func (w *watchTerm) tmux(args ...string) string {
	w.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", w.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// waitFor polls the screen every 100 ms until it matches re, for up to 60
// s (two shared cores run the tests), and returns it.
func (w *watchTerm) waitFor(re string) string {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	var screen string
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		screen = w.tmux("capture-pane", "-p", "-t", "watch")
		if rx.MatchString(screen) {
			return screen
		}
	}
	w.t.Fatalf("the screen never matched %q; it shows:\n%s", re, screen)
	return ""
}

// watchBinary builds testdex into a temporary folder.
func watchBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "testdex")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/testdex")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/testdex: %v\n%s", err, out)
	}
	return bin
}

// saveFile writes a file as an editor does: in place, or (rename) to a
// temporary file renamed over it.
func saveFile(t *testing.T, root, rel, text string, rename bool) time.Time {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	at := time.Now()
	if !rename {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return at
	}
	if err := os.WriteFile(p+".tmp", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
	return at
}

var firstResult = regexp.MustCompile(`first result (\d+)ms after the save`)

// TestWatchInTerminal drives `testdex watch` in a real terminal: saves
// that break and fix a Go function and a Python one rerun exactly the
// tests they affect, and the keys f, a and q do what they say.
func TestWatchInTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testdex and runs go, pytest and node")
	}
	for _, tool := range []string{"tmux", "git", "go", "python3", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the watch test needs tmux, git, go, python3 with pytest and node", tool)
		}
	}
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "pytest is not installed for python3 (run scripts/setup/python.sh)")
	}
	bin := watchBinary(t)
	root := t.TempDir()
	for rel, text := range watchFixture {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A git work tree: a save of a Go file is narrowed to the functions
	// it changed, against HEAD first, then against the previous save.
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "fixture"}} {
		git := exec.Command("git", append([]string{"-c", "user.email=w@t", "-c", "user.name=w", "-c", "commit.gpgsign=false"}, args...)...)
		git.Dir = root
		if out, err := git.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	script := filepath.Join(t.TempDir(), "watch.sh")
	body := fmt.Sprintf("cd %q\nexport TESTDEX_CACHE_DIR=%q PYTHONDONTWRITEBYTECODE=1 NO_COLOR=1\n%q watch\necho WATCH-EXIT=$?\nsleep 300\n", root, t.TempDir(), bin)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	w := newWatchTerm(t, 150, 60, "sh "+script)

	w.waitFor(`no change against HEAD: save a file[\s\S]*watch: a all`)
	var latencies []int
	saved := func(screen string) {
		if m := firstResult.FindStringSubmatch(screen); m != nil {
			n, _ := strconv.Atoi(m[1])
			latencies = append(latencies, n)
		}
	}

	// Breaking Add reruns TestAdd, the one test that reaches it: not
	// TestMul beside it, nor other's, nor Python's.
	saveFile(t, root, "calc/calc.go", strings.Replace(watchFixture["calc/calc.go"], "a + b", "a - b", 1), false)
	screen := w.waitFor(`changed calc/calc\.go · 1 test\n[\s\S]*0 passed, 1 failed[\s\S]*watch: a all`)
	if !strings.Contains(screen, "--- FAIL: calc/calc_test.go::TestAdd") || strings.Contains(screen, "TestHello") || strings.Contains(screen, "pytest") {
		t.Errorf("breaking Add ran more or less than TestAdd:\n%s", screen)
	}
	saved(screen)
	// Fixing it (narrowed against the broken save) shows green, and
	// nothing is left failing.
	saveFile(t, root, "calc/calc.go", watchFixture["calc/calc.go"], true)
	screen = w.waitFor(`changed calc/calc\.go · 1 test\n[\s\S]*1 passed, 0 failed[\s\S]*watch: a all`)
	if strings.Contains(screen, "still failing") {
		t.Errorf("a failure outlived its fix:\n%s", screen)
	}
	saved(screen)

	// The same for the Python file.
	saveFile(t, root, "py/shapes.py", "def area(w, h):\n    return w + h\n", false)
	screen = w.waitFor(`changed py/shapes\.py · 2 tests[\s\S]*0 passed, 2 failed[\s\S]*2 tests still failing[\s\S]*watch: a all`)
	if !strings.Contains(screen, "--- FAIL: py/test_shapes.py::test_area") || strings.Contains(screen, " go (") {
		t.Errorf("breaking area ran more or less than its tests:\n%s", screen)
	}
	saved(screen)

	// f reruns only the failing tests.
	w.tmux("send-keys", "-t", "watch", "f")
	w.waitFor(`· failed · 2 tests[\s\S]*0 passed, 2 failed[\s\S]*watch: a all`)

	saveFile(t, root, "py/shapes.py", watchFixture["py/shapes.py"], true)
	screen = w.waitFor(`changed py/shapes\.py · 2 tests[\s\S]*2 passed, 0 failed[\s\S]*watch: a all`)
	saved(screen)

	// a runs everything: six tests in three frameworks.
	w.tmux("send-keys", "-t", "watch", "a")
	w.waitFor(`· all · 6 tests[\s\S]*6 passed, 0 failed[\s\S]*watch: a all`)

	// t filters by name; an empty pattern clears the filter.
	w.tmux("send-keys", "-t", "watch", "t")
	w.waitFor(`filter by test name`)
	w.tmux("send-keys", "-t", "watch", "square", "Enter")
	w.waitFor(`· filter · 1 test · name /square/[\s\S]*1 passed, 0 failed[\s\S]*watch: a all`)
	w.tmux("send-keys", "-t", "watch", "t")
	w.waitFor(`filter by test name`)
	w.tmux("send-keys", "-t", "watch", "Enter")
	w.waitFor(`· filter · 6 tests\n[\s\S]*6 passed, 0 failed[\s\S]*watch: a all`)

	// q quits; nothing failing, exit status 0.
	w.tmux("send-keys", "-t", "watch", "q")
	w.waitFor(`WATCH-EXIT=0`)

	sort.Ints(latencies)
	t.Logf("save to first result, ms: %v", latencies)
	if len(latencies) == 4 {
		t.Logf("median %d ms", (latencies[1]+latencies[2])/2)
	}
}

// TestWatchInterrupt presses Ctrl-C while a test hangs: the batch is
// killed with its process group, as 'testdex run' kills it, and watch
// exits.
func TestWatchInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testdex and runs go")
	}
	for _, tool := range []string{"tmux", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the watch test needs tmux and go", tool)
		}
	}
	bin := watchBinary(t)
	root := t.TempDir()
	for rel, text := range map[string]string{
		"go.mod":            "module example.com/hang\n\ngo 1.22\n",
		"hang/hang_test.go": "package hang\n\nimport (\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc TestHang(t *testing.T) {\n\t_ = exec.Command(\"sleep\", \"3600\").Run()\n}\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(t.TempDir(), "watch.sh")
	// The shell outlives the Ctrl-C (a trap, not an ignored signal, which
	// testdex would inherit) to print the exit status.
	body := fmt.Sprintf("trap true INT\nexport TESTDEX_CACHE_DIR=%[2]q NO_COLOR=1\n(cd %[1]q && exec %[3]q watch)\necho WATCH-EXIT=$?\nsleep 300\n", root, t.TempDir(), bin)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	w := newWatchTerm(t, 150, 40, "sh "+script)
	w.waitFor(`watching: save a file[\s\S]*watch: a all`)
	w.tmux("send-keys", "-t", "watch", "a")
	w.waitFor(`· all · 1 test`)
	for end := time.Now().Add(60 * time.Second); len(inside(root)) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the hanging test never started")
		}
	}
	w.tmux("send-keys", "-t", "watch", "C-c")
	screen := w.waitFor(`WATCH-EXIT=1`)
	t.Logf("after Ctrl-C:\n%s", strings.TrimSpace(screen))
	if left := inside(root); len(left) > 0 {
		t.Errorf("processes left running in the root after Ctrl-C: %v", left)
	}
}

// inside lists the processes whose working folder lies in root.
func inside(root string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	var out []string
	for _, p := range procs {
		if cwd, err := os.Readlink(p); err == nil && (cwd == root || strings.HasPrefix(cwd, root+"/")) {
			cmd, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
			out = append(out, filepath.Base(filepath.Dir(p))+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return out
}

// TestWatchJSON runs watch in-process with --json: each cycle is one
// cycle event followed by the run's events, as 'run --json' prints them.
func TestWatchJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	root := t.TempDir()
	for _, rel := range []string{"go.mod", "calc/calc.go", "calc/calc_test.go", "other/other.go", "other/other_test.go"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(watchFixture[rel]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	cache := t.TempDir()
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, []string{"watch", "--json"}, Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr,
			Getenv: func(k string) string {
				if k == "TESTDEX_CACHE_DIR" {
					return cache
				}
				return os.Getenv(k)
			}, Environ: os.Environ(), Dir: root})
		pw.Close()
	}()
	lines := make(chan map[string]any)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"bad": sc.Text()}
			}
			lines <- m
		}
		close(lines)
	}()
	next := func(action string) map[string]any {
		t.Helper()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case m, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended before a %q event; stderr:\n%s", action, stderr.String())
				}
				if m["bad"] != nil {
					t.Fatalf("not JSON: %s", m["bad"])
				}
				if m["action"] == action {
					return m
				}
			case <-timeout:
				t.Fatalf("no %q event within 60 s", action)
			}
		}
	}
	if c := next("cycle"); c["trigger"] != "start" || c["selected"] != 0.0 {
		t.Fatalf("first cycle %v", c)
	}
	saveFile(t, root, "calc/calc.go", strings.Replace(watchFixture["calc/calc.go"], "a + b", "a - b", 1), false)
	c := next("cycle")
	if c["trigger"] != "save" || c["selected"] != 2.0 || fmt.Sprint(c["changed"]) != "[calc/calc.go]" {
		t.Errorf("cycle event %v, want a save of calc/calc.go selecting 2 tests", c)
	}
	if f := next("fail"); f["id"] != "calc/calc_test.go::TestAdd" {
		t.Errorf("fail event %v", f)
	}
	cancel()
	select {
	case got := <-code:
		if got != ExitFailed { // TestAdd still fails
			t.Errorf("exit %d, want %d; stderr:\n%s", got, ExitFailed, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("watch did not stop when its context was cancelled")
	}
}

// TestWatchRootGone: watch says so and stops when its root is removed,
// rather than going on watching nothing (docs/reliability.md).
func TestWatchRootGone(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/gone\n\ngo 1.22\n"), 0o644)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- Main(context.Background(), []string{"watch", "--json"}, Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr,
			Getenv: func(k string) string { return map[string]string{"TESTDEX_CACHE_DIR": "off"}[k] }, Environ: os.Environ(), Dir: root})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() { // the first cycle: watching has begun
		t.Fatalf("no first cycle; stderr:\n%s", stderr.String())
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c == ExitOK || !strings.Contains(stderr.String(), "watched root is gone") {
			t.Errorf("exit %d, stderr %q; want a failure saying the root is gone", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch still runs 10 s after its root was removed")
	}
}
