package java

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// SettingSurefireRuns holds the class selection of each Surefire run of a
// Maven module (the plugin's configuration and each execution of its test
// goal), encoded as values "+pattern" (an include), "-pattern" (an
// exclude) and "|" (the start of another run). Absent means one run with
// Surefire's defaults.
const SettingSurefireRuns = "surefireRuns"

// Surefire's default includes and excludes.
var (
	defaultIncludes = []string{"**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"}
	defaultExcludes = []string{"**/*$*"}
)

// pomPlugin is a <plugin> of a POM's build or pluginManagement.
type pomPlugin struct {
	GroupID       string         `xml:"groupId"`
	ArtifactID    string         `xml:"artifactId"`
	Configuration surefireConf   `xml:"configuration"`
	Executions    []pomExecution `xml:"executions>execution"`
}

type pomExecution struct {
	ID            string       `xml:"id"`
	Phase         string       `xml:"phase"`
	Goals         []string     `xml:"goals>goal"`
	Configuration surefireConf `xml:"configuration"`
}

// surefireConf is the part of Surefire's configuration that selects
// classes; a nil list is one the POM does not set.
type surefireConf struct {
	Includes *[]string `xml:"includes>include"`
	Excludes *[]string `xml:"excludes>exclude"`
	Test     *string   `xml:"test"`
}

// over fills the fields c does not set from base.
func (c surefireConf) over(base surefireConf) surefireConf {
	if c.Includes == nil {
		c.Includes = base.Includes
	}
	if c.Excludes == nil {
		c.Excludes = base.Excludes
	}
	if c.Test == nil {
		c.Test = base.Test
	}
	return c
}

// surefirePlugin finds maven-surefire-plugin among plugins.
func surefirePlugin(plugins []pomPlugin) *pomPlugin {
	for i := range plugins {
		p := &plugins[i]
		if strings.TrimSpace(p.ArtifactID) == "maven-surefire-plugin" &&
			(p.GroupID == "" || strings.TrimSpace(p.GroupID) == "org.apache.maven.plugins") {
			return p
		}
	}
	return nil
}

// surefireRun is the class selection of one Surefire run.
type surefireRun struct{ includes, excludes []string }

// surefireRuns reads the Surefire configuration of a module whose POM
// is abs, merged with that of its parents within the project (found by
// <parent><relativePath>, ../pom.xml by default) and their
// <pluginManagement>, the nearest setting of each list winning. It
// returns the settings value (nil for Surefire's defaults) and warnings
// for what it cannot read literally.
func surefireRuns(env *lang.DetectEnv, abs string, p *pom) ([]string, []testdex.Problem) {
	var conf surefireConf
	execs := map[string]pomExecution{}
	var order []string
	var probs []testdex.Problem
	seen := map[string]bool{}
	module := abs
	for n := 0; p != nil && n < maxClimb && !seen[abs]; n++ {
		seen[abs] = true
		for _, plugins := range [][]pomPlugin{p.Build.Plugins, p.Build.PluginManagement} {
			sp := surefirePlugin(plugins)
			if sp == nil {
				continue
			}
			conf = conf.over(sp.Configuration)
			for _, e := range sp.Executions {
				id := strings.TrimSpace(e.ID)
				if id == "" {
					id = "default"
				}
				if old, ok := execs[id]; ok {
					old.Configuration = old.Configuration.over(e.Configuration)
					if old.Phase == "" {
						old.Phase = e.Phase
					}
					if len(old.Goals) == 0 {
						old.Goals = e.Goals
					}
					execs[id] = old
					continue
				}
				execs[id] = e
				order = append(order, id)
			}
		}
		abs, p = parentPOM(env, abs, p)
	}
	var runs []surefireConf
	def, hasDefault := execs["default-test"]
	if !hasDefault || strings.TrimSpace(def.Phase) != "none" {
		runs = append(runs, def.Configuration.over(conf))
	}
	for _, id := range order {
		e := execs[id]
		if id == "default-test" || strings.TrimSpace(e.Phase) == "none" || !slices.Contains(trimAll(e.Goals), "test") {
			continue
		}
		runs = append(runs, e.Configuration.over(conf))
	}
	var out []string
	custom := false
	for i, r := range runs {
		sel, warns := r.selection()
		for _, w := range warns {
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: module, Message: w})
		}
		if !slices.Equal(sel.includes, defaultIncludes) || !slices.Equal(sel.excludes, defaultExcludes) || len(runs) != 1 {
			custom = true
		}
		if i > 0 {
			out = append(out, "|")
		}
		for _, s := range sel.includes {
			out = append(out, "+"+s)
		}
		for _, s := range sel.excludes {
			out = append(out, "-"+s)
		}
	}
	if !custom {
		return nil, probs
	}
	return out, probs
}

func trimAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.TrimSpace(v)
	}
	return out
}

// parentPOM reads the parent of POM p (at abs) when it lies in the
// project: <relativePath> (a folder means its pom.xml), ../pom.xml when
// absent, none when empty; its artifactId must match <parent>'s.
func parentPOM(env *lang.DetectEnv, abs string, p *pom) (string, *pom) {
	if p.Parent.ArtifactID == "" {
		return "", nil
	}
	rel := "../pom.xml"
	if p.Parent.RelativePath != nil {
		rel = strings.TrimSpace(*p.Parent.RelativePath)
	}
	if rel == "" || strings.Contains(rel, "${") {
		return "", nil
	}
	pabs := filepath.Join(filepath.Dir(abs), filepath.FromSlash(rel))
	if !strings.HasSuffix(rel, ".xml") {
		pabs = filepath.Join(pabs, "pom.xml")
	}
	if !below(env.Root, pabs) {
		return "", nil
	}
	pp, err := readPOM(env, pabs)
	if err != nil || strings.TrimSpace(pp.ArtifactID) != strings.TrimSpace(p.Parent.ArtifactID) {
		return "", nil
	}
	return pabs, pp
}

