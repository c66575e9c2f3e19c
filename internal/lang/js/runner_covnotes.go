package js

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
)

// covNotes gathers what a coverage command's recorder said of its gaps,
// for the notes the parser emits at Close (lang.ActionCovered without a
// test): the files that ran transformed without a source map, the
// recorder's own messages, and how many coverage events it wrote.
type covNotes struct {
	nomap  []string // project-relative, in the order first said
	msgs   []string
	events int
}

// add keeps a "covnote" event: a file without a source map, or a message.
func (n *covNotes) add(nomap, msg string) {
	switch {
	case nomap != "" && !slices.Contains(n.nomap, nomap):
		n.nomap = append(n.nomap, nomap)
	case msg != "" && !slices.Contains(n.msgs, msg):
		n.msgs = append(n.msgs, msg)
	}
}

// messages are the notes of a command of fw: the recorder's, and, when
// tests ran and it wrote no coverage at all, why it cannot have reached
// them.
func (n *covNotes) messages(fw testdex.Framework, ran bool) []string {
	out := slices.Clone(n.msgs)
	if len(n.nomap) > 0 {
		shown := n.nomap
		if len(shown) > 5 {
			shown = shown[:5]
		}
		list := strings.Join(shown, ", ")
		if len(n.nomap) > len(shown) {
			list += fmt.Sprintf(" and %d more", len(n.nomap)-len(shown))
		}
		out = append(out, fmt.Sprintf("%d %s ran as code transformed without a source map (%s), so what ran of %s cannot be told, and the tests that ran %s record nothing: have the transformer emit source maps (inline, or a .map file named by a sourceMappingURL comment)",
			len(n.nomap), plural(len(n.nomap), "file", "files"), list, plural(len(n.nomap), "it", "them"), plural(len(n.nomap), "it", "them")))
	}
	if ran && n.events == 0 && len(out) == 0 {
		out = append(out, unreached[fw])
	}
	return out
}

// unreached says, per framework, where testdex's recorder runs, and so
// what keeps it from the tests when it wrote nothing while tests ran.
var unreached = map[testdex.Framework]string{
	testdex.Jest:     "testdex's recorder saw no test start: it records Jest's coverage through jest-circus (Jest's default testRunner) in the processes running the test files, so a testRunner other than jest-circus (jest-jasmine2), workerThreads, or a jest-circus build it does not recognise records nothing",
	testdex.Vitest:   "testdex's setup file, which records Vitest's coverage in its workers, never ran there (browser mode runs the tests outside node; a pool or config that drops setupFiles skips it)",
	testdex.Mocha:    "testdex's recorder, in the process that runs Mocha, saw no test run there",
	testdex.NodeTest: "testdex's recorder never ran in node:test's test processes: it is preloaded (--require) into each test file's child process, so tests run in the test runner's own process (--test-isolation=none) or by a command other than node --test record nothing",
}

// recorderOf is the coverage recorder beside a command's events file
// (writeCoverage's name): it exists for a coverage run only.
func recorderOf(events string) string {
	n := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(events), "events-"), ".jsonl")
	return filepath.Join(filepath.Dir(events), "testdex-coverage-"+n+".cjs")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
