package golang

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// processCoverage is what one test process's hook wrote (see hookSource),
// turned into lines per top-level test.
type processCoverage struct {
	pkg   string                            // import path
	tests []string                          // in the order they started
	lines map[string]map[string][]lang.Span // test -> absolute file -> spans
}

// boundary is one line of the events file: counter file n was written,
// then the test started (+) or ended with its subtests (-).
type boundary struct {
	n     int
	start bool
	name  string
}

// readProcess reads one process folder, PKG.PID. Window k, what ran
// between boundaries k-1 and k (the counters of file k less those of file
// k-1), goes to every test that ran at any point of it: those running, the
// one that started or ended at either end. Window 0 (package
// initialisation, TestMain before m.Run) goes to every test of the
// process, which each ran it under go test -run too. So parallel tests,
// whose windows overlap, each get what ran while they ran: more lines
// than their own, never fewer.
func readProcess(dir, module, moduleDir string) (*processCoverage, error) {
	pkg, _ := url.PathUnescape(strings.TrimSuffix(filepath.Base(dir), filepath.Ext(dir)))
	pc := &processCoverage{pkg: pkg, lines: map[string]map[string][]lang.Span{}}
	if msg, err := os.ReadFile(filepath.Join(dir, "error")); err == nil {
		return pc, fmt.Errorf("the coverage hook of %s failed: %s", pkg, msg)
	}
	events, err := readBoundaries(filepath.Join(dir, "events"))
	if err != nil {
		return pc, err
	}
	for _, e := range events {
		if e.start && !slices.Contains(pc.tests, e.name) {
			pc.tests = append(pc.tests, e.name)
		}
	}
	if exists(filepath.Join(dir, "empty")) {
		return pc, nil // nothing measured: the tests executed no line
	}
	metas, _ := filepath.Glob(filepath.Join(dir, "covmeta.*"))
	if len(metas) != 1 {
		return pc, fmt.Errorf("%s: %d coverage meta-data files", dir, len(metas))
	}
	mb, err := os.ReadFile(metas[0])
	if err != nil {
		return pc, err
	}
	meta, err := decodeMeta(mb)
	if err != nil {
		return pc, err
	}
	files := fileMapper(module, moduleDir)
	prev := map[[2]uint32][]uint32{}
	running := map[string]int{}
	for k, e := range events {
		cb, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(e.n)))
		if err != nil {
			return pc, err
		}
		recs, err := decodeCounters(cb)
		if err != nil {
			return pc, err
		}
		owners := windowOwners(k, events, running, pc.tests)
		for _, rec := range recs {
			key := [2]uint32{rec.pkg, rec.fn}
			old := prev[key]
			var fn *coverFunc
			if int(rec.pkg) < len(meta.pkgs) && int(rec.fn) < len(meta.pkgs[rec.pkg]) {
				fn = &meta.pkgs[rec.pkg][rec.fn]
			}
			for u, c := range rec.counters {
				if c == 0 || u < len(old) && old[u] == c || fn == nil || u >= len(fn.units) {
					continue
				}
				file := files(fn.file)
				if file == "" {
					break
				}
				for _, t := range owners {
					if pc.lines[t] == nil {
						pc.lines[t] = map[string][]lang.Span{}
					}
					pc.lines[t][file] = append(pc.lines[t][file], lang.Span{Start: fn.units[u].start, End: fn.units[u].end})
				}
			}
			prev[key] = rec.counters
		}
		if e.start {
			running[e.name]++
		} else if running[e.name]--; running[e.name] <= 0 {
			delete(running, e.name)
		}
	}
	return pc, nil
}

// windowOwners are the tests window k belongs to (see readProcess):
// running holds those running before boundary k.
func windowOwners(k int, events []boundary, running map[string]int, all []string) []string {
	if k == 0 {
		return all
	}
	set := map[string]bool{events[k].name: true}
	if !events[k-1].start {
		set[events[k-1].name] = true
	}
	for t := range running {
		set[t] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	return out
}

// readBoundaries reads an events file; a last line cut short by the
// process's end is dropped.
func readBoundaries(path string) ([]boundary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []boundary
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || (f[1] != "+" && f[1] != "-") {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		out = append(out, boundary{n: n, start: f[1] == "+", name: f[2]})
	}
	return out, nil
}

// fileMapper maps a meta-data file name (IMPORTPATH/file.go, or an
// absolute path) to the absolute file of the module, "" outside it.
func fileMapper(module, dir string) func(string) string {
	cache := map[string]string{}
	return func(name string) string {
		if f, ok := cache[name]; ok {
			return f
		}
		f := ""
		if rest, ok := strings.CutPrefix(name, module+"/"); ok {
			f = filepath.Join(dir, filepath.FromSlash(rest))
		} else if filepath.IsAbs(name) && within(dir, name) {
			f = name
		}
		cache[name] = f
		return f
	}
}

// within reports whether file lies under dir.
func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// covered returns test's lines as lang.CoveredFiles, sorted by file.
func (pc *processCoverage) covered(test string) []lang.CoveredFile {
	byFile := pc.lines[test]
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	out := make([]lang.CoveredFile, 0, len(files))
	for _, f := range files {
		out = append(out, lang.CoveredFile{File: f, Lines: lang.MergeSpans(byFile[f])})
	}
	return out
}
