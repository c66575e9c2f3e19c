package python

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// pytestConfig is pytest's configuration as it applies to one project.
type pytestConfig struct {
	// Rootdir is the absolute folder node IDs are relative to.
	Rootdir string
	// Inifile is the absolute configuration file, "" when none was found.
	Inifile string
	// Section is true when Inifile holds pytest configuration (not a bare
	// pyproject.toml).
	Section bool
	// Options are the ini options testdex honours, as pytest reads them
	// (args-type values already split).
	Options map[string][]string
}

// configCandidates are the files pytest reads configuration from, in its
// order of precedence within one folder.
var configCandidates = []string{"pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"}

// findConfig determines pytest's rootdir and configuration file for a run
// started in dir with no arguments, as pytest's determine_setup does:
//  1. the first folder from dir upward holding pytest.toml, .pytest.toml,
//     pytest.ini or .pytest.ini (even empty), a pyproject.toml with
//     [tool.pytest.ini_options] or [tool.pytest], a tox.ini with [pytest]
//     or a setup.cfg with [tool:pytest], in that order within a folder;
//  2. otherwise the nearest pyproject.toml upward, even without pytest
//     configuration (pytest 8.1 and later);
//  3. otherwise the first folder upward holding setup.py;
//  4. otherwise dir itself.
//
// read reads a file and fails when it is absent.
func findConfig(dir string, read func(string) ([]byte, error)) (*pytestConfig, error) {
	var firstPyproject string
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range configCandidates {
			p := filepath.Join(d, name)
			data, err := read(p)
			if err != nil {
				continue
			}
			opts, ok, perr := parseConfig(name, data)
			if perr != nil {
				return &pytestConfig{Rootdir: d, Inifile: p, Options: map[string][]string{}}, fmt.Errorf("%s: %w", p, perr)
			}
			if ok {
				return &pytestConfig{Rootdir: d, Inifile: p, Section: true, Options: opts}, nil
			}
			if name == "pyproject.toml" && firstPyproject == "" {
				firstPyproject = p
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if firstPyproject != "" {
		return &pytestConfig{Rootdir: filepath.Dir(firstPyproject), Inifile: firstPyproject, Options: map[string][]string{}}, nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := read(filepath.Join(d, "setup.py")); err == nil {
			return &pytestConfig{Rootdir: d, Options: map[string][]string{}}, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return &pytestConfig{Rootdir: dir, Options: map[string][]string{}}, nil
}

// argsOptions are the ini options of type "args" (shell-split strings);
// the others testdex reads are plain strings.
var argsOptions = map[string]bool{"python_files": true, "python_classes": true, "python_functions": true,
	"testpaths": true, "norecursedirs": true, "addopts": true}

// parseConfig reads one configuration file. ok reports whether it holds
// pytest configuration (pytest.ini always does).
func parseConfig(name string, data []byte) (map[string][]string, bool, error) {
	switch name {
	case "pytest.toml", ".pytest.toml":
		opts, ok, err := parseTOMLTable(data, false)
		return opts, ok || err == nil, err
	case "pyproject.toml":
		return parsePyproject(data)
	case "pytest.ini", ".pytest.ini":
		sec, _ := parseINI(data)["pytest"]
		return splitOptions(sec), true, nil
	case "tox.ini":
		sec, ok := parseINI(data)["pytest"]
		return splitOptions(sec), ok, nil
	default:
		sec, ok := parseINI(data)["tool:pytest"]
		return splitOptions(sec), ok, nil
	}
}

func splitOptions(sec map[string]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range sec {
		if argsOptions[k] {
			out[k] = shlexSplit(v)
		} else {
			out[k] = []string{v}
		}
	}
	return out
}

// parsePyproject reads [tool.pytest.ini_options] (strings are split as
// ini values are) or pytest 9's native [tool.pytest] table.
func parsePyproject(data []byte) (map[string][]string, bool, error) {
	return parseTOMLTable(data, true)
}

// parseTOMLTable reads the pytest table of a TOML file: [tool.pytest] in
// pyproject.toml, [pytest] in pytest.toml.
func parseTOMLTable(data []byte, pyproject bool) (map[string][]string, bool, error) {
	var top struct {
		Pytest map[string]any `toml:"pytest"`
	}
	var doc struct {
		Tool struct {
			Pytest map[string]any `toml:"pytest"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, false, fmt.Errorf("cannot parse TOML: %v (fix the file; pytest would refuse it too)", err)
	}
	table := doc.Tool.Pytest
	if !pyproject {
		if _, err := toml.Decode(string(data), &top); err != nil {
			return nil, false, fmt.Errorf("cannot parse TOML: %v (fix the file; pytest would refuse it too)", err)
		}
		table = top.Pytest
	}
	if table == nil {
		return map[string][]string{}, false, nil
	}
	if ini, ok := table["ini_options"].(map[string]any); ok {
		table = ini
	}
	out := map[string][]string{}
	for k, v := range table {
		switch v := v.(type) {
		case string:
			if argsOptions[k] {
				out[k] = shlexSplit(v)
			} else {
				out[k] = []string{v}
			}
		case []any:
			for _, e := range v {
				out[k] = append(out[k], fmt.Sprint(e))
			}
		default:
			out[k] = []string{fmt.Sprint(v)}
		}
	}
	return out, true, nil
}

// parseINI reads an ini file as iniconfig does: [section] headers,
// "key = value" or "key: value", indented continuation lines, # and ;
// comments. Later keys win.
func parseINI(data []byte) map[string]map[string]string {
	out := map[string]map[string]string{}
	var sec map[string]string
	var key string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		raw := sc.Text()
		t := strings.TrimSpace(raw)
		switch {
		case t == "" || t[0] == '#' || t[0] == ';':
			continue
		case raw[0] == ' ' || raw[0] == '\t':
			if sec != nil && key != "" {
				sec[key] = strings.TrimSpace(sec[key] + "\n" + t)
			}
			continue
		case t[0] == '[' && strings.HasSuffix(t, "]"):
			name := strings.TrimSpace(t[1 : len(t)-1])
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			sec, key = out[name], ""
			continue
		}
		if sec == nil {
			continue
		}
		i := strings.IndexAny(t, "=:")
		if i < 0 {
			key = ""
			continue
		}
		key = strings.TrimSpace(t[:i])
		sec[key] = strings.TrimSpace(t[i+1:])
	}
	return out
}

// shlexSplit is Python's shlex.split in POSIX mode, without comments.
func shlexSplit(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
