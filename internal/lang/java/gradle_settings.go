package java

import (
	"fmt"
	"strings"
)

// gradleSettings is what a settings script (settings.gradle or
// settings.gradle.kts) literally says of the build's layout. Scripts are
// programs; the reader takes only these statement forms, in either DSL,
// with single-, double- or triple-quoted strings:
//
//	include 'a', ':b:c'            include(":a", ":b:c")   include(['a', 'b'])
//	includeFlat 'x'                includeFlat("x")
//	project(':a').projectDir = file('libs/a')
//	project(':a').projectDir = new File(settingsDir, 'libs/a')   (or rootDir; File(...) in Kotlin)
//	project(':a').projectDir = file("$rootDir/libs/a")          ($rootDir, ${rootDir}, $settingsDir)
//	project(':a').buildFileName = 'a.gradle'
//	rootProject.name = 'x'        rootProject.buildFileName = 'x.gradle'
//
// and the loop over the root's children that spring-framework, junit5 and
// mockito use, each assignment a template of the child's name alone (a
// second buildFileName is a fallback, taken when the first file is
// missing, as junit5's loop does; a local val/def holding such a template
// may stand for it):
//
//	rootProject.children.each { p ->        (forEach, all; it when unnamed)
//	    p.buildFileName = "${p.name}.gradle"
//	    p.projectDir = File(settingsDir, "subprojects/${p.name}")
//	}
//
// Any other assignment of projectDir or buildFileName, and any other
// include or includeFlat (a loop, a variable, a computed name,
// project(':a').name = ..., a project(':a') { } block), is a warning
// naming its line, so that a subproject the reader could not see is
// reported, never silently missed.
// Conditions are not evaluated: an include inside an if is read as if it
// ran (listing is static; the project exists in some configuration).
// includeBuild (a composite build's other build) is not a subproject: that
// build has its own settings and is found on its own.
type gradleSettings struct {
	includes []string            // project paths, ":a:b"
	flat     map[string]bool     // paths included by includeFlat
	dirs     map[string]string   // project path -> projectDir as written
	builds   map[string][]string // project path -> buildFileName candidates, in order
	children []childRule
	rootName string
	warnings []settingsWarning
}

type settingsWarning struct {
	line int
	msg  string
}

// readGradleSettings reads a settings script's literal layout statements.
func readGradleSettings(src string) *gradleSettings {
	r := &settingsReader{toks: lexGradle(src), s: &gradleSettings{flat: map[string]bool{}, dirs: map[string]string{}, builds: map[string][]string{}}}
	r.used = make([]bool, len(r.toks))
	for i, t := range r.toks {
		if t.kind != gIdent || r.used[i] || r.afterDot(i) {
			continue
		}
		switch t.text {
		case "include", "includeFlat":
			r.include(i)
		case "project":
			r.project(i)
		case "rootProject":
			if !r.children(i) {
				r.rootProject(i)
			}
		}
	}
	r.unread()
	return r.s
}

// settingsReader walks a script's tokens; used marks the tokens of the
// statements it understood.
type settingsReader struct {
	toks []gtoken
	used []bool
	s    *gradleSettings
}

func (r *settingsReader) tok(i int) gtoken {
	if i < 0 || i >= len(r.toks) {
		return gtoken{kind: gOther, line: r.lastLine()}
	}
	return r.toks[i]
}

func (r *settingsReader) lastLine() int {
	if len(r.toks) == 0 {
		return 1
	}
	return r.toks[len(r.toks)-1].line
}

func (r *settingsReader) is(i int, kind gkind, text string) bool {
	t := r.tok(i)
	return t.kind == kind && t.text == text
}

// afterDot reports whether token i is a member (x.include): not a
// statement of the script's own.
func (r *settingsReader) afterDot(i int) bool {
	return r.is(i-1, gPunct, ".") || r.is(i-1, gPunct, "?")
}

func (r *settingsReader) skipNewlines(i int) int {
	for r.tok(i).kind == gNewline {
		i++
	}
	return i
}

func (r *settingsReader) mark(from, to int) {
	for k := from; k < to && k < len(r.used); k++ {
		r.used[k] = true
	}
}

func (r *settingsReader) warn(i int, format string, args ...any) {
	r.s.warnings = append(r.s.warnings, settingsWarning{line: r.tok(i).line, msg: fmt.Sprintf(format, args...)})
}

// include reads include/includeFlat with literal arguments, with or
// without parentheses, a Groovy list allowed. A Groovy command call ends
// at the line end unless a comma continues it.
func (r *settingsReader) include(i int) {
	verb := r.tok(i).text
	j := i + 1
	paren := r.is(j, gPunct, "(")
	if paren {
		j++
	}
	var names []string
	depth := 0 // inside [ ]
	for {
		if paren || depth > 0 {
			j = r.skipNewlines(j)
		}
		t := r.tok(j)
		switch {
		case t.kind == gPunct && t.text == "[":
			depth++
			j++
			continue
		case t.kind == gString && t.literal:
			names = append(names, t.text)
			j++
		default:
			r.used[i] = true
			r.warn(i, "%s with an argument that is not a quoted literal is not read (its projects are not found; list them as literal strings)", verb)
			return
		}
		for depth > 0 && r.is(r.skipNewlines(j), gPunct, "]") {
			j = r.skipNewlines(j) + 1
			depth--
		}
		if r.is(j, gPunct, ",") {
			j = r.skipNewlines(j + 1)
			continue
		}
		break
	}
	if paren {
		if !r.is(r.skipNewlines(j), gPunct, ")") {
			r.used[i] = true
			r.warn(i, "%s(...) is not read: an argument is not a quoted literal", verb)
			return
		}
		j = r.skipNewlines(j) + 1
	}
	r.mark(i, j)
	for _, n := range names {
		p := gradlePath(n)
		r.s.includes = append(r.s.includes, p)
		if verb == "includeFlat" {
			r.s.flat[p] = true
		}
	}
}

