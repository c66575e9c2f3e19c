package fidelity

import (
	"bytes"
	"os"
	"path/filepath"
)

// A Project is one real, published project the suite runs both ways.
// Keep Name and Version in step with scripts/setup/fidelity.sh, which
// installs it into Dir()/Name.
type Project struct {
	Name      string // folder under Dir()
	Version   string // the exact published version
	Framework string
	Tool      string // the command it needs on PATH
	// Native runs the project's tests with the runner's own report, in the
	// project folder (or a broken copy of it), and parses that report.
	Native func(c *Cmd) (Results, error)
	// Breakage, when set, is the copy with assertions broken on purpose.
	Breakage *Breakage
}

// Dir is the folder the projects are installed in:
// $TESTDEX_FIDELITY_DIR, or ~/.cache/testdex-fidelity.
func Dir() string {
	if d := os.Getenv("TESTDEX_FIDELITY_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "testdex-fidelity")
}

// Installed reports whether setup finished installing p under dir: its
// stamp .ok-NAME lies beside the project's folder.
func (p Project) Installed(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".ok-"+p.Name))
	return err == nil && isDir(filepath.Join(dir, p.Name))
}

// Projects are the suite's projects, one per framework. Why each was
// chosen, and what it takes to run, is in README.md beside this file.
var Projects = []Project{
	{
		Name: "go-cmp", Version: "github.com/google/go-cmp v0.7.0", Framework: "go", Tool: "go",
		Native: func(c *Cmd) (Results, error) {
			out, err := c.Output("go", "test", "-json", "-count=1", "./...")
			if err != nil {
				return nil, err
			}
			return ParseGoJSON(bytes.NewReader(out))
		},
	},
	{
		Name: "go-toml", Version: "github.com/pelletier/go-toml/v2 v2.4.3", Framework: "go", Tool: "go",
		Native: func(c *Cmd) (Results, error) {
			out, err := c.Output("go", "test", "-json", "-count=1", "./...")
			if err != nil {
				return nil, err
			}
			return ParseGoJSON(bytes.NewReader(out))
		},
		Breakage: gotomlBreakage,
	},
	{
		Name: "itsdangerous", Version: "itsdangerous 2.2.0 (PyPI sdist)", Framework: "pytest", Tool: "python3",
		Native: func(c *Cmd) (Results, error) {
			c.Env = append(c.Env, "PYTHONPATH="+c.Recorders)
			if _, err := c.Output(c.Venv("pytest"), "-p", "fidelity_pytest"); err != nil {
				return nil, err
			}
			return c.Records("pytest")
		},
		Breakage: itsdangerousBreakage,
	},
	{
		Name: "pyasn1", Version: "pyasn1 0.6.1 (PyPI sdist)", Framework: "unittest", Tool: "python3",
		Native: func(c *Cmd) (Results, error) {
			if _, err := c.Output(c.Venv("python"), filepath.Join(c.Recorders, "fidelity_unittest.py"), c.Out); err != nil {
				return nil, err
			}
			return c.Records("unittest")
		},
		Breakage: pyasn1Breakage,
	},
	{
		Name: "jest-mock-extended", Version: "jest-mock-extended 4.0.1 (npm), jest 30", Framework: "jest", Tool: "node",
		Native: func(c *Cmd) (Results, error) {
			if _, err := c.Output(c.Bin("jest"), "--json", "--outputFile="+c.Out); err != nil {
				return nil, err
			}
			data, err := os.ReadFile(c.Out)
			if err != nil {
				return nil, err
			}
			return ParseJestJSON("jest", c.Dir, data)
		},
		Breakage: jestBreakage,
	},
	{
		Name: "zod", Version: "zod 4.6.7 (npm; 3 of its 196 test files), vitest 3.2.4", Framework: "vitest", Tool: "node",
		Native: func(c *Cmd) (Results, error) {
			if _, err := c.Output(c.Bin("vitest"), "run", "--reporter=json", "--outputFile="+c.Out); err != nil {
				return nil, err
			}
			data, err := os.ReadFile(c.Out)
			if err != nil {
				return nil, err
			}
			return ParseJestJSON("vitest", c.Dir, data)
		},
		Breakage: vitestBreakage,
	},
	{
		Name: "json-schema-traverse", Version: "json-schema-traverse 1.0.0 (npm), mocha 8", Framework: "mocha", Tool: "node",
		Native: func(c *Cmd) (Results, error) {
			// The project's own command is `mocha spec -R spec`.
			rec := filepath.Join(c.Recorders, "fidelity_mocha.js")
			if _, err := c.Output(c.Bin("mocha"), "spec", "--reporter", rec); err != nil {
				return nil, err
			}
			return c.Records("mocha")
		},
		Breakage: mochaBreakage,
	},
	{
		Name: "light-my-request", Version: "light-my-request 6.8.1 (npm)", Framework: "node", Tool: "node",
		Native: func(c *Cmd) (Results, error) {
			// The project's own command is `c8 --100 node --test`.
			rec := filepath.Join(c.Recorders, "fidelity_node.mjs")
			if _, err := c.Output("node", "--test", "--test-reporter="+rec); err != nil {
				return nil, err
			}
			return c.Records("node")
		},
		Breakage: nodeBreakage,
	},
	{
		Name: "semver", Version: "semver 1.0.28 (crates.io)", Framework: "cargo", Tool: "cargo",
		Native: func(c *Cmd) (Results, error) {
			out, err := c.Combined("cargo", "test", "--locked")
			if err != nil {
				return nil, err
			}
			return ParseLibtest(bytes.NewReader(out))
		},
	},
	{
		Name: "commons-cli", Version: "commons-cli 1.9.0 (Maven Central pom, sources and test-sources jars), JUnit 5", Framework: "junit", Tool: "mvn",
		Native: func(c *Cmd) (Results, error) {
			reports := filepath.Join(c.Dir, "target", "surefire-reports")
			if err := os.RemoveAll(reports); err != nil {
				return nil, err
			}
			if _, err := c.Output("mvn", "-B", "-q", "-Dstyle.color=never", "test"); err != nil {
				return nil, err
			}
			return ParseSurefire(reports)
		},
	},
}
