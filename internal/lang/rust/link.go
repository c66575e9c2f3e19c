package rust

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Linker names a crate's tests from its module tree. From each target's
// root file it follows `mod x;` declarations (x.rs or x/mod.rs, inline
// `mod a { mod b; }` folders, #[path]) and gives every test of a reached
// file Name = module path + the file's own name (a::tests::it_works), as
// `cargo test -- --list` prints it, Scope = the target's root file and
// Run = Name (a filter for `cargo test -- --exact`). A file is named by the
// first target that runs tests and reaches it; files reached only by
// targets cargo test does not run (examples, benches) lose their tests;
// files reached by none lose them with a warning. Doc tests are kept only
// in the library's tree, named `src/lib.rs - item::path (line N)` with the
// path from the workspace root, as rustdoc prints them. Invocations of
// macro_rules! that declare tests are expanded at the invocation site by
// the expander (macrolink.go): exact names as records, else one dynamic
// record.
//
// Records whose cfg(...) gates (their own, their modules', their macro's)
// are known to be false under Crate.Cfg are dropped, as cargo does not
// compile them: a feature that is off, another platform. Gates testdex
// cannot decide keep the record.
//
// Module files the core did not hand over (a listing of one file) are
// read from disk, parse only, to follow the tree.
type Linker struct{ Crate *Crate }

// place is where a file sits in one target's module tree.
type place struct {
	target  *Target
	module  []string
	tags    []string
	cfgTest bool
}

// Link renames, filters and scopes the records in place.
func (l Linker) Link(p *lang.Project, files []*lang.Linked) []testdex.Problem {
	byRel := map[string]*lang.Linked{}
	for _, f := range files {
		byRel[f.Rel] = f
	}
	tr := &treeReader{dir: l.Crate.Dir, byRel: byRel, disk: map[string]*facts{}}
	places, untested := map[string]place{}, map[string]place{}
	for i := range l.Crate.Targets {
		t := &l.Crate.Targets[i]
		if t.Tested || t.Doctest {
			tr.walk(t, places)
		} else {
			tr.walk(t, untested)
		}
	}
	l.Crate.trees = tr.trees(l.Crate.Targets)
	x := newExpander(tr, places, l.Crate.Name)
	x.run(l.Crate.Targets)
	var templates []template
	for rel := range places {
		if fs := tr.facts(rel); fs != nil {
			templates = append(templates, fs.Templates...)
		}
	}
	var probs []testdex.Problem
	for _, f := range files {
		pl, ok := places[f.Rel]
		if !ok {
			if n := len(f.Result.Tests); n > 0 && !reached(untested, f.Rel) {
				probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: filepath.Join(p.Dir, filepath.FromSlash(f.Rel)),
					Message: fmt.Sprintf("not in the module tree of any target (no `mod` declares it), so its %d tests are not listed; cargo does not compile it", n)})
			}
			f.Result.Tests = nil
			continue
		}
		tests := f.Result.Tests
		if fs := tr.facts(f.Rel); fs != nil {
			tests = append(slices.Clip(tests), l.linkedTests(f.Rel, fs, templates)...)
		}
		f.Result.Tests = l.Crate.Cfg.filter(addUnique(l.rename(f.Rel, pl, tests), x.out[f.Rel]))
	}
	return probs
}

// linkedTests are the file-local records that need the crate: the doc
// tests of docs with cfg_attr doc lines (under the package's features) or
// include_str! ones (the file read from disk),
// and the #[apply] functions whose template is in another file (one
// dynamic case when the template is not found).
func (l Linker) linkedTests(rel string, fs *facts, templates []template) []lang.Test {
	var out []lang.Test
	read := func(inc string) (string, bool) {
		abs := filepath.Join(l.Crate.Dir, filepath.Dir(filepath.FromSlash(rel)), filepath.FromSlash(inc))
		if p, ok := strings.CutPrefix(inc, "$CARGO_MANIFEST_DIR"); ok {
			abs = filepath.Join(l.Crate.Dir, filepath.FromSlash(p))
		}
		data, err := os.ReadFile(abs)
		if err != nil || len(data) > maxDiskFile {
			return "", false
		}
		return string(data), true
	}
	for _, d := range fs.Docs {
		out = append(out, d.tests(l.Crate.Cfg, read)...)
	}
	for _, a := range fs.Applies {
		t, ok := findTemplate(templates, a.Path)
		out = append(out, applyTests(a, t, ok)...)
	}
	for i := range out {
		if out[i].Tags == nil {
			out[i].Tags = []string{}
		}
	}
	return out
}

// rename gives one file's tests their crate-wide names.
func (l Linker) rename(rel string, pl place, tests []lang.Test) []lang.Test {
	out := tests[:0]
	prefix := strings.Join(pl.module, "::")
	join := func(name string) string {
		switch {
		case prefix == "":
			return name
		case name == "":
			return prefix
		}
		return prefix + "::" + name
	}
	for _, t := range tests {
		if t.Kind == testdex.KindDoctest {
			if pl.target.Kind != "lib" || !pl.target.Doctest || pl.cfgTest {
				continue
			}
			t.Name = doctestName(path.Join(l.Crate.DocPrefix, rel), join(t.Name), t.Line)
		} else {
			if !pl.target.Tested {
				continue
			}
			t.Name = join(t.Name)
			if t.Parent != "" {
				t.Parent = join(t.Parent)
			}
		}
		t.Local = t.Name
		t.Scope = pl.target.Root
		if !t.Dynamic && t.Kind != testdex.KindSuite {
			t.Run = t.Name
		}
		if len(pl.tags) > 0 {
			t.Tags = append(slices.Clone(pl.tags), t.Tags...)
		}
		out = append(out, t)
	}
	return out
}