// project reads project('<path>').<prop> = <value>.
func (r *settingsReader) project(i int) {
	if !r.is(i+1, gPunct, "(") || !r.is(i+3, gPunct, ")") || !r.is(i+4, gPunct, ".") || r.tok(i+5).kind != gIdent || !r.is(i+6, gPunct, "=") {
		return
	}
	arg, prop := r.tok(i+2), r.tok(i+5).text
	if arg.kind != gString || !arg.literal {
		return // left for unread to report, if it sets a layout property
	}
	r.assign(i, gradlePath(arg.text), prop, i+7)
}

// rootProject reads rootProject.<prop> = <value>.
func (r *settingsReader) rootProject(i int) {
	if !r.is(i+1, gPunct, ".") || r.tok(i+2).kind != gIdent || !r.is(i+3, gPunct, "=") {
		return
	}
	r.assign(i, ":", r.tok(i+2).text, i+4)
}

// assign reads the value of a layout property of project path, the
// statement starting at token start and the value at v.
func (r *settingsReader) assign(start int, path, prop string, v int) {
	switch prop {
	case "projectDir":
		if dir, end, ok := r.fileValue(v); ok && path != ":" {
			r.s.dirs[path] = dir
			r.mark(start, end)
		}
	case "buildFileName":
		if t := r.tok(v); t.kind == gString && t.literal {
			r.s.builds[path] = []string{t.text}
			r.mark(start, v+1)
		}
	case "name":
		if t := r.tok(v); path == ":" && t.kind == gString && t.literal {
			r.s.rootName = t.text
			r.mark(start, v+1)
		} else if path != ":" {
			r.mark(start, v+1)
			r.warn(start, "renaming project %s is not read (its tests are listed under its old path)", path)
		}
	}
}

// fileValue reads file('d'), new File(settingsDir|rootDir, 'd'),
// File(settingsDir|rootDir, "d") or 'd' as File, returning the folder as
// written (relative to the settings folder unless absolute) and the end
// of the value.
func (r *settingsReader) fileValue(v int) (string, int, bool) {
	return r.fileValueWith(v, literalPath)
}

// fileValueWith is fileValue with conv reading the path's string.
func (r *settingsReader) fileValueWith(v int, conv func(gtoken) (string, bool)) (string, int, bool) {
	if r.is(v, gIdent, "new") {
		v++
	}
	switch {
	case r.is(v, gIdent, "file") && r.is(v+1, gPunct, "(") && r.is(v+3, gPunct, ")"):
		d, ok := conv(r.tok(v + 2))
		return d, v + 4, ok
	case r.is(v, gIdent, "File") && r.is(v+1, gPunct, "(") && r.is(v+3, gPunct, ",") && r.is(v+5, gPunct, ")"):
		base := r.tok(v + 2)
		d, ok := conv(r.tok(v + 4))
		ok = ok && base.kind == gIdent && (base.text == "settingsDir" || base.text == "rootDir")
		return d, v + 6, ok
	case r.tok(v).kind == gString && r.is(v+1, gIdent, "as") && r.is(v+2, gIdent, "File"):
		d, ok := conv(r.tok(v))
		return d, v + 3, ok
	}
	return "", v, false
}

// literalPath returns a string token's folder: a literal, or a template
// whose only template part is a leading $rootDir/ or $settingsDir/ (the
// settings folder itself).
func literalPath(t gtoken) (string, bool) {
	if t.kind != gString {
		return "", false
	}
	if t.literal {
		return t.text, true
	}
	for _, pre := range []string{"$rootDir/", "${rootDir}/", "$settingsDir/", "${settingsDir}/", "${rootProject.projectDir}/"} {
		if rest, ok := strings.CutPrefix(t.text, pre); ok && !strings.Contains(rest, "$") {
			return rest, true
		}
	}
	return "", false
}

// unread warns of every include the reader did not understand, and of
// every assignment of a layout property (reading one, as in
// require(p.projectDir.isDirectory), changes nothing).
func (r *settingsReader) unread() {
	for i, t := range r.toks {
		if t.kind != gIdent || r.used[i] {
			continue
		}
		switch {
		case (t.text == "include" || t.text == "includeFlat") && !r.afterDot(i):
			r.warn(i, "%s is used in a form the settings reader does not read (only literal include statements are; see the java package's gradleSettings)", t.text)
		case (t.text == "projectDir" || t.text == "buildFileName") && r.is(i+1, gPunct, "=") && !r.is(i+2, gPunct, "="):
			r.warn(i, "%s is set in a form the settings reader does not read (only project(':x').%s = <literal> and the rootProject.children loop are; see the java package's gradleSettings)", t.text, t.text)
		}
	}
}

// gradlePath normalises a project path as include takes it: "a:b",
// ":a:b" and "a/b"-free names all become ":a:b".
func gradlePath(name string) string {
	return ":" + strings.Trim(strings.TrimSpace(name), ":")
}
