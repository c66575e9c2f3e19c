package js

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// siteFacts extracts src as a Mocha file test/a.js and returns its load
// sites, markers shown as <dir>, <cwd> and <entry>.
func siteFacts(t *testing.T, src string) []loadFact {
	t.Helper()
	res := ExtractorFor(testdex.Mocha).Extract(&lang.File{Rel: "test/a.js", Data: []byte(src), Framework: testdex.Mocha})
	var f importFacts
	if len(res.Facts) > 0 {
		if err := json.Unmarshal(res.Facts, &f); err != nil {
			t.Fatal(err)
		}
	}
	r := strings.NewReplacer(fileDirMark, "<dir>", cwdMark, "<cwd>", entryMark, "<entry>")
	for i := range f.Loads {
		for j := range f.Loads[i].Files {
			f.Loads[i].Files[j] = r.Replace(f.Loads[i].Files[j])
		}
		f.Loads[i].Dir = r.Replace(f.Loads[i].Dir)
	}
	return f.Loads
}

// TestLoadSitePaths checks the paths a load site's specifier is read to.
func TestLoadSitePaths(t *testing.T) {
	const head = "const path = require('path');\nconst { join, resolve } = require('node:path');\nconst url = require('url');\n"
	for _, c := range []struct{ expr, want string }{
		{"'./x'", "<dir>/x"},
		{"'../lib/x.js'", "<dir>/../lib/x.js"},
		{"path.join(__dirname, 'a', '..', 'b.js')", "<dir>/b.js"},
		{"join(__dirname, 'cases', 'c.js')", "<dir>/cases/c.js"},
		{"resolve('test/x.js')", "<cwd>/test/x.js"},
		{"path.resolve(__dirname, '/abs', 'x')", "why:computed"},
		{"__dirname + '/u/' + 'v.js'", "<dir>/u/v.js"},
		{"`${__dirname}/u.js`", "<dir>/u.js"},
		{"path.join(path.dirname(__filename), 'w')", "<dir>/w"},
		{"path.join(path.dirname(url.fileURLToPath(import.meta.url)), 'w')", "<dir>/w"},
		{"path.posix.join(process.cwd(), 'p')", "<cwd>/p"},
		{"require('path').join(__dirname, 'q')", "<dir>/q"},
		{"DIR + '/r.js'", "<dir>/r.js"},
		{"process.env.X", "why:computed"},
		{"path.join(__dirname, process.env.X)", "why:computed"},
		{"path.join('lib', 'x')", "none"}, // a bare name: node_modules
		{"`./fixtures/${name}.json`", "none"},
	} {
		src := head + "const DIR = path.join(__dirname);\ndescribe('d', function () {\n  require(" + c.expr + ");\n});\n"
		fs := siteFacts(t, src)
		got := "none"
		if len(fs) == 1 {
			got = strings.Join(fs[0].Files, ",")
			if fs[0].Why != "" {
				got = "why:" + fs[0].Why
			}
		} else if len(fs) > 1 {
			got = "several"
		}
		if got != c.want {
			t.Errorf("require(%s): %q, want %q", c.expr, got, c.want)
		}
	}
}

