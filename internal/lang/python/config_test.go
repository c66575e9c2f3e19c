package python

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeFS reads from a map of absolute paths.
func fakeFS(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(p)]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("absent")
	}
}

func TestFindConfig(t *testing.T) {
	for _, tc := range []struct {
		name          string
		files         map[string]string
		root, inifile string
	}{
		{"pytest.ini wins even empty", map[string]string{"/r/p/pytest.ini": "", "/r/p/tox.ini": "[pytest]\n"}, "/r/p", "/r/p/pytest.ini"},
		{"pyproject without section loses to tox.ini above", map[string]string{"/r/p/pyproject.toml": "[project]\nname='x'\n", "/r/tox.ini": "[pytest]\naddopts = -q\n"}, "/r", "/r/tox.ini"},
		{"pyproject with ini_options", map[string]string{"/r/p/pyproject.toml": "[tool.pytest.ini_options]\ntestpaths = ['t']\n"}, "/r/p", "/r/p/pyproject.toml"},
		{"setup.cfg section", map[string]string{"/r/p/setup.cfg": "[metadata]\n[tool:pytest]\npython_files = check_*.py\n"}, "/r/p", "/r/p/setup.cfg"},
		{"tox.ini without section is no config", map[string]string{"/r/p/tox.ini": "[tox]\n", "/r/p/setup.py": ""}, "/r/p", ""},
		{"bare pyproject before setup.py", map[string]string{"/r/p/setup.py": "", "/r/pyproject.toml": "[project]\n"}, "/r", "/r/pyproject.toml"},
		{"nothing: the folder itself", map[string]string{}, "/r/p", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := findConfig("/r/p", fakeFS(tc.files))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Rootdir != tc.root || cfg.Inifile != tc.inifile {
				t.Errorf("rootdir %s inifile %s, want %s %s", cfg.Rootdir, cfg.Inifile, tc.root, tc.inifile)
			}
		})
	}
}

func TestConfigOptions(t *testing.T) {
	cfg, _ := findConfig("/p", fakeFS(map[string]string{"/p/setup.cfg": "[tool:pytest]\npython_files =\n    check_*.py\n    *_spec.py\naddopts = -k 'not slow' --ignore=build -m\"a or b\"\n"}))
	if got := cfg.Options["python_files"]; !reflect.DeepEqual(got, []string{"check_*.py", "*_spec.py"}) {
		t.Errorf("python_files = %q", got)
	}
	sel, bad := parseAddopts(cfg.Options["addopts"])
	if len(bad) > 0 || sel.keywords == nil || sel.marks == nil || !reflect.DeepEqual(sel.ignore, []string{"build"}) {
		t.Errorf("selection = %+v, problems %v", sel, bad)
	}
}

func TestExpressions(t *testing.T) {
	names := []string{"tests", "test_a.py", "TestCls", "test_slow_thing[1]", "smoke"}
	for _, tc := range []struct {
		expr string
		want bool
	}{
		{"", true}, {"slow", true}, {"SLOW", true}, {"not slow", false}, {"cls and not nope", true},
		{"(nope or smoke) and test_a", true}, {"test_slow_thing[1]", true}, {"nope or (not smoke)", false},
	} {
		e, err := parseExpr(tc.expr)
		if err != nil {
			t.Fatalf("%q: %v", tc.expr, err)
		}
		if got := e.eval(keywordMatch(names)); got != tc.want {
			t.Errorf("-k %q = %v, want %v", tc.expr, got, tc.want)
		}
	}
	if e, _ := parseExpr("smoke and not slow"); !e.eval(markMatch([]string{"smoke"})) || e.eval(markMatch([]string{"smoke", "slow"})) {
		t.Error("-m matches mark names exactly")
	}
	for _, bad := range []string{"a and", "(a", "a b", "mark(x=1)"} {
		if _, err := parseExpr(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestPytestMatch(t *testing.T) {
	sel, _ := parseAddopts([]string{"--ignore=tests/skip", "--ignore-glob=*_gen.py"})
	m := &pytestMatcher{dir: "/p", files: defaultFiles, norecurse: defaultNoRecurse, testpaths: []string{"tests", "other/test_*.py"}, sel: sel}
	for rel, want := range map[string]bool{
		"tests/test_a.py": true, "tests/a_test.py": true, "tests/helper.py": false, "test_root.py": false,
		"tests/build/test_b.py": false, "tests/.hidden/test_c.py": false, "tests/skip/test_d.py": false,
		"tests/test_x_gen.py": false, "other/test_e.py": true, "tests/pkg.egg/test_f.py": false,
	} {
		if got := m.match(rel); got != want {
			t.Errorf("match(%s) = %v, want %v", rel, got, want)
		}
	}
	if !strings.Contains(strings.Join(shlexSplit(`-k "a b" 'c d' e\ f`), "|"), "a b|c d|e f") {
		t.Error("shlexSplit")
	}
}
