package rust

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// coverParser reads a coverage script's output (see cover.go) with the
// libtest parser, then the tests' lcov files, PREFIX.B.J.lcov, test J of
// binary B being line J of PREFIX.B.names.
type coverParser struct {
	lp     *libtestParser
	prefix string
	root   string // the project folder: files outside it are dropped
	lines  lines.Splitter
}

// Write hands the output to the libtest parser line by line: a
// "testdex-cover: binary N" line becomes the binary's "running N tests",
// and each process's own "running 1 test" is dropped, so the parser's
// parts are the binaries, as in the plain run.
func (c *coverParser) Write(b []byte) (int, error) {
	return c.lines.Write(b)
}

func (c *coverParser) line(b []byte) {
	raw := string(b)
	l := colourRE.ReplaceAllString(strings.TrimSuffix(raw, "\r"), "")
	switch {
	case strings.HasPrefix(l, "testdex-cover: binary "):
		n := strings.TrimSpace(strings.TrimPrefix(l, "testdex-cover: binary "))
		noun := "tests"
		if n == "1" {
			noun = "test"
		}
		c.lp.line("running " + n + " " + noun)
	case partRE.MatchString(l):
	default:
		c.lp.line(strings.TrimSuffix(raw, "\r"))
	}
}

// Close ends the results, then emits each test's coverage in the order
// the tests ran; a test whose process wrote no profile (it died first)
// records nothing rather than nothing executed. What kept tests from
// recording (no profile was readable, no binary wrote a profile) becomes
// notes (lang.ActionCovered without a test).
func (c *coverParser) Close(exitCode int) error {
	c.lines.Flush()
	if err := c.lp.Close(exitCode); err != nil {
		return err
	}
	tools := readTools(c.prefix)
	bins, _ := os.ReadFile(c.prefix + ".bins")
	binPaths := strings.Split(string(bins), "\n")
	var failed, noProfile, tests int
	why := ""
	for b := 0; ; b++ {
		names, err := os.ReadFile(c.prefix + "." + strconv.Itoa(b) + ".names")
		if err != nil {
			break
		}
		scope, bin := "", ""
		if b < len(c.lp.roots) {
			scope = c.lp.roots[b]
		}
		if b < len(binPaths) {
			bin = binPaths[b]
		}
		rd := &profReader{bin: bin, root: c.root, tools: tools}
		for j, name := range strings.Split(strings.TrimRight(string(names), "\n"), "\n") {
			f := c.prefix + "." + strconv.Itoa(b) + "." + strconv.Itoa(j)
			if name == "" {
				continue
			}
			tests++
			if _, err := os.Stat(f + ".profraw"); err != nil {
				noProfile++
				continue
			}
			covered, err := rd.read(f)
			if err != nil {
				failed++
				if why == "" {
					why = err.Error()
				}
				continue
			}
			c.lp.emit(lang.RunEvent{Action: lang.ActionCovered, Scope: scope, Name: name, Covered: covered})
			if tools.compare {
				c.compare(name, f, bin, covered, tools)
			}
		}
		if rd.fellBack != "" && !tools.force { // batch output, not a note: the coverage is whole
			c.lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "testdex: the coverage of " + filepath.Base(bin) + " was read through llvm-profdata and llvm-cov, slower: " + rd.fellBack + "\n"})
		}
	}
	for _, note := range coverNotes(tests, failed, noProfile, why) {
		c.lp.emit(lang.RunEvent{Action: lang.ActionCovered, Message: note})
	}
	return nil
}

// compare says, as batch output, where llvm-cov's lines of test f differ
// from testdex's (TESTDEX_RUST_COVERAGE=compare).
func (c *coverParser) compare(name, f, bin string, covered []lang.CoveredFile, tools coverTools) {
	msg := "same"
	if data, err := tools.lcov(bin, f); err != nil {
		msg = "llvm-cov failed: " + err.Error()
	} else if want := lcovFiles(data, c.root); !reflect.DeepEqual(covered, want) {
		msg = fmt.Sprintf("differs: testdex %v, llvm-cov %v", covered, want)
	}
	c.lp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "testdex-rust-compare: " + name + ": " + msg + "\n"})
}