// addUnique appends the records of more whose keys tests lack.
func addUnique(tests, more []lang.Test) []lang.Test {
	if len(more) == 0 {
		return tests
	}
	keys := map[string]bool{}
	for i := range tests {
		keys[tests[i].Key()] = true
	}
	for _, t := range more {
		if !keys[t.Key()] {
			keys[t.Key()] = true
			tests = append(tests, t)
		}
	}
	return tests
}

// doctestName is rustdoc's test name: "FILE - ITEM (line N)", or
// "FILE - (line N)" for the crate's own docs.
func doctestName(file, item string, line int) string {
	return file + " - " + doctestLocal(item, line)
}

// treeReader follows module declarations through the crate's files.
type treeReader struct {
	dir   string
	byRel map[string]*lang.Linked
	disk  map[string]*facts // decoded facts, of handed-over and disk files alike
}

func reached(m map[string]place, rel string) bool { _, ok := m[rel]; return ok }

// trees returns each target's module tree: its root and every file a
// `mod` declaration reaches from it, crate-relative, sorted, keyed by the
// target's root. Facts are read once per file (tr memoizes them).
func (tr *treeReader) trees(targets []Target) map[string][]string {
	out := make(map[string][]string, len(targets))
	for i := range targets {
		m := map[string]place{}
		tr.walk(&targets[i], m)
		out[targets[i].Root] = slices.Sorted(maps.Keys(m))
	}
	return out
}

// walk visits target t's module tree, recording each file's first place.
func (tr *treeReader) walk(t *Target, places map[string]place) {
	type item struct {
		rel   string
		modRs bool
		pl    place
	}
	seen := map[string]bool{}
	queue := []item{{rel: t.Root, modRs: true, pl: place{target: t}}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if seen[it.rel] {
			continue
		}
		seen[it.rel] = true
		if _, ok := places[it.rel]; !ok {
			places[it.rel] = it.pl
		}
		fs := tr.facts(it.rel)
		if fs == nil {
			continue
		}
		for _, d := range fs.Mods {
			rel, modRs, ok := tr.resolve(it.rel, it.modRs, d)
			if !ok {
				continue
			}
			pl := it.pl
			pl.module = append(append(slices.Clone(it.pl.module), d.Inline...), d.Name)
			pl.tags = append(slices.Clone(it.pl.tags), d.Tags...)
			pl.cfgTest = it.pl.cfgTest || d.CfgTest
			queue = append(queue, item{rel: rel, modRs: modRs, pl: pl})
		}
	}
}

// resolve finds the file of a `mod` declaration in file rel, following
// the Rust reference: a #[path] outside inline modules is relative to the
// file's folder; otherwise the folder is the file's own (mod.rs, lib.rs,
// main.rs, #[path] files) or the file's stem (a.rs owns a/), then the
// inline modules; the module is NAME.rs or NAME/mod.rs there.
func (tr *treeReader) resolve(rel string, modRs bool, d modDecl) (string, bool, bool) {
	dir := path.Dir(rel)
	base := dir
	if !modRs {
		base = path.Join(dir, strings.TrimSuffix(path.Base(rel), ".rs"))
	}
	base = path.Join(append([]string{base}, d.Inline...)...)
	if d.Path != "" {
		p := path.Join(base, filepath.ToSlash(d.Path))
		if len(d.Inline) == 0 {
			p = path.Join(dir, filepath.ToSlash(d.Path))
		}
		return p, true, tr.exists(p)
	}
	if p := path.Join(base, d.Name+".rs"); tr.exists(p) {
		return p, false, true
	}
	p := path.Join(base, d.Name, "mod.rs")
	return p, true, tr.exists(p)
}

func (tr *treeReader) exists(rel string) bool {
	if _, ok := tr.byRel[rel]; ok {
		return true
	}
	st, err := os.Stat(filepath.Join(tr.dir, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular()
}

// facts returns a module file's facts, parsing it from disk when the core
// did not hand it over; nil when it cannot be read.
func (tr *treeReader) facts(rel string) *facts {
	if fs, ok := tr.disk[rel]; ok {
		return fs
	}
	if f, ok := tr.byRel[rel]; ok {
		fs := decodeFacts(f.Result.Facts)
		tr.disk[rel] = &fs
		return &fs
	}
	var fs *facts
	abs := filepath.Join(tr.dir, filepath.FromSlash(rel))
	if data, err := os.ReadFile(abs); err == nil && len(data) <= maxDiskFile {
		res := Extractor{}.Extract(&lang.File{Rel: rel, Abs: abs, Data: data})
		v := decodeFacts(res.Facts)
		fs = &v
	}
	tr.disk[rel] = fs
	return fs
}

// maxDiskFile bounds the module files read from disk by the Linker.
const maxDiskFile = 16 << 20

// filter drops in place the records e knows are compiled out.
func (e *CfgEnv) filter(tests []lang.Test) []lang.Test {
	return slices.DeleteFunc(tests, func(t lang.Test) bool { return !e.Keep(t.Tags, t.Kind == testdex.KindDoctest) })
}
