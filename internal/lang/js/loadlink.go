package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The linker completes the load sites the walker noted (see loads.go):
// it finds the files a site loads (a readdirSync loop's folder is read
// here, its entries in the order node gives them: libuv sorts them by
// name, byte by byte, as os.ReadDir does), reads each with the
// extractor in its loaded mode under the site's describe, and puts what
// they declare in place of the site's dynamic record. The records keep
// the loading file as their file, their ID and their scope, as the
// runner reports them (Mocha's test.file is the file it was loading when
// the test was declared), and take the site's line; a duplicate name is
// warned of with both declarations.
//
// Only Mocha's records are listed so; for the other frameworks a site
// whose files declare tests keeps its dynamic record, with a warning, and
// one whose files declare none loses it. A site is left dynamic, with a
// warning saying why, when what it loads is not known (see the why*
// constants), when a file it loads is a test file of its own or is loaded
// by another site too (node runs a module once: its tests go where it is
// first loaded, which depends on the order the runner loads files in),
// or when a folder entry it loads is not a JavaScript file.

// maxLoadDepth bounds the files loaded by loaded files.
const maxLoadDepth = 4

// loadLinker links the load sites of one project's test files.
type loadLinker struct {
	fw       testdex.Framework
	p        *lang.Project
	prefix   string          // the root-relative path of the project folder, "" or ending in "/"
	tests    map[string]bool // the project's test files of fw, absolute
	count    map[string]int  // how many load sites of the test files load each file
	resolved map[string]resolvedLoad
}

// resolvedLoad is what a load site loads: absolute paths of files, or
// why they are not known.
type resolvedLoad struct {
	files []string
	why   string
}

func newLoadLinker(fw testdex.Framework, p *lang.Project, files []*lang.Linked) *loadLinker {
	ll := &loadLinker{fw: fw, p: p, tests: map[string]bool{}, count: map[string]int{}, resolved: map[string]resolvedLoad{}}
	for _, f := range files {
		ll.tests[filepath.Join(p.Dir, filepath.FromSlash(f.Rel))] = true
		if ll.prefix == "" && strings.HasSuffix(f.RootRel, f.Rel) {
			ll.prefix = strings.TrimSuffix(f.RootRel, f.Rel)
		}
	}
	for _, f := range files {
		abs := filepath.Join(p.Dir, filepath.FromSlash(f.Rel))
		for _, lf := range loadsOf(f.Result.Facts) {
			for _, file := range ll.resolve(abs, lf).files {
				ll.count[file]++
			}
		}
	}
	return ll
}

// loadsOf decodes the load sites of a result's Facts.
func loadsOf(facts []byte) []loadFact {
	return factsOf(facts).Loads
}

func factsOf(facts []byte) importFacts {
	var f importFacts
	if len(facts) == 0 || json.Unmarshal(facts, &f) != nil {
		return importFacts{}
	}
	return f
}

// link replaces the dynamic records of a test file's load sites.
func (ll *loadLinker) link(f *lang.Linked) []testdex.Problem {
	facts := loadsOf(f.Result.Facts)
	if len(facts) == 0 {
		return nil
	}
	abs := filepath.Join(ll.p.Dir, filepath.FromSlash(f.Rel))
	gs, probs := ll.replaceSites(f.Result.Tests, facts, abs, 0, map[string]bool{abs: true})
	f.Result.Tests = f.Result.Tests[:0:0]
	seen := map[string]graft{}
	for _, g := range gs {
		first, dup := seen[g.t.Name]
		switch {
		case !dup:
			seen[g.t.Name] = g
		case g.t.Kind == testdex.KindSuite || g.t.Dynamic:
			if g.file != "" {
				continue // one suite record stands for the suites of one name
			}
		case g.file != first.file: // one file's own are its extraction's business
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: f.RootRel, Line: g.t.Line,
				Message: fmt.Sprintf("duplicate test name %q (%s and %s): both are listed, with one ID, and running it runs both (give them distinct titles)",
					g.t.Name, ll.where(first), ll.where(g))})
		}
		f.Result.Tests = append(f.Result.Tests, g.t)
	}
	return probs
}

// graft is a record with the place it is declared: a loaded file
// (absolute) and its line there; file is "" for the test file's own.
type graft struct {
	t    lang.Test
	file string
	line int
}

// where names a record's declaration for a message.
func (ll *loadLinker) where(g graft) string {
	if g.file == "" {
		return fmt.Sprintf("line %d", g.line)
	}
	return fmt.Sprintf("%s:%d", ll.rootRel(g.file), g.line)
}

