package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/golang"
)

// pkg is one package as go list describes it.
type pkg struct {
	ImportPath string
	Dir        string
}

// listPackages runs go list on the patterns.
func listPackages(ctx context.Context, patterns []string) ([]pkg, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}"}, patterns...)
	out, err := exec.CommandContext(ctx, "go", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", strings.Join(patterns, " "), err)
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if ip, dir, ok := strings.Cut(line, "\t"); ok {
			pkgs = append(pkgs, pkg{ip, dir})
		}
	}
	return pkgs, nil
}

var nameRE = regexp.MustCompile(`^[\pL_][\pL\pN_]*$`)

// goTestList runs go test -json -list '.*' on the packages and returns the
// names each printed. A failing package (build error) simply lists none.
func goTestList(ctx context.Context, pkgs []pkg) (map[string][]string, error) {
	args := []string{"test", "-json", "-list", ".*"}
	for _, p := range pkgs {
		args = append(args, p.ImportPath)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	res := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Action != "output" {
			continue
		}
		if name := strings.TrimSuffix(ev.Output, "\n"); nameRE.MatchString(name) {
			res[ev.Package] = append(res[ev.Package], name)
		}
	}
	if err != nil {
		return res, fmt.Errorf("go test -list (some packages may have failed): %v: %s", err, firstLine(stderr.String()))
	}
	return res, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// ours lists the top-level names the extractor finds in a package folder.
func ours(p pkg) []string {
	files, _ := filepath.Glob(filepath.Join(p.Dir, "*_test.go"))
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		res := golang.Default.Extract(&lang.File{Rel: filepath.Base(f), Abs: f, Data: data})
		for _, t := range res.Tests {
			if t.Parent == "" {
				names = append(names, t.Name)
			}
		}
	}
	return names
}

// summary accumulates the comparison figures.
type summary struct {
	pkgs, mismatchedPkgs, matched, onlyGo, onlyUs int
}

// add compares one package and prints its differences.
func (s *summary) add(w io.Writer, p pkg, us, live []string) {
	s.pkgs++
	slices.Sort(us)
	slices.Sort(live)
	var goOnly, usOnly []string
	i, j := 0, 0
	for i < len(us) || j < len(live) {
		switch {
		case j == len(live) || i < len(us) && us[i] < live[j]:
			usOnly = append(usOnly, us[i])
			i++
		case i == len(us) || live[j] < us[i]:
			goOnly = append(goOnly, live[j])
			j++
		default:
			s.matched++
			i++
			j++
		}
	}
	s.onlyGo += len(goOnly)
	s.onlyUs += len(usOnly)
	if len(goOnly)+len(usOnly) > 0 {
		s.mismatchedPkgs++
		fmt.Fprintf(w, "%s: only go test: %v; only testdex: %v\n", p.ImportPath, goOnly, usOnly)
	}
}

func (s summary) String() string {
	return fmt.Sprintf("packages %d, names matched %d, only in go test %d, only in testdex %d, packages with mismatches %d",
		s.pkgs, s.matched, s.onlyGo, s.onlyUs, s.mismatchedPkgs)
}
