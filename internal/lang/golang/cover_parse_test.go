package golang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// TestCoverParserNoProfile: a package whose named tests ran and none of
// whose processes wrote a profile says so in a note (lang.ActionCovered
// without a test); with the profile, the test's coverage and no note.
func TestCoverParserNoProfile(t *testing.T) {
	root := t.TempDir()
	p := &lang.Project{Dir: root, Name: "example.com/m"}
	sel := &lang.Selection{Tests: []*testdex.Test{{Scope: "example.com/m", Name: "TestA"}}}
	o := lang.RunOptions{Dir: t.TempDir()}
	var pkg *lang.Command
	cmds, err := coverCommands(p, sel, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if filepath.Base(c.Args[0]) == "test2json" {
			pkg = c
		}
	}
	if pkg == nil {
		t.Fatal("no package command")
	}
	stream := `{"Action":"run","Package":"example.com/m","Test":"TestA"}
{"Action":"pass","Package":"example.com/m","Test":"TestA","Elapsed":0.01}
{"Action":"pass","Package":"example.com/m","Elapsed":0.02}
`
	parse := func() (notes []string, covered []lang.RunEvent) {
		ps := runner{}.NewParser(p, pkg, func(e lang.RunEvent) {
			switch {
			case e.Action == lang.ActionCovered && e.Name == "":
				notes = append(notes, e.Message)
			case e.Action == lang.ActionCovered:
				covered = append(covered, e)
			}
		})
		ps.Write([]byte(stream))
		ps.Close(0)
		return notes, covered
	}
	notes, covered := parse()
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "no test process of example.com/m wrote its coverage profile") || len(covered) != 0 {
		t.Errorf("without a profile: notes %q, covered %+v", notes, covered)
	}
	prefix := pkg.Args[len(pkg.Args)-1]
	os.WriteFile(prefix+".0.TestA.out", []byte("mode: atomic\nexample.com/m/a.go:3.20,5.2 1 1\n"), 0o644)
	notes, covered = parse()
	if len(notes) != 0 || len(covered) != 1 || covered[0].Name != "TestA" || len(covered[0].Covered) != 1 || covered[0].Covered[0].File != filepath.Join(root, "a.go") {
		t.Errorf("with a profile: notes %q, covered %+v", notes, covered)
	}
}
