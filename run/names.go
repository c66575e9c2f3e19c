package run

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
)

// namer maps a framework's (scope, name) to the ID `testdex list` prints.
// A name the listing does not hold (a subtest whose name was dynamic) gets
// the ID of its nearest listed ancestor extended by the rest of its name,
// so it is still a handle `testdex run` accepts.
type namer struct {
	ids  map[string]string        // framework, scope, name -> ID
	recs map[string]*testdex.Test // ID -> record
	// methods maps framework, scope and a method name before its "(" to
	// the IDs of the listed methods of that name, for runners that report
	// a method without its parameter types (Surefire: "m" for
	// m(TestInfo)).
	methods map[string][]string
}

func newNamer(ix *index.Index) *namer {
	n := &namer{ids: make(map[string]string, len(ix.Tests)), recs: make(map[string]*testdex.Test, len(ix.Tests)), methods: map[string][]string{}}
	for i := range ix.Tests {
		t := &ix.Tests[i]
		n.ids[key(t.Project, t.Framework, t.Scope, t.Name)] = t.ID
		n.recs[t.ID] = t
		if base, _, ok := strings.Cut(t.Name, "("); ok && !strings.Contains(t.Name, ")[") && !t.Dynamic {
			k := key(t.Project, t.Framework, t.Scope, base)
			n.methods[k] = append(n.methods[k], t.ID)
		}
	}
	return n
}

// key identifies a test by project folder, framework, scope and name: in a
// monorepo two projects' pytest tests may share a node ID, and two crates
// their src/lib.rs scope.
func key(project string, fw testdex.Framework, scope, name string) string {
	return project + "\x00" + string(fw) + "\x00" + scope + "\x00" + name
}

// separators end a parent's name inside a child's, across frameworks.
var separators = []string{"/", " > ", "::", "["}

// id returns the ID of a reported test.
func (n *namer) id(project string, fw testdex.Framework, scope, name string) string {
	if id, ok := n.ids[key(project, fw, scope, name)]; ok {
		return id
	}
	// m() or m()[i] reported for the one listed method m(Params).
	if base, rest, ok := strings.Cut(name, "()"); ok && !strings.Contains(base, "(") {
		if ids := n.methods[key(project, fw, scope, base)]; len(ids) == 1 {
			if rest == "" {
				return ids[0]
			}
			if id, ok := n.ids[key(project, fw, scope, n.recs[ids[0]].Name+rest)]; ok {
				return id
			}
			return ids[0] + rest
		}
	}
	for cut := len(name); cut > 0; {
		best := -1
		for _, sep := range separators {
			if i := strings.LastIndex(name[:cut], sep); i > best {
				best = i
			}
		}
		if best <= 0 {
			break
		}
		if id, ok := n.ids[key(project, fw, scope, name[:best])]; ok {
			return id + name[best:]
		}
		cut = best
	}
	return scope + testdex.IDSep + name
}

// event turns a framework's event into a testdex event.
func (n *namer) event(b *index.Batch, r lang.RunEvent) testdex.Event {
	e := testdex.Event{Action: r.Action, Elapsed: r.Elapsed, Output: r.Output, Message: r.Message, Line: r.Line}
	if r.Name != "" {
		e.ID = n.id(b.Dir, b.Setup.Framework, r.Scope, r.Name)
	}
	if r.File != "" {
		e.File = strings.TrimPrefix(b.Dir+"/"+r.File, "./")
	}
	if t := n.recs[e.ID]; e.Action == testdex.ActionFail && e.File == "" && t != nil {
		e.File, e.Line = t.File, t.Line
	}
	return e
}
