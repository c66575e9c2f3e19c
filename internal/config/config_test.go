package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	c, err := Parse("testdex.toml", []byte(`
[walk]
hidden = true
skip_dirs = ["build"]
bogus = 1

[go]
tags = ["integration"]
all_platforms = true

[semtest]
testMatch = ["specs/**/*.md"]
outputDir = "out"

[cargo]
features = ["unicode-case", "serde"]
all_features = true
no_default_features = true

[cobol]
x = 1
`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Walk.Hidden || !reflect.DeepEqual(c.Walk.SkipDirs, []string{"build"}) || !c.Walk.GitignoreEnabled() {
		t.Errorf("walk = %+v", c.Walk)
	}
	if g := c.Frameworks["go"]; !g.AllPlatforms || !reflect.DeepEqual(g.Tags, []string{"integration"}) {
		t.Errorf("go = %+v", g)
	}
	if g := c.Frameworks["cargo"]; !g.AllFeatures || !g.NoDefaultFeatures || !reflect.DeepEqual(g.Features, []string{"unicode-case", "serde"}) {
		t.Errorf("cargo = %+v", g)
	}
	if s := c.Frameworks["semtest"]; s.OutputDir != "out" || len(s.TestMatch) != 1 {
		t.Errorf("semtest = %+v", s)
	}
	w := strings.Join(c.Warnings, "\n")
	if !strings.Contains(w, `unknown key "walk.bogus"`) || !strings.Contains(w, "unknown table [cobol]") {
		t.Errorf("warnings = %q", c.Warnings)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"[go\n", "[go]\ntags = 3\n", "x = = 1"} {
		if _, err := Parse("t.toml", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "t.toml") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestParseAffected(t *testing.T) {
	c, err := Parse("testdex.toml", []byte(`
[affected]
"testdata/**" = ["pkg/..."]
"schema.sql" = "db/"
"a/*.json" = ["x_test.go", "web/**/*.test.ts"]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Rule{
		{Changed: "testdata/**", Tests: []string{"pkg/..."}},
		{Changed: "schema.sql", Tests: []string{"db/"}},
		{Changed: "a/*.json", Tests: []string{"x_test.go", "web/**/*.test.ts"}},
	}
	if !reflect.DeepEqual(c.Affected, want) {
		t.Errorf("affected = %+v, want the file's order %+v", c.Affected, want)
	}
	for src, msg := range map[string]string{
		`"a" = 3`:          `"a": want a list of paths or globs`,
		`"a" = [1]`:        `must be strings`,
		`"a" = []`:         `an empty list affects no test`,
		`"/etc/x" = ["a"]`: `must be relative to the root`,
		`"a" = ["../b"]`:   `leaves the root`,
		`"a[" = ["b"]`:     `is not a valid glob`,
	} {
		_, err := Parse("t.toml", []byte("[affected]\n"+src+"\n"))
		var inv *InvalidError
		if err == nil || !strings.Contains(err.Error(), msg) || !errors.As(err, &inv) {
			t.Errorf("%s: err = %v, want an InvalidError with %q", src, err, msg)
		}
	}
}

// TestSpecs reads [specs]: agent as a preset's name or an argv; anything
// else is an InvalidError naming the table; an unknown key a warning.
func TestSpecs(t *testing.T) {
	c, err := Parse("t.toml", []byte("[specs]\nagent = \"codex\"\nmodel = \"o3\"\ntimeout = \"2m\"\nskipPermissionsIfPossible = true\n"))
	if err != nil || c.Specs.Agent != "codex" || c.Specs.Model != "o3" || c.Specs.Timeout != "2m" || !c.Specs.SkipPermissionsIfPossible || len(c.Warnings) != 0 {
		t.Fatalf("%+v %v %v", c.Specs, c.Warnings, err)
	}
	c, err = Parse("t.toml", []byte("[specs]\nagent = [\"my-agent\", \"{prompt_file}\"]\npermission_flag = \"--yes\"\nagnet = 1\n"))
	if err != nil || !reflect.DeepEqual(c.Specs.AgentArgv, []string{"my-agent", "{prompt_file}"}) || c.Specs.PermissionFlag != "--yes" ||
		len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `unknown key "specs.agnet"`) {
		t.Fatalf("%+v %v %v", c.Specs, c.Warnings, err)
	}
	for _, bad := range []string{"agent = 3", "agent = [1]", "agent = []", "agent = [\"\"]"} {
		var inv *InvalidError
		if _, err := Parse("t.toml", []byte("[specs]\n"+bad+"\n")); !errors.As(err, &inv) || !strings.Contains(err.Error(), "[specs]") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
