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

// nodeReporter is a node:test reporter, given as a data: URL so nothing is
// written to disk, that prints one JSON line per finished test: its file,
// name, nesting and whether it is a describe. Children finish first.
const nodeReporter = `data:text/javascript,export default async function*(s){for await(const e of s){` +
	`if(e.type==="test:pass"||e.type==="test:fail")yield JSON.stringify({file:e.data.file,name:e.data.name,` +
	`nesting:e.data.nesting,suite:!!e.data.details&&e.data.details.type==="suite"})+"\n"}}`

func (nodeLister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) {
	args := []string{"node", "--test", "--test-name-pattern=(?!)", "--test-reporter=" + nodeReporter}
	return &lang.Command{Args: append(args, files...), Dir: p.Dir}, nil
}

// ParseList rebuilds the tree from the reporter's lines: a test's
// children are the lines one level deeper that precede it in its file.
func (nodeLister) ParseList(p *lang.Project, stdout, stderr []byte, code int) ([]lang.Listed, error) {
	type node struct {
		name     string
		suite    bool
		children []*node
	}
	pending := map[string]map[int][]*node{}
	var files []string
	for _, line := range strings.Split(string(stdout), "\n") {
		var e struct {
			File    string `json:"file"`
			Name    string `json:"name"`
			Nesting int    `json:"nesting"`
			Suite   bool   `json:"suite"`
		}
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			continue
		}
		f := relTo(p.Dir, e.File)
		if pending[f] == nil {
			pending[f] = map[int][]*node{}
			files = append(files, f)
		}
		n := &node{name: e.Name, suite: e.Suite, children: pending[f][e.Nesting+1]}
		delete(pending[f], e.Nesting+1)
		pending[f][e.Nesting] = append(pending[f][e.Nesting], n)
	}
	var out []lang.Listed
	var walk func(file string, prefix []string, n *node)
	walk = func(file string, prefix []string, n *node) {
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
	for _, f := range files {
		for _, n := range pending[f][0] {
			walk(f, nil, n)
		}
	}
	if len(out) == 0 && code != 0 {
		return nil, fmt.Errorf("node --test listed nothing (exit %d); stderr: %s", code, tail(stderr))
	}
	return out, nil
}

// Reports says which records node's runner can confirm without running
// test bodies: not the subtests a test starts with t.test.
func (nodeLister) Reports(t *testdex.Test) bool { return t.Kind != testdex.KindSubtest }