// rootRel is an absolute path as the listing shows paths.
func (ll *loadLinker) rootRel(abs string) string {
	rel, err := filepath.Rel(ll.p.Dir, abs)
	if err != nil {
		return abs
	}
	return ll.prefix + filepath.ToSlash(rel)
}

// replaceSites puts, in tests (the records of file), the records of what
// each site loads in place of its dynamic record, or keeps the record
// with a warning.
func (ll *loadLinker) replaceSites(tests []lang.Test, facts []loadFact, file string, depth int, visited map[string]bool) ([]graft, []testdex.Problem) {
	var probs []testdex.Problem
	repl, keep := map[string][]graft{}, map[string]bool{}
	for _, lf := range facts {
		res := ll.resolve(file, lf)
		why := res.why
		var gs []graft
		if why == "" {
			var more []testdex.Problem
			gs, why, more = ll.graft(lf, res.files, depth, visited)
			probs = append(probs, more...)
		}
		if why == "" && ll.fw != testdex.Mocha && len(gs) > 0 {
			why = fmt.Sprintf("tests registered by %s: listed for Mocha only, not for %s", ll.names(res.files), ll.fw)
		}
		if why != "" {
			keep[lf.Record] = true
			probs = append(probs, ll.warn(file, lf, why))
			continue
		}
		repl[lf.Record] = append(repl[lf.Record], gs...)
	}
	out := make([]graft, 0, len(tests))
	for _, t := range tests {
		if gs, ok := repl[t.Name]; ok && t.Dynamic && !keep[t.Name] {
			out = append(out, gs...)
			continue
		}
		out = append(out, graft{t: t, line: t.Line})
	}
	return out, probs
}

// graft reads the files a site loads under its describe. why is not ""
// when one of them cannot be listed so.
func (ll *loadLinker) graft(lf loadFact, files []string, depth int, visited map[string]bool) (out []graft, why string, probs []testdex.Problem) {
	if depth >= maxLoadDepth {
		return nil, fmt.Sprintf("tests registered by files loaded more than %d levels deep: not listed", maxLoadDepth), nil
	}
	var base *instance
	if lf.Parent != "" {
		base = &instance{key: lf.Parent, spaced: lf.Spaced, record: true, run: lf.Run, skip: lf.Skip, cond: lf.Cond}
	}
	for _, file := range files {
		switch {
		case ll.tests[file]:
			return nil, fmt.Sprintf("tests registered by %s, a test file too (they go where node first loads it, which depends on the order of the run): cannot be listed without running them", ll.rootRel(file)), nil
		case ll.count[file] > 1 || visited[file]:
			return nil, fmt.Sprintf("tests registered by %s, loaded more than once (they go where node first loads it): cannot be listed without running them", ll.rootRel(file)), nil
		}
		res, err := ll.load(file, base)
		if err != nil {
			return nil, fmt.Sprintf("tests registered by %s: cannot read it: %v", ll.rootRel(file), err), nil
		}
		if lf.Uses && factsOf(res.Facts).Hidden {
			return nil, fmt.Sprintf("tests declared by functions %s exports, which the loading file may call: cannot be listed without running them", ll.rootRel(file)), nil
		}
		for _, p := range res.Problems {
			p.Path = file
			probs = append(probs, p)
		}
		inner := map[string]bool{file: true}
		for k := range visited {
			inner[k] = true
		}
		gs, more := ll.replaceSites(res.Tests, loadsOf(res.Facts), file, depth+1, inner)
		probs = append(probs, more...)
		for _, g := range gs {
			if g.file == "" {
				g.file = file
			}
			g.t.Line = lf.Line
			out = append(out, g)
		}
	}
	return out, "", probs
}

// load reads a loaded file with the extractor in its loaded mode, through
// the project's cache when there is one.
func (ll *loadLinker) load(file string, base *instance) (lang.Result, error) {
	ex := &Extractor{fw: ll.fw, loaded: true, base: base}
	if ll.p.Load != nil {
		return ll.p.Load(file, ex, nil)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return lang.Result{}, err
	}
	return ex.Extract(&lang.File{Rel: ll.rootRel(file), Abs: file, Data: data, Framework: ll.fw}), nil
}

// names lists files for a message.
func (ll *loadLinker) names(files []string) string {
	if len(files) == 1 {
		return ll.rootRel(files[0])
	}
	return fmt.Sprintf("%d files (%s, ...)", len(files), ll.rootRel(files[0]))
}