// selection applies Surefire's rules to one run's configuration: <test>
// (comma-separated class patterns, !pattern excluding) overrides the
// includes and excludes; an unset or unreadable list keeps its default.
func (c surefireConf) selection() (surefireRun, []string) {
	var warns []string
	r := surefireRun{includes: defaultIncludes, excludes: defaultExcludes}
	if c.Test != nil && strings.TrimSpace(*c.Test) != "" {
		t := strings.TrimSpace(*c.Test)
		if strings.Contains(t, "${") {
			return r, append(warns, "maven-surefire-plugin <test> "+t+" is not literal; Surefire's includes are used")
		}
		var inc, exc []string
		for _, item := range strings.Split(t, ",") {
			item = strings.TrimSpace(item)
			neg := strings.HasPrefix(item, "!")
			item = strings.TrimPrefix(item, "!")
			if cls, _, m := strings.Cut(item, "#"); m {
				warns = append(warns, "maven-surefire-plugin <test> "+item+": the method filter is not read; every test of the class is listed")
				item = cls
			}
			pat, ok := testPattern(item)
			if !ok {
				warns = append(warns, "maven-surefire-plugin <test> "+item+" is not read (regular expression)")
				continue
			}
			if neg {
				exc = append(exc, pat)
			} else {
				inc = append(inc, pat)
			}
		}
		if len(inc) == 0 {
			inc = []string{"**/*.java"}
		}
		return surefireRun{includes: inc, excludes: exc}, warns
	}
	if c.Includes != nil {
		if pats, ok := literalPatterns(*c.Includes); ok {
			if len(pats) > 0 {
				r.includes = pats
			}
		} else {
			warns = append(warns, "maven-surefire-plugin <includes> "+strings.Join(*c.Includes, ", ")+" are not literal Ant patterns; Surefire's default includes are used")
		}
	}
	if c.Excludes != nil {
		if pats, ok := literalPatterns(*c.Excludes); ok {
			r.excludes = pats
		} else {
			warns = append(warns, "maven-surefire-plugin <excludes> "+strings.Join(*c.Excludes, ", ")+" are not literal Ant patterns; Surefire's default excludes are used")
		}
	}
	return r, warns
}

// literalPatterns normalizes include or exclude patterns (a .class
// suffix read as .java, %ant[...] unwrapped); ok is false when one is a
// property reference or a %regex[...].
func literalPatterns(in []string) ([]string, bool) {
	var out []string
	for _, s := range in {
		for _, p := range strings.Split(s, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			if strings.HasPrefix(p, "%ant[") && strings.HasSuffix(p, "]") {
				p = p[len("%ant[") : len(p)-1]
			}
			if strings.Contains(p, "${") || strings.HasPrefix(p, "%regex[") {
				return nil, false
			}
			out = append(out, normalizePattern(p))
		}
	}
	return out, true
}

// testPattern turns a <test> item (MyTest, *Test, pkg/MyTest.java) into
// an include pattern as Surefire does: **/ before a name without a
// folder, .java after one without a suffix.
func testPattern(item string) (string, bool) {
	if strings.HasPrefix(item, "%regex[") || strings.ContainsAny(item, "()") {
		return "", false
	}
	item = strings.ReplaceAll(item, ".java", "")
	item = strings.TrimSuffix(item, ".class")
	if !strings.Contains(item, "/") {
		item = "**/" + item
	}
	return item + ".java", true
}

func normalizePattern(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if strings.HasSuffix(p, ".class") {
		p = strings.TrimSuffix(p, ".class") + ".java"
	}
	return strings.TrimPrefix(p, "/")
}

// parseRuns decodes SettingSurefireRuns; nil means the default run.
func parseRuns(vals []string) []surefireRun {
	if len(vals) == 0 {
		return nil
	}
	runs := []surefireRun{{}}
	for _, v := range vals {
		cur := &runs[len(runs)-1]
		switch {
		case v == "|":
			runs = append(runs, surefireRun{})
		case strings.HasPrefix(v, "+"):
			cur.includes = append(cur.includes, v[1:])
		case strings.HasPrefix(v, "-"):
			cur.excludes = append(cur.excludes, v[1:])
		}
	}
	return runs
}

// selects reports whether a run includes the class file of a class,
// given as its path below the test source root (com/x/Outer$Inner.java).
func (r surefireRun) selects(rel string) bool {
	in := false
	for _, p := range r.includes {
		if antMatch(p, rel) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for _, p := range r.excludes {
		if antMatch(p, rel) {
			return false
		}
	}
	return true
}

// antMatch matches an Ant pattern (** any folders, * and ? within a
// name) against a slash-separated path.
func antMatch(pattern, name string) bool {
	return antParts(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func antParts(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if antParts(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(escapeBrackets(pat[0]), name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// escapeBrackets keeps [ and ] literal (Ant has no character classes).
func escapeBrackets(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, `\`, `\\`).Replace(s)
}
