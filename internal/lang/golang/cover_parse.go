package golang

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

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
	if cmd.Args[1] == "test" && slices.Contains(cmd.Args, "-c") {
		j.buildOnly = true
		return j
	}
	if filepath.Base(cmd.Args[0]) != "test2json" {
		return j
	}
	c := &coverParser{jsonParser: j, dir: p.Dir}
	for i, a := range cmd.Args {
		switch {
		case a == "-p" && i+1 < len(cmd.Args):
			c.pkg = cmd.Args[i+1]
		case strings.HasPrefix(a, "-test.coverprofile="):
			c.profile = strings.TrimPrefix(a, "-test.coverprofile=")
		}
	}
	if !strings.HasSuffix(c.profile, ".out") {
		return j // the rest of a package: several tests, no one to file it under
	}
	_, c.test, _ = strings.Cut(strings.TrimSuffix(filepath.Base(c.profile), ".out"), ".") // N.TestX.out
	return c
}

// coverParser reads one test's process: its events, then its profile.
type coverParser struct {
	*jsonParser
	dir, pkg, test, profile string
}

// Close emits the test's coverage when its process wrote a profile (one
// that died before writing records nothing, rather than nothing executed).
func (c *coverParser) Close(exitCode int) error {
	if err := c.jsonParser.Close(exitCode); err != nil {
		return err
	}
	data, err := os.ReadFile(c.profile)
	if err != nil {
		return nil
	}
	c.emit(lang.RunEvent{Action: lang.ActionCovered, Scope: c.pkg, Name: c.test, Covered: profileFiles(data, c.module, c.dir)})
	return nil
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