// TestLoadSitePlaces checks which calls are load sites and what a
// readdirSync loop's entries must meet.
func TestLoadSitePlaces(t *testing.T) {
	const head = "const path = require('path');\nconst fs = require('fs');\nconst dir = path.join(__dirname, 'u');\n"
	for _, c := range []struct{ body, want string }{
		{"require('./a');", "[<dir>/a]"},
		{"const h = require('./a');", ""}, // at the top level, a helper module
		{"describe('d', () => { const h = require('./a'); });", "d:[<dir>/a]"},
		{"describe('d', () => { it('t', () => require('./a')); });", ""},
		{"describe('d', () => { before(() => require('./a')); });", ""},
		{"describe('d', () => { function f() { require('./a') } });", ""},
		{"describe('d', () => { require('assert'); });", ""},
		{"describe('d', () => { ['a', 'b'].forEach(n => require('./' + n)); });", "d:[<dir>/a <dir>/b]"},
		{"describe('d', () => { ['a', 'a'].forEach(n => require('./' + n)); });", "d:repeated"},
		{"['x', 'y'].forEach(n => describe(n, () => { require('./a'); }));", "x:repeated y:repeated"},
		{"describe(name, () => { require('./a'); });", "{name}:parent"},
		{"describe('d', () => { import('./a.js'); });", "d:import"},
		{"await import('./a.js');", "[<dir>/a.js]"},
		{"import('./a.js');", "import"},
		{"describe('d', () => { for (const f of list) require(f); });", "d:loop"},
		{"describe('d', () => { fs.readdirSync(dir).forEach(f => require(path.join(dir, f))); });", "d:<dir>/u *"},
		{"describe('d', () => { fs.readdirSync(dir).forEach(f => { if (path.extname(f) === '.js') require(path.join(dir, f)); }); });",
			`d:<dir>/u {"op":"ext","arg":".js"}`},
		{"describe('d', () => { fs.readdirSync(dir).forEach(function (f) { if (f === 'index.js') return; if (!/^t-/.test(f)) { return; } path.extname(f) === '.js' && require(dir + '/' + f); }); });",
			`d:<dir>/u {"op":"and","args":[{"op":"not","args":[{"op":"eq","arg":"index.js"}]},{"op":"not","args":[{"op":"not","args":[{"op":"re","arg":"^t-"}]}]},{"op":"ext","arg":".js"}]}`},
		{"describe('d', () => { fs.readdirSync(dir).filter(f => f !== 'x.js' || f.includes('y')).forEach(f => require(path.join(dir, f))); });",
			`d:<dir>/u {"op":"or","args":[{"op":"not","args":[{"op":"eq","arg":"x.js"}]},{"op":"contains","arg":"y"}]}`},
		{"describe('d', () => { fs.readdirSync(dir).forEach(f => { if (ok(f)) require(path.join(dir, f)); }); });", "d:filter"},
		{"describe('d', () => { fs.readdirSync(dir).forEach(f => { if (f.endsWith('.js')) { x(); return; } require(path.join(dir, f)); }); });", "d:filter"},
		{"describe('d', () => { fs.readdirSync(dir, {withFileTypes: true}).forEach(f => require(path.join(dir, f.name))); });", "d:loop"},
		{"describe('d', () => { fs.readdirSync('test/u').forEach(f => require(path.resolve('test/u', f))); });", "d:<cwd>/test/u *"},
		{"describe('d', () => { fs.readdirSync(dir).forEach(f => require(path.join(dir, 'sub', f))); });", "d:computed"},
	} {
		var got []string
		for _, f := range siteFacts(t, head+c.body) {
			s := f.Parent
			if s != "" {
				s += ":"
			}
			switch {
			case f.Why != "":
				s += f.Why
			case f.Dir != "":
				filter := "*"
				if f.Filter != nil {
					b, _ := json.Marshal(f.Filter)
					filter = string(b)
				}
				s += f.Dir + " " + filter
			default:
				s += "[" + strings.Join(f.Files, " ") + "]"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.body, g, c.want)
		}
	}
}

// TestPredMatch checks the conditions on folder entries as node applies
// them.
func TestPredMatch(t *testing.T) {
	ext := &pred{Op: "ext", Arg: ".js"}
	for _, c := range []struct {
		p    *pred
		name string
		want bool
	}{
		{nil, "x", true},
		{ext, "a.js", true},
		{ext, "a.spec.js", true},
		{ext, ".js", false}, // path.extname('.js') is ''
		{ext, "a.json", false},
		{&pred{Op: "ext", Arg: ""}, "README", true},
		{&pred{Op: "suffix", Arg: ".js"}, ".js", true},
		{&pred{Op: "re", Arg: `(?i)\.JS$`}, "a.js", true},
		{&pred{Op: "re", Arg: `(`}, "a.js", false},
		{not(ext), "a.txt", true},
		{&pred{Op: "and", Args: []*pred{ext, &pred{Op: "prefix", Arg: "_"}}}, "_a.js", true},
		{&pred{Op: "or", Args: []*pred{ext, &pred{Op: "eq", Arg: "x"}}}, "y", false},
		{&pred{Op: "bogus"}, "a.js", false},
	} {
		if got := c.p.match(c.name); got != c.want {
			b, _ := json.Marshal(c.p)
			t.Errorf("%s on %q: %v, want %v", b, c.name, got, c.want)
		}
	}
}
