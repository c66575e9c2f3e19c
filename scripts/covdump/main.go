// Command covdump prints every line a root's coverage index holds, one
// "TEST<TAB>FILE<TAB>LINE" a line, for comparing two recorders' records
// (docs/coverage.md, JavaScript's fidelity):
//
//	TESTDEX_CACHE_DIR=$A testdex run --coverage    # in the project
//	go run ./scripts/covdump $A/coverage/*.db | sort >a.tsv
//	comm -3 a.tsv b.tsv                            # what differs
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"

	"github.com/testdex/testdex/coverage"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: covdump INDEX.db")
		os.Exit(3)
	}
	if err := dump(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "covdump:", err)
		os.Exit(1)
	}
}

// dump prints the index's lines, file by file.
func dump(path string) error {
	ix, err := coverage.Open(path, coverage.Options{})
	if err != nil {
		return err
	}
	defer ix.Close()
	files, err := ix.RecordedFiles()
	if err != nil {
		return err
	}
	sort.Strings(files)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, f := range files {
		entries, err := ix.FileEntries(f)
		if err != nil {
			return err
		}
		for id, e := range entries {
			for _, s := range e.Lines {
				for l := s.Start; l <= s.End; l++ {
					fmt.Fprintf(w, "%s\t%s\t%d\n", id, f, l)
				}
			}
		}
	}
	return nil
}
