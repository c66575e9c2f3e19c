package js

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// mochaValueFlags are the Mocha options that take a separate value.
var mochaValueFlags = map[string]bool{"--require": true, "-r": true, "--reporter": true, "-R": true, "--timeout": true, "-t": true,
	"--ui": true, "-u": true, "--config": true, "--extension": true, "--ignore": true, "--exclude": true, "--spec": true, "--grep": true,
	"-g": true, "--fgrep": true, "-f": true, "--file": true, "--slow": true, "-s": true, "--retries": true, "--reporter-option": true,
	"--reporter-options": true, "-O": true, "--jobs": true, "-j": true, "--node-option": true, "-n": true, "--package": true}

// mocha builds Mocha's Setup: spec (positional arguments of scripts.test,
// else .mocharc.* or package.json's "mocha" spec, else ./test), with
// recursive, extension and ignore.
func (pr *project) mocha() *lang.Setup {
	cfg, src := pr.config(mochaConfigs, pr.pkg.Mocha)
	spec := pr.list(cfg, src, "spec", mochaSpec)
	exts := pr.list(cfg, src, "extension", mochaExtensions)
	ignore := pr.list(cfg, src, "ignore", nil)
	rec, _ := cfg.field("recursive")
	recursive := rec.kind == kBool && rec.b
	args, flags := cliArgs(pr.script(scriptMocha), []string{"mocha", "_mocha"}, mochaValueFlags)
	if len(args) > 0 {
		spec = args
	}
	recursive = recursive || flags["--recursive"] != nil
	if e := flags["--extension"]; e != nil {
		exts = append(exts, e...)
	}
	ignore = append(ignore, flags["--ignore"]...)
	ignore = append(ignore, flags["--exclude"]...)
	spec = append(spec, flags["--spec"]...)
	var globs []string
	for _, s := range spec {
		globs = append(globs, specGlob(s, exts, recursive))
	}
	o := pr.env.Options[testdex.Mocha]
	if o.TestMatch != nil {
		globs = o.TestMatch
	}
	if o.TestPathIgnorePatterns != nil {
		ignore = o.TestPathIgnorePatterns
	}
	inc, bad := compileGlobs(globs)
	pr.badPatterns(src, "spec", bad)
	exc, bad := compileGlobs(ignore)
	pr.badPatterns(src, "ignore", bad)
	return &lang.Setup{Patterns: globs, Match: func(rel string) bool {
		return inc.match(rel) && !exc.match(rel) && !underNodeModules(rel)
	}}
}

// specGlob turns a Mocha spec entry into a glob: globs stay, a file name
// stays, a folder becomes its files of the extensions (recursively with
// --recursive).
func specGlob(s string, exts []string, recursive bool) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
	if strings.ContainsAny(s, "*?[{") || path.Ext(s) != "" {
		return s
	}
	clean := make([]string, len(exts))
	for i, e := range exts {
		clean[i] = strings.TrimPrefix(e, ".")
	}
	glob := "/*.{" + strings.Join(clean, ",") + "}"
	if len(clean) == 1 {
		glob = "/*." + clean[0]
	}
	if recursive {
		return s + "/**" + glob
	}
	return s + glob
}

// cliArgs reads the command line of a package.json script that runs one
// of cmds: positional arguments, and flag values by flag name (boolean
// flags map to an empty list). Only the first such command is read.
func cliArgs(script string, cmds []string, valueFlags map[string]bool) ([]string, map[string][]string) {
	flags := map[string][]string{}
	var args []string
	toks := shellFields(script)
	start := -1
	for i, t := range toks {
		if contains(cmds, path.Base(t)) {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return nil, flags
	}
	for i := start; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t == "&&" || t == "||" || t == ";" || t == "|":
			return args, flags
		case strings.HasPrefix(t, "-"):
			name, val, eq := strings.Cut(t, "=")
			switch {
			case eq:
				flags[name] = append(flags[name], val)
			case valueFlags[name] && i+1 < len(toks):
				flags[name] = append(flags[name], toks[i+1])
				i++
			default:
				flags[name] = append(flags[name], []string{}...)
				if flags[name] == nil {
					flags[name] = []string{}
				}
			}
		default:
			args = append(args, t)
		}
	}
	return args, flags
}

// shellFields splits a script like a POSIX shell would for simple
// commands: whitespace, single and double quotes; ; & | are separate.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	flush := func() {
		if in {
			out = append(out, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == ';' || c == '&' || c == '|':
			flush()
			op := string(c)
			if i+1 < len(s) && s[i+1] == c {
				op += string(c)
				i++
			}
			out = append(out, op)
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	flush()
	return out
}
