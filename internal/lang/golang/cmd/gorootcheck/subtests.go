package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// The -subtests mode compares every test and subtest that `go test -json
// -run . -count=1` runs with the records `testdex list` gives the same
// packages (the whole index: helpers of other files followed):
//
//	go run ./internal/lang/golang/cmd/gorootcheck -subtests [-short] [-events run.jsonl] [pattern ...]
//
// A subtest go test runs is matched (a record of that exact name), or
// missed; a missed one is covered when a dynamic record lies under one of
// its ancestors. An extra is a static, unskipped record go test did not
// run, in a package that ran: a branch not taken, code after
// `if testing.Short() { return }`, a flag-gated t.Run. Benchmarks, which
// -run . does not run, are left out. Leaves are subtests go test ran none
// under. -events reads a saved go test -json stream instead of running go
// test (std takes minutes), and -save writes the stream it ran.

// subtestFigures are the comparison's counts.
type subtestFigures struct {
	pkgs                                 int
	subtests, matched, missed, covered   int
	leaves, leavesMatched, leavesCovered int
	extras, dynamic                      int
}

func (f subtestFigures) String() string {
	return fmt.Sprintf("packages %d; subtests go test ran %d: %d matched exactly, %d missed (%d of them under a dynamic record, %d not); "+
		"leaves %d: %d matched, %d under a dynamic record, %d not; extras (static records go test did not run) %d; dynamic records %d",
		f.pkgs, f.subtests, f.matched, f.missed, f.covered, f.missed-f.covered,
		f.leaves, f.leavesMatched, f.leavesCovered, f.leaves-f.leavesMatched-f.leavesCovered, f.extras, f.dynamic)
}

// runSubtests is the -subtests mode.
func runSubtests(ctx context.Context, patterns []string, short bool, events, save string, stdout, stderr io.Writer) int {
	pkgs, err := listPackages(ctx, patterns)
	if err != nil || len(pkgs) == 0 {
		fmt.Fprintln(stderr, "gorootcheck: no packages:", err)
		return 2
	}
	ran, err := ranTests(ctx, pkgs, short, events, save)
	if err != nil {
		fmt.Fprintln(stderr, "gorootcheck:", err)
		return 2
	}
	root, err := moduleRoot(ctx, pkgs[0])
	if err != nil {
		fmt.Fprintln(stderr, "gorootcheck:", err)
		return 2
	}
	ix, err := index.Build(ctx, index.Options{Root: root, Frameworks: []testdex.Framework{testdex.Go}})
	if err != nil {
		fmt.Fprintln(stderr, "gorootcheck:", err)
		return 2
	}
	byPkg := map[string][]testdex.Test{}
	for _, t := range ix.Tests {
		byPkg[t.Scope] = append(byPkg[t.Scope], t)
	}
	var f subtestFigures
	for _, p := range pkgs {
		if len(ran[p.ImportPath]) > 0 {
			f.add(stdout, p.ImportPath, ran[p.ImportPath], byPkg[p.ImportPath])
		}
	}
	fmt.Fprintln(stdout, f)
	return 0
}

// ranTests maps each package to the names go test ran in it.
func ranTests(ctx context.Context, pkgs []pkg, short bool, events, save string) (map[string][]string, error) {
	var r io.Reader
	if events != "" {
		f, err := os.Open(events)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	} else {
		args := []string{"test", "-json", "-run", ".", "-count=1"}
		if short {
			args = append(args, "-short")
		}
		for _, p := range pkgs {
			args = append(args, p.ImportPath)
		}
		out, _ := exec.CommandContext(ctx, "go", args...).Output() // failing tests still report what ran
		if save != "" {
			if err := os.WriteFile(save, out, 0o644); err != nil {
				return nil, err
			}
		}
		r = strings.NewReader(string(out))
	}
	ran := map[string][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Action == "run" && ev.Test != "" {
			ran[ev.Package] = append(ran[ev.Package], ev.Test)
		}
	}
	return ran, sc.Err()
}

// moduleRoot is the folder of p's module, GOROOT/src for std.
func moduleRoot(ctx context.Context, p pkg) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-f", "{{if .Module}}{{.Module.Dir}}{{else}}{{.Root}}/src{{end}}", p.ImportPath).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", p.ImportPath, err)
	}
	return filepath.Clean(strings.TrimSpace(string(out))), nil
}

// add compares one package: the names go test ran with the records.
func (f *subtestFigures) add(w io.Writer, ip string, ran []string, recs []testdex.Test) {
	f.pkgs++
	names := map[string]bool{}
	var dynParents []string
	for _, r := range recs {
		names[r.Name] = true
		if r.Dynamic {
			f.dynamic++
			dynParents = append(dynParents, parentName(r)+"/")
		}
	}
	ranSet, hasChild := map[string]bool{}, map[string]bool{}
	for _, n := range ran {
		ranSet[n] = true
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			hasChild[n[:i]] = true
		}
	}
	var notCovered []string
	for _, n := range ran {
		if !strings.Contains(n, "/") {
			continue
		}
		leaf := !hasChild[n]
		f.subtests++
		f.leaves += b2i(leaf)
		switch {
		case names[n]:
			f.matched++
			f.leavesMatched += b2i(leaf)
		case slices.ContainsFunc(dynParents, func(p string) bool { return strings.HasPrefix(n, p) }):
			f.missed++
			f.covered++
			f.leavesCovered += b2i(leaf)
		default:
			f.missed++
			notCovered = append(notCovered, n)
		}
	}
	var extras []string
	for _, r := range recs {
		if !r.Dynamic && !r.Skip && r.Parent != "" && !strings.HasPrefix(r.Name, "Benchmark") && !ranSet[r.Name] {
			extras = append(extras, r.Name)
		}
	}
	f.extras += len(extras)
	if len(notCovered) > 0 {
		fmt.Fprintf(w, "%s: missed, no dynamic record: %s\n", ip, short(notCovered))
	}
	if len(extras) > 0 {
		fmt.Fprintf(w, "%s: extra: %s\n", ip, short(extras))
	}
}

// parentName is the name of a record's parent: its ID's key.
func parentName(r testdex.Test) string {
	if _, key, ok := strings.Cut(r.Parent, "::"); ok {
		return key
	}
	return r.Parent
}

func short(names []string) string {
	slices.Sort(names)
	if len(names) > 8 {
		return fmt.Sprintf("%s ... (%d)", strings.Join(names[:8], ", "), len(names))
	}
	return strings.Join(names, ", ")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
