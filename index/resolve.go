package index

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
)

// detectors are the languages' Detectors, in the order a file is offered
// to them (the registry's, package languages).
var detectors = languages.Detectors()

// Project is one project found in the tree: the folder of a manifest (or
// the root, for files of an ecosystem without one).
type Project struct {
	// Dir is the folder relative to the root ("." for the root itself; it
	// starts with "../" for a manifest above the root).
	Dir string `json:"dir"`
	// Ecosystem is the detector's ecosystem: go, semtest, ...
	Ecosystem string `json:"ecosystem"`
	// Name is the project's own name where the manifest gives one: the Go
	// module path.
	Name string `json:"name,omitempty"`
	// Manifest is the manifest's file name, "" for a root fallback project.
	Manifest string `json:"manifest,omitempty"`
	// Frameworks are the frameworks the project's files belong to.
	Frameworks []testdex.Framework `json:"frameworks"`
}

// resolver assigns files to projects and frameworks. It runs on one
// goroutine, after the walk.
type resolver struct {
	root     string
	env      *lang.DetectEnv
	dets     []lang.Detector
	found    map[string][]string // root-relative folder -> manifest names seen by the walk
	seenDirs map[string]bool     // root-relative folders whose entries the walk saw
	onDisk   map[string][]string // absolute folder -> manifest names, looked up lazily
	projects map[string]*lang.Project
	projOf   map[dirKey]*lang.Project // projectFor's answers
	order    []string                 // project keys in first-use order
	probs    []testdex.Problem
}

// assignment is where one file belongs.
type assignment struct {
	proj  *lang.Project
	setup *lang.Setup
	rel   string // relative to proj.Dir
}

func newResolver(root string, cfg *config.Config, opts *Options, l1 *level1) *resolver {
	env := &lang.DetectEnv{Root: root, ReadFile: os.ReadFile, Options: frameworkOptions(cfg, opts)}
	return &resolver{root: root, env: env, dets: detectors, found: l1.manifests, seenDirs: l1.dirs,
		onDisk: map[string][]string{}, projects: map[string]*lang.Project{}, projOf: map[dirKey]*lang.Project{}}
}

// frameworkOptions maps testdex.toml and the command line onto the
// detectors' options.
func frameworkOptions(cfg *config.Config, opts *Options) map[testdex.Framework]lang.FrameworkOptions {
	out := map[testdex.Framework]lang.FrameworkOptions{}
	for name, f := range cfg.Frameworks {
		extra := map[string][]string{"tags": f.Tags}
		for k, on := range map[string]bool{"all_platforms": f.AllPlatforms, "all_features": f.AllFeatures, "no_default_features": f.NoDefaultFeatures} {
			if on {
				extra[k] = []string{"true"}
			}
		}
		if len(f.Features) > 0 {
			extra["features"] = f.Features
		}
		for k, v := range map[string]string{"outputDir": f.OutputDir, "goos": f.GOOS, "goarch": f.GOARCH} {
			if v != "" {
				extra[k] = []string{v}
			}
		}
		out[testdex.Framework(name)] = lang.FrameworkOptions{TestMatch: f.TestMatch, TestPathIgnorePatterns: f.TestPathIgnorePatterns, Disabled: f.Disabled, Extra: extra}
	}
	if sp := cfg.Specs; sp.Agent != "" || sp.AgentArgv != nil || sp.Model != "" || sp.PermissionFlag != "" || sp.Timeout != "" || sp.SkipPermissionsIfPossible {
		for _, fw := range languages.Frameworks() {
			if fw.Specs { // [specs] configures the framework: its Detector reads it as its extras
				out[fw.Name] = withSpecs(out[fw.Name], sp)
			}
		}
	}
	for _, fw := range languages.Frameworks() {
		if !opts.AllPlatforms {
			break
		}
		if !fw.AllPlatforms {
			continue
		}
		o := out[fw.Name]
		if o.Extra == nil {
			o.Extra = map[string][]string{}
		}
		o.Extra["all_platforms"] = []string{"true"}
		out[fw.Name] = o
	}
	return out
}