// profReader turns one binary's profiles into lines: in Go (covBinary),
// or through LLVM's tools where testdex does not read the binary's
// mapping (for every test of the binary) or a test's raw profile (for
// that test), or TESTDEX_RUST_COVERAGE=llvm-tools asks; fellBack says why
// it did.
type profReader struct {
	bin, root string
	tools     coverTools
	cb        *covBinary
	cbErr     error
	fellBack  string
}

// read returns the lines of test f (PREFIX.B.J).
func (r *profReader) read(f string) ([]lang.CoveredFile, error) {
	why := ""
	if !r.tools.force {
		lines, err := r.readGo(f)
		if err == nil || !errors.Is(err, errProfraw) && !errors.Is(err, errCovmap) {
			return lines, err
		}
		why = err.Error()
		if r.fellBack == "" {
			r.fellBack = why
		}
	}
	data, err := r.tools.lcov(r.bin, f)
	if err != nil {
		if why != "" {
			return nil, fmt.Errorf("%s; %w", why, err)
		}
		return nil, err
	}
	return lcovFiles(data, r.root), nil
}

// readGo reads the binary's mapping (once) and the test's raw profile.
func (r *profReader) readGo(f string) ([]lang.CoveredFile, error) {
	if r.cb == nil && r.cbErr == nil {
		r.cb, r.cbErr = loadCovBinary(r.bin, r.root)
	}
	if r.cbErr != nil {
		return nil, r.cbErr
	}
	data, err := os.ReadFile(f + ".profraw")
	if err != nil {
		return nil, err
	}
	p, err := readProfraw(data)
	if err != nil {
		return nil, err
	}
	return r.cb.lines(p), nil
}

// coverNotes say why tests of a coverage script recorded nothing: their
// profiles could not be read, or every test that ran wrote none (a test
// that died writes none, and says so by failing).
func coverNotes(tests, failed, noProfile int, why string) []string {
	var out []string
	if failed > 0 {
		out = append(out, fmt.Sprintf("the coverage profiles of %d of %d tests could not be read: %s", failed, tests, why))
	}
	if noProfile > 0 && noProfile == tests {
		out = append(out, "no test binary wrote a coverage profile: they were built without -C instrument-coverage, which testdex adds to RUSTFLAGS and CARGO_ENCODED_RUSTFLAGS (a rustc wrapper that drops it?)")
	}
	return out
}

// lcovFiles reads llvm-cov's lcov export ("SF:FILE", "DA:LINE,COUNT" per
// line, "end_of_record") into the lines executed per absolute file under
// root.
func lcovFiles(data []byte, root string) []lang.CoveredFile {
	byFile := map[string][]lang.Span{}
	var order []string
	file := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "SF:"):
			file = filepath.Clean(strings.TrimPrefix(l, "SF:"))
			if !filepath.IsAbs(file) || !within(file, root) {
				file = ""
			}
		case strings.HasPrefix(l, "DA:") && file != "":
			ln, count, ok := strings.Cut(strings.TrimPrefix(l, "DA:"), ",")
			n, err := strconv.Atoi(ln)
			if count, _, _ = strings.Cut(count, ","); !ok || err != nil || count == "0" || n < 1 {
				continue
			}
			if _, seen := byFile[file]; !seen {
				order = append(order, file)
			}
			byFile[file] = append(byFile[file], lang.Span{Start: n, End: n})
		case l == "end_of_record":
			file = ""
		}
	}
	slices.Sort(order)
	out := make([]lang.CoveredFile, 0, len(order))
	for _, f := range order {
		out = append(out, lang.CoveredFile{File: f, Lines: lang.MergeSpans(byFile[f])})
	}
	return out
}

// within reports whether file lies below dir.
func within(file, dir string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
