package golang

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
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
	pkg   string   // import path
	tests []string // in the order they started
	// seq is each test's start order in the process, counting the tests
	// that never ended (so a record's number says which records of its
	// process are missing); lang.Unordered for a test that started
	// more than once (-count): no one number says what ran before it.
	seq   map[string]int
	lines map[string]map[string][]lang.Span // test -> absolute file -> spans
}

// boundary is one line of the events file: the test started (+) or ended
// with its subtests (-), what ran since the last snapshot having been
// appended to the counters file at off (n bytes) just before; off is -1
// when the hook took no snapshot (a start right after an end, nothing
// running).
type boundary struct {
	start  bool
	name   string
	off, n int64
}

// readProcess reads one process folder, PKG.PID. Window k, what ran
// between snapshots k-1 and k (snapshot k: the hook resets what it
// takes), goes to every test that ran at any point of it, and to the one
// whose end opened it (its goroutines may still run) unless a test started
// before any other snapshot (the hook takes none then): the window is then
// the starting test's. Window 0 (package
// initialisation, TestMain before m.Run) goes to every test of the
// process, which each ran it under go test -run too. So parallel tests,
// whose windows overlap, each get what ran while they ran: more lines
// than their own, never fewer. Then attributor.earlier adds what a test
// may run only when it runs first.
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
	pc.tests, pc.seq = startOrder(events)
	if exists(filepath.Join(dir, "empty")) {
		return pc, nil // nothing measured: the tests executed no line
	}
	meta, counters, err := readData(dir)
	if err != nil {
		return pc, err
	}
	a := &attributor{meta: meta, files: fileMapper(module, moduleDir), pc: pc, ran: map[string]map[[2]uint32][]uint64{},
		first: map[[2]uint32][]int{}, entered: map[string]map[[2]uint32]bool{}, started: map[string]int{}}
	running, win, k := map[string]int{}, map[string]bool{}, 0
	for _, e := range events {
		win[e.name] = true
		if e.start {
			if _, ok := a.started[e.name]; !ok {
				a.started[e.name] = k
			}
			running[e.name]++
		} else if running[e.name]--; running[e.name] <= 0 {
			delete(running, e.name)
		}
		if e.off < 0 { // a start right after an end: the window is the starting test's
			win = map[string]bool{e.name: true}
			continue
		}
		if e.off+e.n > int64(len(counters)) {
			return pc, fmt.Errorf("%s: the counters file is cut short", dir)
		}
		recs, err := decodeSnapshot(counters[e.off : e.off+e.n])
		if err != nil {
			return pc, fmt.Errorf("%s: %w", dir, err)
		}
		owners := pc.tests
		if k > 0 {
			owners = slices.Collect(maps.Keys(win))
		}
		if err := a.window(k, recs, owners); err != nil {
			return pc, fmt.Errorf("%s: %w", dir, err)
		}
		k++
		win = map[string]bool{}
		for t := range running {
			win[t] = true
		}
		if !e.start {
			win[e.name] = true
		}
	}
	a.earlier()
	a.lines()
	return pc, nil
}

// startOrder is the tests of events in the order they first started,
// less those that never ended (the process died during them): they record
// nothing rather than less than they ran. seq numbers them all, the
// unended too, in that order.
func startOrder(events []boundary) (tests []string, seq map[string]int) {
	var out []string
	running, seq := map[string]int{}, map[string]int{}
	for _, e := range events {
		if e.start {
			if _, seen := running[e.name]; !seen {
				seq[e.name] = len(out)
				out = append(out, e.name)
			} else if running[e.name] == 0 {
				seq[e.name] = lang.Unordered // started again after it ended
			}
			running[e.name]++
		} else {
			running[e.name]--
		}
	}
	return slices.DeleteFunc(out, func(t string) bool { return running[t] > 0 }), seq
}

// readData reads a process folder's meta-data and counters files.
func readData(dir string) (*coverMeta, []byte, error) {
	metas, _ := filepath.Glob(filepath.Join(dir, "covmeta.*"))
	if len(metas) != 1 {
		return nil, nil, fmt.Errorf("%s: %d coverage meta-data files", dir, len(metas))
	}
	mb, err := os.ReadFile(metas[0])
	if err != nil {
		return nil, nil, err
	}
	meta, err := decodeMeta(mb)
	if err != nil {
		return nil, nil, err
	}
	counters, err := os.ReadFile(filepath.Join(dir, "counters"))
	return meta, counters, err
}