// withSpecs adds testdex.toml's [specs] table to a framework's options,
// as extras named "specs.KEY".
func withSpecs(o lang.FrameworkOptions, sp config.Specs) lang.FrameworkOptions {
	if o.Extra == nil {
		o.Extra = map[string][]string{}
	}
	for k, v := range map[string]string{"agent": sp.Agent, "model": sp.Model, "permission_flag": sp.PermissionFlag, "timeout": sp.Timeout} {
		if v != "" {
			o.Extra["specs."+k] = []string{v}
		}
	}
	if sp.AgentArgv != nil {
		o.Extra["specs.agent_argv"] = sp.AgentArgv
	}
	if sp.SkipPermissionsIfPossible {
		o.Extra["specs.skipPermissionsIfPossible"] = []string{"true"}
	}
	return o
}

// detectorExts holds each detector's extensions, in the order of
// detectors, and wantedExts and manifestNames every detector's extensions
// and manifest names: asked once, as the walk tests every file's name.
var (
	detectorExts  = extensionsOf(detectors)
	wantedExts    = slices.Concat(detectorExts...)
	manifestNames = manifestsOf(detectors)
)

func extensionsOf(dets []lang.Detector) [][]string {
	out := make([][]string, len(dets))
	for i, d := range dets {
		out[i] = d.Extensions()
	}
	return out
}

func manifestsOf(dets []lang.Detector) map[string]bool {
	out := map[string]bool{}
	for _, d := range dets {
		for _, m := range d.Manifests() {
			out[m] = true
		}
	}
	return out
}

// extensionWanted reports whether some detector may want a file: the cheap
// test run during the walk.
func extensionWanted(base string) bool { return hasSuffix(base, wantedExts) }

// isManifest reports whether a file name is some detector's manifest.
func isManifest(base string) bool { return manifestNames[base] }

// assign finds the project and framework of a root-relative file.
func (r *resolver) assign(rootRel string, frameworks []testdex.Framework) (assignment, bool) {
	base := path.Base(rootRel)
	for i, d := range r.dets {
		if !hasSuffix(base, detectorExts[i]) {
			continue
		}
		p := r.projectFor(d, path.Dir(rootRel))
		if p == nil {
			continue
		}
		rel := r.relTo(p, rootRel)
		for _, s := range p.Frameworks {
			if r.enabled(s.Framework, frameworks) && s.Match(rel) {
				return assignment{proj: p, setup: s, rel: rel}, true
			}
		}
	}
	return assignment{}, false
}

// lenient finds a framework that lists a named file despite its name.
func (r *resolver) lenient(rootRel string, frameworks []testdex.Framework) (assignment, bool) {
	for _, d := range r.dets {
		p := r.projectFor(d, path.Dir(rootRel))
		if p == nil {
			continue
		}
		for _, s := range p.Frameworks {
			if r.enabled(s.Framework, frameworks) && hasSuffix(rootRel, s.Lenient) {
				return assignment{proj: p, setup: s, rel: r.relTo(p, rootRel)}, true
			}
		}
	}
	return assignment{}, false
}

func (r *resolver) enabled(fw testdex.Framework, only []testdex.Framework) bool {
	if r.env.Options[fw].Disabled {
		return false
	}
	return only == nil || slices.Contains(only, fw)
}

func hasSuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// relTo makes a root-relative path relative to a project folder.
func (r *resolver) relTo(p *lang.Project, rootRel string) string {
	rel, err := filepath.Rel(p.Dir, filepath.Join(r.root, filepath.FromSlash(rootRel)))
	if err != nil {
		return rootRel
	}
	return filepath.ToSlash(rel)
}

