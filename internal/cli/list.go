package cli

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/jsonl"
	"github.com/testdex/testdex/internal/languages"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/run"
)

type listFlags struct {
	json         bool
	frameworks   []string
	kinds        []string
	tags         []string
	name         string
	allPlatforms bool
	stats        bool
	exact        bool
	from         string
	plan         string
}

func newListCmd(env *Env, g *globals) *cobra.Command {
	f := &listFlags{}
	cmd := &cobra.Command{
		Use:   "list [PATH...]",
		Short: "List the tests under the root, or under the named files and folders",
		Long: `List discovers tests without running any code: Go tests, benchmarks,
fuzz targets, examples and their subtests; pytest and unittest tests;
Jest, Vitest, Mocha and node:test suites and tests; cargo unit,
integration and doc tests; JUnit 4 and 5 tests; markdown spec files
(semtest); skill-test modules and declared commands (skilltest).

Exit status: 0 when tests were found, 2 when none were found or matched,
3 for a usage error (bad flag, pattern, configuration or path).`,
		RunE: func(cmd *cobra.Command, args []string) error { return runList(cmd, env, g, f, args) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print JSON Lines, one test record a line (schema version 1)")
	fl.StringSliceVar(&f.frameworks, "framework", nil, "only these frameworks ("+knownList()+"); repeatable or comma-separated")
	fl.StringSliceVar(&f.kinds, "kind", nil, "only these kinds (test, subtest, suite, benchmark, fuzz, example, doctest, spec)")
	fl.StringSliceVar(&f.tags, "tag", nil, "only tests carrying one of these tags")
	fl.StringVarP(&f.name, "name", "n", "", "only tests whose name, or an ancestor's, matches this regular expression")
	fl.BoolVar(&f.allPlatforms, "all-platforms", false, "list the tests of every platform: Go's GOOS/GOARCH and build tags, Rust's cfg(unix/windows/target_*)")
	fl.BoolVar(&f.stats, "stats", false, "print timing and cache figures to stderr")
	fl.BoolVar(&f.exact, "exact", false, "also ask each framework for its own list (runs project code) and merge; records say where they were seen")
	fl.StringVar(&f.from, "from", "", "answer from a metadata file written by 'testdex index -o', without reading the sources")
	fl.StringVar(&f.plan, "plan", "", "also write the plan 'testdex run' would execute for these tests to this file, for 'testdex run --plan' (here or on another machine)")
	return cmd
}

func runList(cmd *cobra.Command, env *Env, g *globals, f *listFlags, args []string) error {
	if env.ShortLived != nil {
		env.ShortLived()
	}
	opts := g.indexOptions(env, args)
	opts.AllPlatforms = f.allPlatforms
	fws, err := frameworks(f.frameworks)
	if err != nil {
		return err
	}
	opts.Frameworks = fws
	start := time.Now()
	ix, err := loadIndex(cmd, env, opts, f.from, f.exact)
	if err != nil {
		return err
	}
	ks, err := kinds(f.kinds)
	if err != nil {
		return err
	}
	tests, err := ix.Select(index.Filter{Frameworks: fws, Kinds: ks, Tags: f.tags, Name: f.name})
	if err != nil {
		return usageErr("%v", err)
	}
	if f.from != "" {
		tests = index.Under(tests, args)
	}
	printProblems(env.Stderr, ix.Problems, g.quiet)
	if f.plan != "" && len(tests) > 0 {
		if err := writePlan(env, g, ix, f, args, tests); err != nil {
			return err
		}
	}
	t5 := time.Now()
	w := bufio.NewWriter(env.Stdout)
	if f.json {
		err = writeJSON(w, tests)
	} else if len(tests) > 0 {
		writeTree(w, tests)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if f.stats {
		s := ix.Stats
		ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
		fmt.Fprintf(env.Stderr, "testdex: %d candidate files, %d parsed, %d from cache; walk %v, extract %v, link %v, assemble %v, write %v, total %v\n",
			s.Candidates, s.Parsed, s.Cached, ms(s.Walk), ms(s.Extract), ms(s.Link), ms(s.Assemble), ms(time.Since(t5)), ms(time.Since(start)))
	}
	if err != nil {
		return err
	}
	if len(tests) == 0 {
		if e := ix.NoTests(); e != nil {
			return e
		}
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no tests match the filters (run 'testdex list' without them to see all %d)", len(ix.Tests))}
	}
	return nil
}

// loadIndex builds the index, reads it from a metadata file, or builds it
// and merges the frameworks' own listings.
func loadIndex(cmd *cobra.Command, env *Env, opts index.Options, from string, exact bool) (*index.Index, error) {
	if from != "" {
		if exact {
			return nil, usageErr("--from and --exact exclude each other: a metadata file is read without running anything")
		}
		return readMetadata(env, opts.Root, from)
	}
	ix, err := index.Build(cmd.Context(), opts)
	if err != nil || !exact {
		return ix, err
	}
	cmp, err := ix.Exact(cmd.Context(), index.ExactOptions{Env: env.Environ})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "testdex: runtime method: %d confirmed, %d static only, %d runtime only, %d covered by dynamic records\n",
		cmp.Confirmed, len(cmp.StaticOnly), len(cmp.RuntimeOnly), cmp.Covered)
	return ix, nil
}

// frameworks checks the names given to --framework against the registry.
func frameworks(names []string) ([]testdex.Framework, error) {
	var out []testdex.Framework
	for _, n := range names {
		fw := testdex.Framework(strings.TrimSpace(n))
		if !languages.Known(fw) {
			return nil, usageErr("unknown framework %q (known: %s)", n, knownList())
		}
		out = append(out, fw)
	}
	return out, nil
}

// knownList names the registered frameworks, comma-separated.
func knownList() string {
	var known []string
	for _, k := range languages.Names() {
		known = append(known, string(k))
	}
	return strings.Join(known, ", ")
}

var knownKinds = []testdex.Kind{testdex.KindTest, testdex.KindSubtest, testdex.KindSuite, testdex.KindBenchmark,
	testdex.KindFuzz, testdex.KindExample, testdex.KindDoctest, testdex.KindSpec}

// kinds parses --kind; an unknown kind is a usage error naming the known.
func kinds(names []string) ([]testdex.Kind, error) {
	var out []testdex.Kind
	for _, n := range names {
		k := testdex.Kind(strings.TrimSpace(n))
		if !slices.Contains(knownKinds, k) {
			var known []string
			for _, k := range knownKinds {
				known = append(known, string(k))
			}
			return nil, usageErr("unknown kind %q (known: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, k)
	}
	return out, nil
}

func printProblems(w io.Writer, ps []testdex.Problem, quiet bool) {
	for _, p := range ps {
		if quiet && p.Severity == testdex.SevWarning {
			continue
		}
		fmt.Fprintln(w, "testdex: "+report.Escape(p.String()))
	}
}

// writeJSON writes one record a line. Tags is always an array. The
// bytes are encoding/json's (package jsonl), without its reflection,
// encoded on all cores.
func writeJSON(w io.Writer, tests []testdex.Test) error {
	return jsonl.WriteTests(w, tests)
}

// writePlan writes the plan of running the listed tests: the named paths
// as `testdex run` takes them, or, when a filter chose the tests, the
// outermost chosen records by ID.
func writePlan(env *Env, g *globals, ix *index.Index, f *listFlags, args []string, tests []testdex.Test) error {
	if f.from != "" {
		return usageErr("--plan and --from exclude each other: a plan is made from the sources (list them, then write the plan)")
	}
	ws, err := g.workspace(env, args)
	if err != nil {
		return err
	}
	var req run.Request
	if len(f.frameworks)+len(f.kinds)+len(f.tags) > 0 || f.name != "" {
		chosen := map[string]bool{}
		for _, t := range tests {
			chosen[t.ID] = true
		}
		for _, t := range tests {
			if !chosen[t.Parent] {
				req.IDs = append(req.IDs, t.ID)
			}
		}
	} else if req.IDs, req.Paths, err = splitArgs(ix, env, args); err != nil {
		return err
	}
	p, err := ws.Plan(ix, req)
	if err != nil {
		return selectionError(err)
	}
	return writeFileAtomic(abs(env, f.plan), p.Write)
}