// whyText words the walker's reasons.
var whyText = map[string]string{
	whyComputed: "tests registered by files loaded with a computed require: cannot be listed without running them",
	whyLoop:     "tests registered by files loaded in a loop over data the source does not fix: cannot be listed without running them",
	whyFilter:   "tests registered by the files a readdirSync loop loads under conditions not read here: cannot be listed without running them",
	whyImport:   "tests registered by files loaded with import() in a describe: cannot be listed without running them",
	whyRepeated: "tests registered by a file loaded more than once (they go where node first loads it): cannot be listed without running them",
	whyParent:   "tests registered by files loaded in a describe whose title is computed: cannot be listed without running them",
}

// warn says why a site stays a dynamic record.
func (ll *loadLinker) warn(file string, lf loadFact, why string) testdex.Problem {
	if why == whyText[whyComputed] && strings.HasPrefix(lf.Call, "import") {
		why = strings.Replace(why, "a computed require", "a computed import()", 1)
	}
	runs := "the whole file"
	if lf.Parent != "" {
		runs = fmt.Sprintf("%q", lf.Parent)
	}
	return testdex.Problem{Severity: testdex.SevWarning, Path: file, Line: lf.Line,
		Message: fmt.Sprintf("%s (listed as the dynamic record %q, which runs %s)", why, lf.Record, runs)}
}

// resolve finds the files a site of file loads, once per site.
func (ll *loadLinker) resolve(file string, lf loadFact) resolvedLoad {
	key := fmt.Sprintf("%s\x00%d\x00%s", file, lf.Line, lf.Record)
	if r, ok := ll.resolved[key]; ok {
		return r
	}
	r := ll.resolveUncached(filepath.Dir(file), lf)
	ll.resolved[key] = r
	return r
}

func (ll *loadLinker) resolveUncached(dir string, lf loadFact) resolvedLoad {
	if lf.Why != "" {
		return resolvedLoad{why: whyText[lf.Why]}
	}
	var out resolvedLoad
	for _, m := range lf.Files {
		abs := ll.unmark(dir, m)
		found := nodeModuleFile(abs)
		switch {
		case found == "" && ll.inProject(abs):
			return resolvedLoad{why: fmt.Sprintf("tests registered by %s: no such file", ll.rootRel(abs))}
		case found != "" && ll.inProject(found) && jsExtensions[extname(found)]:
			out.files = append(out.files, found) // not data, styles, images: they declare nothing
		}
	}
	if lf.Dir == "" {
		return out
	}
	abs := ll.unmark(dir, lf.Dir)
	if !ll.inProject(abs) {
		return out
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return resolvedLoad{why: fmt.Sprintf("tests registered by the files of %s: cannot read the folder: %v", ll.rootRel(abs), err)}
	}
	for _, e := range entries {
		name := e.Name()
		if !lf.Filter.match(name) {
			continue
		}
		file := filepath.Join(abs, name)
		st, err := os.Stat(file)
		switch ext := extname(name); {
		case err != nil || st.IsDir():
			return resolvedLoad{why: fmt.Sprintf("tests registered by %s, a folder or a broken link: cannot be listed without running them", ll.rootRel(file))}
		case jsExtensions[ext]:
			out.files = append(out.files, file)
		case ext == ".json" || ext == ".node":
		default:
			return resolvedLoad{why: fmt.Sprintf("tests registered by %s, not a JavaScript file: cannot be listed without running them", ll.rootRel(file))}
		}
	}
	return out
}

// unmark turns a marked path into an absolute one: the loading file's
// folder is dir, the working folder the project's.
func (ll *loadLinker) unmark(dir, m string) string { return unmarkPath(ll.p.Dir, dir, m) }

// inProject reports whether a path is the project's own code: under its
// folder, not in node_modules.
func (ll *loadLinker) inProject(abs string) bool { return inProjectDir(ll.p.Dir, abs) }

// nodeModuleFile is the file require loads for an absolute path: the
// path, then with node's extensions (and TypeScript's, which a register
// hook adds), then the folder's index; "" when none exists.
func nodeModuleFile(abs string) string {
	for _, c := range []string{"", ".js", ".json", ".node", ".ts", ".cjs", ".mjs", ".tsx", ".cts", ".mts",
		"/index.js", "/index.json", "/index.ts"} {
		if st, err := os.Stat(abs + filepath.FromSlash(c)); err == nil && st.Mode().IsRegular() {
			return abs + filepath.FromSlash(c)
		}
	}
	return ""
}