// attributor turns the snapshots of one process into lines per test.
type attributor struct {
	meta    *coverMeta
	files   func(string) string
	pc      *processCoverage
	first   map[[2]uint32][]int               // function -> per unit, the window it first ran in (-1: not yet)
	entered map[string]map[[2]uint32]bool     // test -> the functions that ran in its windows
	started map[string]int                    // test -> the window that ends at its first start
	ran     map[string]map[[2]uint32][]uint64 // test -> function -> the units given to it (bits)
}

// window gives what ran in window k to its owners. A record whose
// function has another number of units in the meta-data is an error: the
// hook read the counters other than the runtime laid them out.
func (a *attributor) window(k int, recs []counterRecord, owners []string) error {
	for _, rec := range recs {
		key := [2]uint32{rec.pkg, rec.fn}
		if int(rec.pkg) < len(a.meta.pkgs) && int(rec.fn) < len(a.meta.pkgs[rec.pkg]) && len(a.meta.pkgs[rec.pkg][rec.fn].units) != int(rec.n) {
			return fmt.Errorf("function %d of package %d has %d counters in a snapshot and %d units in the meta-data",
				rec.fn, rec.pkg, rec.n, len(a.meta.pkgs[rec.pkg][rec.fn].units))
		}
		fn := a.fn(key)
		if fn == nil {
			continue
		}
		first := a.first[key]
		if first == nil {
			first = slices.Repeat([]int{-1}, len(fn.units))
			a.first[key] = first
		}
		for _, u := range rec.units {
			if first[u] < 0 {
				first[u] = k
			}
		}
		for _, t := range owners {
			bits := a.bits(t, key, len(fn.units))
			for _, u := range rec.units {
				bits[u/64] |= 1 << (u % 64)
			}
		}
		if k > 0 && len(rec.units) > 0 {
			for _, t := range owners {
				if a.entered[t] == nil {
					a.entered[t] = map[[2]uint32]bool{}
				}
				a.entered[t][key] = true
			}
		}
	}
	return nil
}

// earlier gives each test the lines, of each function that ran while it
// ran, that first ran before it started: the ones a test may run only
// when it runs first in its process (a branch on state that earlier tests
// leave, as when each test ran alone). In Go, whose changes are judged per
// function, a test that ran a function keeps the same answer; per line it
// is more lines than the test ran, never fewer.
func (a *attributor) earlier() {
	for t, fns := range a.entered {
		start := a.started[t]
		for key := range fns {
			first := a.first[key]
			bits := a.bits(t, key, len(first))
			for u, w := range first {
				if w >= 0 && w <= start {
					bits[u/64] |= 1 << (u % 64)
				}
			}
		}
	}
}

// fn is a function's meta-data, nil when the meta-data has no such
// function or its file lies outside the module.
func (a *attributor) fn(key [2]uint32) *coverFunc {
	if int(key[0]) >= len(a.meta.pkgs) || int(key[1]) >= len(a.meta.pkgs[key[0]]) {
		return nil
	}
	fn := &a.meta.pkgs[key[0]][key[1]]
	if a.files(fn.file) == "" {
		return nil
	}
	return fn
}

// bits is the set of units of function key (of n units) given to test t.
func (a *attributor) bits(t string, key [2]uint32, n int) []uint64 {
	fns := a.ran[t]
	if fns == nil {
		fns = map[[2]uint32][]uint64{}
		a.ran[t] = fns
	}
	b := fns[key]
	if b == nil {
		b = make([]uint64, (n+63)/64)
		fns[key] = b
	}
	return b
}

// lines turns each test's units into its lines per file.
func (a *attributor) lines() {
	for t, fns := range a.ran {
		byFile := map[string][]lang.Span{}
		for key, bits := range fns {
			fn := a.fn(key)
			file := a.files(fn.file)
			for u, unit := range fn.units {
				if bits[u/64]&(1<<(u%64)) != 0 {
					byFile[file] = append(byFile[file], lang.Span{Start: unit.start, End: unit.end})
				}
			}
		}
		a.pc.lines[t] = byFile
	}
}

// readBoundaries reads an events file; a last line cut short by the
// process's end is dropped.
func readBoundaries(path string) ([]boundary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var out []boundary
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 || (f[0] != "+" && f[0] != "-") {
			continue
		}
		off, err1 := strconv.ParseInt(f[2], 10, 64)
		n, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil || n < 0 {
			continue
		}
		out = append(out, boundary{start: f[0] == "+", name: f[1], off: off, n: n})
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