// projectFor returns the nearest project of d's ecosystem for a
// root-relative folder, climbing above the root if needed, and falls back
// to a project at the root when there is no manifest anywhere above.
func (r *resolver) projectFor(d lang.Detector, dir string) *lang.Project {
	k := dirKey{d.Ecosystem(), dir}
	if p, ok := r.projOf[k]; ok {
		return p
	}
	p := r.findProject(d, dir)
	r.projOf[k] = p
	return p
}

// dirKey names a folder as one detector sees it (one per ecosystem).
type dirKey struct{ eco, dir string }

// findProject is projectFor without the memo: every file of a folder
// has the folder's answer, which depends on nothing a later file changes.
func (r *resolver) findProject(d lang.Detector, dir string) *lang.Project {
	if d.Manifests() == nil {
		return r.detect(d, r.root, nil)
	}
	start := filepath.Join(r.root, filepath.FromSlash(dir))
	abs := start
	for {
		if names := r.manifestsIn(abs, d.Manifests()); len(names) > 0 {
			if p := r.detect(d, abs, names); p != nil {
				return r.subproject(d, p, start)
			}
		}
		up := filepath.Dir(abs)
		if up == abs {
			return r.detect(d, r.root, nil)
		}
		abs = up
	}
}

// subproject returns the innermost of p's Subprojects whose folder holds
// the absolute folder abs, else p. A subproject is kept like a detected
// one (listed once, from its first use), under its own folder.
func (r *resolver) subproject(d lang.Detector, p *lang.Project, abs string) *lang.Project {
	var best *lang.Project
	for _, s := range p.Subprojects {
		if rel, err := filepath.Rel(s.Dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) &&
			(best == nil || len(s.Dir) > len(best.Dir)) {
			best = s
		}
	}
	if best == nil {
		return p
	}
	key := d.Ecosystem() + "\x00" + best.Dir
	if q, ok := r.projects[key]; ok && q != nil {
		return q
	}
	r.projects[key] = best
	r.order = append(r.order, key)
	return best
}

// detect runs a detector once per folder.
func (r *resolver) detect(d lang.Detector, abs string, names []string) *lang.Project {
	key := d.Ecosystem() + "\x00" + abs
	if p, ok := r.projects[key]; ok {
		return p
	}
	p, probs := d.Detect(r.env, abs, names)
	for _, pr := range probs {
		pr.Path = r.display(pr.Path)
		r.probs = append(r.probs, pr)
	}
	r.projects[key] = p
	if p != nil {
		r.order = append(r.order, key)
	}
	return p
}

// manifestsIn lists which of names exist in an absolute folder, from what
// the walk saw where it can, from the disk otherwise.
func (r *resolver) manifestsIn(abs string, names []string) []string {
	var have []string
	if rel, err := filepath.Rel(r.root, abs); err == nil && r.seenDirs[filepath.ToSlash(rel)] {
		have = r.found[filepath.ToSlash(rel)]
	} else {
		var ok bool
		if have, ok = r.onDisk[abs]; !ok {
			for _, d := range r.dets {
				for _, m := range d.Manifests() {
					if st, err := os.Stat(filepath.Join(abs, m)); err == nil && st.Mode().IsRegular() && !slices.Contains(have, m) {
						have = append(have, m)
					}
				}
			}
			r.onDisk[abs] = have
		}
	}
	var out []string
	for _, n := range names {
		if slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out
}

// display renders an absolute path relative to the root where possible.
func (r *resolver) display(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(r.root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}

// list returns the projects used, sorted by folder then ecosystem.
func (r *resolver) list() []Project {
	var out []Project
	for _, key := range r.order {
		p := r.projects[key]
		eco, _, _ := strings.Cut(key, "\x00")
		pr := Project{Dir: r.display(p.Dir), Ecosystem: eco, Name: p.Name, Manifest: p.Manifest}
		if pr.Dir == "" {
			pr.Dir = "."
		}
		for _, s := range p.Frameworks {
			pr.Frameworks = append(pr.Frameworks, s.Framework)
		}
		out = append(out, pr)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Ecosystem < out[j].Ecosystem
	})
	return out
}
