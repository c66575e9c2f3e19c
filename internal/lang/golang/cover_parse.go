package golang

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// coverParserFor returns the parser of one command of a coverage run: a
// build's stream marks its failures as errors, a test's stream is read as
// go test -json's, then its profile becomes the test's ActionCovered
// event. Other commands get j as it is.
func coverParserFor(p *lang.Project, cmd *lang.Command, j *jsonParser) lang.Parser {
	if cmd == nil || len(cmd.Args) < 3 {
		return j
	}
	if dir := coverDirOf(cmd); dir != "" {
		return newBoundaryParser(p, dir, j)
	}
	if cmd.Args[1] == "test" && slices.Contains(cmd.Args, "-c") {
		j.buildOnly = true
		return j
	}
	if filepath.Base(cmd.Args[0]) != "test2json" || len(cmd.Args) != 7 || cmd.Args[4] != "sh" {
		return j
	}
	script, _ := os.ReadFile(cmd.Args[5])
	c := &coverParser{jsonParser: j, dir: p.Dir, pkg: cmd.Args[3], prefix: cmd.Args[len(cmd.Args)-1]}
	c.named = strings.Contains(string(script), `prof="$1.`) // packageScript's line before a named test
	emit := j.emit
	j.emit = func(e lang.RunEvent) {
		if e.Name != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail) {
			c.ran++
		}
		emit(e)
	}
	return c
}

// coverParser reads one package's processes: their events, then their
// profiles, PREFIX.J.NAME.out.
type coverParser struct {
	*jsonParser
	dir, pkg, prefix string
	named            bool // the script runs named tests, each writing a profile
	ran              int  // tests (and subtests) that passed or failed
}

// Close emits each test's coverage, in the order the tests ran, when its
// process wrote a profile (one that died before writing records nothing,
// rather than nothing executed); when none did while tests ran, a note
// says so (lang.ActionCovered without a test).
func (c *coverParser) Close(exitCode int) error {
	if err := c.jsonParser.Close(exitCode); err != nil {
		return err
	}
	profiles, _ := filepath.Glob(c.prefix + ".*.out")
	sort.Slice(profiles, func(a, b int) bool { return ordinal(profiles[a]) < ordinal(profiles[b]) })
	for _, prof := range profiles {
		rest := strings.TrimSuffix(strings.TrimPrefix(prof, c.prefix+"."), ".out")
		_, name, ok := strings.Cut(rest, ".")
		data, err := os.ReadFile(prof)
		if !ok || err != nil {
			continue
		}
		c.emit(lang.RunEvent{Action: lang.ActionCovered, Scope: c.pkg, Name: name, Covered: profileFiles(data, c.module, c.dir)})
	}
	if len(profiles) == 0 && c.named && c.ran > 0 {
		c.emit(lang.RunEvent{Action: lang.ActionCovered, Message: fmt.Sprintf(
			"no test process of %s wrote its coverage profile (-test.coverprofile), which the testing package writes when m.Run returns: a TestMain or test that exits the process first (os.Exit, log.Fatal) keeps it from being written", c.pkg)})
	}
	return nil
}

// ordinal is J of PREFIX.J.NAME.out.
func ordinal(prof string) int {
	parts := strings.Split(filepath.Base(prof), ".")
	if len(parts) < 4 {
		return -1
	}
	n, _ := strconv.Atoi(parts[1])
	return n
}

// profileFiles turns a cover profile ("mode: atomic", then
// "IMPORTPATH/file.go:L1.C1,L2.C2 STATEMENTS COUNT" per block) into the
// lines executed per absolute file of the module.
func profileFiles(data []byte, module, dir string) []lang.CoveredFile {
	byFile := map[string][]lang.Span{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		file, start, end, count, ok := profileBlock(sc.Text())
		if !ok || count == 0 {
			continue
		}
		rest, ok := strings.CutPrefix(file, module+"/")
		if !ok {
			continue
		}
		abs := filepath.Join(dir, filepath.FromSlash(rest))
		if _, seen := byFile[abs]; !seen {
			order = append(order, abs)
		}
		byFile[abs] = append(byFile[abs], lang.Span{Start: start, End: end})
	}
	slices.Sort(order)
	out := make([]lang.CoveredFile, 0, len(order))
	for _, f := range order {
		out = append(out, lang.CoveredFile{File: f, Lines: lang.MergeSpans(byFile[f])})
	}
	return out
}

// profileBlock parses "file.go:12.3,14.2 2 1".
func profileBlock(l string) (file string, start, end int, count int64, ok bool) {
	colon := strings.LastIndexByte(l, ':')
	if colon < 0 {
		return "", 0, 0, 0, false
	}
	f := strings.Fields(l[colon+1:])
	if len(f) != 3 {
		return "", 0, 0, 0, false
	}
	from, to, ok1 := strings.Cut(f[0], ",")
	sl, _, ok2 := strings.Cut(from, ".")
	el, _, ok3 := strings.Cut(to, ".")
	s, err1 := strconv.Atoi(sl)
	e, err2 := strconv.Atoi(el)
	n, err3 := strconv.ParseInt(f[2], 10, 64)
	if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || err3 != nil || e < s {
		return "", 0, 0, 0, false
	}
	return l[:colon], s, e, n, true
}
