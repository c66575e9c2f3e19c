package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// surefireCase is the content of a <testcase> in Maven Surefire's
// surefire-test-report.xsd (version 3.0.2, in maven-surefire-plugin's
// site resources): its children in the order of the schema's sequence,
// with how many of each may stand there, and its attributes. properties
// is not in that schema: it is this report's one addition (the inner
// counts), allowed first.
var surefireCase = struct {
	children []struct {
		name string
		many bool
	}
	attrs, required []string
}{
	children: []struct {
		name string
		many bool
	}{
		{"properties", false}, {"failure", true}, {"rerunFailure", true}, {"flakyFailure", true},
		{"skipped", false}, {"error", false}, {"rerunError", true}, {"flakyError", true},
		{"system-out", false}, {"system-err", false},
	},
	attrs:    []string{"name", "classname", "group", "time", "timestamp"},
	required: []string{"name", "time"},
}

// surefireRerun is the content of <rerunFailure>, <flakyFailure>,
// <rerunError> and <flakyError> in that schema: a required stackTrace,
// then system-out and system-err, each at most once; attributes message
// and type.
var surefireRerun = struct{ children, attrs []string }{
	children: []string{"stackTrace", "system-out", "system-err"},
	attrs:    []string{"message", "type"},
}

// surefireSuite is a <testsuite>'s attributes in that schema.
var surefireSuite = struct{ attrs, required []string }{
	attrs:    []string{"version", "name", "time", "timestamp", "tests", "errors", "skipped", "failures", "flakes", "group"},
	required: []string{"name", "tests", "errors", "skipped", "failures"},
}

// xmlNode is an element read back with its attributes and children.
type xmlNode struct {
	name     string
	attrs    map[string]string
	children []*xmlNode
}

// readTree reads an XML document into a tree of xmlNodes.
func readTree(t *testing.T, data []byte) *xmlNode {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	root := &xmlNode{}
	stack := []*xmlNode{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return root
}

// checkAttrs says what of n's attributes the schema does not allow or
// requires and lacks.
func checkAttrs(n *xmlNode, allowed, required []string) []string {
	var bad []string
	for a := range n.attrs {
		if !slices.Contains(allowed, a) {
			bad = append(bad, fmt.Sprintf("<%s> has attribute %s", n.name, a))
		}
	}
	for _, a := range required {
		if _, ok := n.attrs[a]; !ok {
			bad = append(bad, fmt.Sprintf("<%s> lacks attribute %s", n.name, a))
		}
	}
	return bad
}

// checkCase says where a <testcase> departs from the schema's sequence.
func checkCase(c *xmlNode) []string {
	bad := checkAttrs(c, surefireCase.attrs, surefireCase.required)
	i := 0 // the position in the sequence the next child may take
	for k, ch := range c.children {
		for i < len(surefireCase.children) && surefireCase.children[i].name != ch.name {
			i++
		}
		if i == len(surefireCase.children) {
			return append(bad, fmt.Sprintf("testcase %q: <%s> is out of the schema's order or not in it", c.attrs["name"], ch.name))
		}
		if !surefireCase.children[i].many && k > 0 && c.children[k-1].name == ch.name {
			bad = append(bad, fmt.Sprintf("testcase %q: more than one <%s>", c.attrs["name"], ch.name))
		}
		if strings.HasPrefix(ch.name, "rerun") || strings.HasPrefix(ch.name, "flaky") {
			bad = append(bad, checkRerun(ch)...)
		}
	}
	return bad
}

// checkRerun says where a rerun element departs from the schema.
func checkRerun(r *xmlNode) []string {
	bad := checkAttrs(r, surefireRerun.attrs, nil)
	if len(r.children) == 0 || r.children[0].name != "stackTrace" {
		bad = append(bad, fmt.Sprintf("<%s> does not start with its required <stackTrace>", r.name))
	}
	i := 0
	for _, ch := range r.children {
		for i < len(surefireRerun.children) && surefireRerun.children[i] != ch.name {
			i++
		}
		if i == len(surefireRerun.children) {
			return append(bad, fmt.Sprintf("<%s>: <%s> is out of order, repeated or not in the schema", r.name, ch.name))
		}
		i++
	}
	return bad
}

// TestJUnitSurefireSchema checks the report of a run with retries
// against the testcase content of Surefire's schema: a test that failed,
// failed again and passed has two <flakyFailure>s (each with its
// <stackTrace>) and no <failure>, and its suite counts it in flakes; one
// that failed every time has its <failure> then one <rerunFailure> per
// rerun; a test with output and an empty message keeps the order and the
// required elements.
func TestJUnitSurefireSchema(t *testing.T) {
	ev := func(a testdex.Action, id string, attempt int, msg string) testdex.Event {
		return testdex.Event{Action: a, ID: id, Attempt: attempt, Message: msg, Batch: "b", Framework: "go", Kind: testdex.KindTest}
	}
	var j JUnit
	for _, e := range []testdex.Event{
		{Action: testdex.ActionStart, Batch: "b", Framework: "go"},
		ev(testdex.ActionPass, "a_test.go::TestSteady", 0, ""),
		{Action: testdex.ActionOutput, ID: "a_test.go::TestFlaky", Batch: "b", Output: "said something\n"},
		ev(testdex.ActionFail, "a_test.go::TestFlaky", 0, "first"),
		ev(testdex.ActionFail, "a_test.go::TestAlways", 0, ""),
		ev(testdex.ActionFail, "a_test.go::TestFlaky", 1, "second"),
		ev(testdex.ActionFail, "a_test.go::TestAlways", 1, ""),
		ev(testdex.ActionPass, "a_test.go::TestFlaky", 2, ""),
		ev(testdex.ActionFlaky, "a_test.go::TestFlaky", 2, "first"),
		ev(testdex.ActionFail, "a_test.go::TestAlways", 2, "again"),
		{Action: testdex.ActionFail, Batch: "b", Framework: "go"},
	} {
		if err := j.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if _, err := j.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	root := readTree(t, b.Bytes())
	suites := root.children[0].children
	if len(suites) != 1 {
		t.Fatalf("%d testsuites, want 1:\n%s", len(suites), b.Bytes())
	}
	s := suites[0]
	bad := checkAttrs(s, surefireSuite.attrs, surefireSuite.required)
	if s.attrs["flakes"] != "1" || s.attrs["failures"] != "1" || s.attrs["tests"] != "3" {
		bad = append(bad, fmt.Sprintf("testsuite counts %v, want tests 3, failures 1, flakes 1", s.attrs))
	}
	shapes := map[string]string{}
	for _, c := range s.children {
		if c.name != "testcase" {
			continue
		}
		bad = append(bad, checkCase(c)...)
		var names []string
		for _, ch := range c.children {
			names = append(names, ch.name)
		}
		shapes[c.attrs["name"]] = strings.Join(names, " ")
	}
	want := map[string]string{
		"TestSteady": "",
		"TestFlaky":  "flakyFailure flakyFailure",
		"TestAlways": "failure rerunFailure rerunFailure",
	}
	for name, w := range want {
		if shapes[name] != w {
			bad = append(bad, fmt.Sprintf("testcase %s holds [%s], want [%s]", name, shapes[name], w))
		}
	}
	for _, msg := range bad {
		t.Error(msg)
	}
	if len(bad) > 0 {
		t.Logf("the report:\n%s", b.Bytes())
	}
}
