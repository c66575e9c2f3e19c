package js

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// mochaScript runs Mocha's own command line in-process after registering
// a reporter that prints the collected tree: {file, titles} per test.
const mochaScript = `
const path = require('path');
const dir = path.dirname(require.resolve('mocha/package.json', {paths: [process.cwd()]}));
const Base = require(path.join(dir, 'lib/reporters/base'));
class TestdexList extends Base {
  constructor(runner, options) {
    super(runner, options);
    runner.once('start', () => {
      const out = [];
      const walk = (s) => {
        for (const t of s.tests) out.push({file: t.file || s.file || '', titles: t.titlePath()});
        for (const c of s.suites) walk(c);
      };
      walk(runner.suite);
      process.stdout.write('\n' + JSON.stringify(out) + '\n');
    });
  }
}
require(path.join(dir, 'lib/reporters')).testdex = TestdexList;
require(path.join(dir, 'lib/cli/cli.js')).main(process.argv.slice(1));
`

type mochaLister struct{}

func (mochaLister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) {
	args := []string{"node", "-e", mochaScript, "--", "--dry-run", "--no-parallel", "--reporter", "testdex"}
	return &lang.Command{Args: append(args, files...), Dir: p.Dir}, nil
}

func (mochaLister) ParseList(p *lang.Project, stdout, stderr []byte, code int) ([]lang.Listed, error) {
	lines := strings.Split(strings.TrimSpace(string(stdout)), "\n")
	var rep []struct {
		File   string   `json:"file"`
		Titles []string `json:"titles"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rep); err != nil {
		return nil, fmt.Errorf("cannot read the mocha --dry-run listing (exit %d): %v; stderr: %s", code, err, tail(stderr))
	}
	var out []lang.Listed
	for _, t := range rep {
		out = append(out, listedTree(relTo(p.Dir, t.File), t.Titles)...)
	}
	return dedupeListed(out), nil
}

type nodeLister struct{}

func (nodeLister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) {
	args := []string{"node", "--test", "--test-only", "--test-reporter=tap"}
	return &lang.Command{Args: append(args, files...), Dir: p.Dir}, nil
}

// ParseList reads node's TAP: a test's subtests are indented four more
// spaces and come before its own ok line; a YAML block with type: 'suite'
// marks a describe. Node 20 wraps each file's tests in a test named by the
// file's path; that level is the Scope.
func (nodeLister) ParseList(p *lang.Project, stdout, stderr []byte, code int) ([]lang.Listed, error) {
	roots := parseTAP(string(stdout))
	var out []lang.Listed
	var walk func(file string, prefix []string, n *tapNode)
	walk = func(file string, prefix []string, n *tapNode) {
		titles := append(append([]string{}, prefix...), n.name)
		k := testdex.KindTest
		if n.suite {
			k = testdex.KindSuite
		}
		out = append(out, lang.Listed{File: file, Scope: file, Name: strings.Join(titles, " > "), Kind: k})
		for _, c := range n.children {
			walk(file, titles, c)
		}
	}
	for _, r := range roots {
		if strings.HasPrefix(r.name, "/") || strings.HasPrefix(r.name, p.Dir) {
			for _, c := range r.children {
				walk(relTo(p.Dir, r.name), nil, c)
			}
			continue
		}
		walk("", nil, r)
	}
	if len(out) == 0 && code != 0 {
		return nil, fmt.Errorf("node --test listed nothing (exit %d); stderr: %s", code, tail(stderr))
	}
	return out, nil
}

type tapNode struct {
	name     string
	suite    bool
	children []*tapNode
}

// parseTAP builds the test tree of node's TAP output.
func parseTAP(s string) []*tapNode {
	pending := map[int][]*tapNode{}
	var last *tapNode
	lastLevel := -1
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		level := (len(line) - len(trimmed)) / 4
		if last != nil && level == lastLevel && strings.HasPrefix(trimmed, "  type: 'suite'") {
			last.suite = true
		}
		if last != nil && level == lastLevel+0 && strings.TrimSpace(line) == "type: 'suite'" {
			last.suite = true
		}
		rest, ok := strings.CutPrefix(trimmed, "ok ")
		if !ok {
			rest, ok = strings.CutPrefix(trimmed, "not ok ")
		}
		if !ok {
			continue
		}
		_, name, found := strings.Cut(rest, " - ")
		if !found {
			continue
		}
		name = tapName(name)
		n := &tapNode{name: name, children: pending[level+1]}
		delete(pending, level+1)
		pending[level] = append(pending[level], n)
		last, lastLevel = n, level
	}
	return pending[0]
}

// tapName drops a # SKIP/# TODO directive and undoes node's escapes.
func tapName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
		case s[i] == '#' && i > 0 && s[i-1] == ' ':
			return strings.TrimSuffix(b.String(), " ")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
