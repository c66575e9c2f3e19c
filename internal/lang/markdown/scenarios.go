package markdown

import (
	"fmt"
	"regexp"
	"strings"
)

// Scenario is one test of a spec file: a heading that carries an ID, as
// semtest writes it, and the text below it up to the next heading of the
// same or a higher level (its "## Expectation" and "## Behaviour"
// sections included):
//
//	# Project structure - id: project-structure
//	## Expectation
//	...
type Scenario struct {
	ID    string // the slug after "- id:"
	Title string // the heading's text before it
	Level int    // 1 for "#", 2 for "##", ...
	Line  int    // the heading's line in the file, 1-based
	// Start and End delimit the section in the body, in bytes: the
	// heading's line to the next heading of the same or a higher level,
	// or the end.
	Start, End int
}

// Doc is a spec's body cut into its scenarios. A body without scenario
// headings has none: the file is one test.
type Doc struct {
	Body      string
	Scenarios []Scenario
	// Issues are semtest's validation findings, with file lines: a
	// duplicate ID (only the first scenario of an ID is kept), a heading
	// at a scenario level without an ID, an ID that is not a slug.
	Issues []Issue
}

// heading is an ATX heading: up to three spaces, 1 to 6 #, then the text
// (a closing run of # dropped).
var heading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// scenarioID is semtest's "Title - id: slug" (the "id" in any case).
var scenarioID = regexp.MustCompile(`^(.*?)[ \t]+-[ \t]+(?i:id)[ \t]*:[ \t]*(\S+)$`)

// slug is what a scenario ID may hold: it becomes the tail of a testdex
// ID (FILE::ID) and a name an agent repeats back.
var slug = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Parse cuts body into scenarios. firstLine is the file line the body
// starts on (after the frontmatter), for the scenarios' and issues'
// lines. Headings inside fenced code blocks are not headings.
func Parse(body string, firstLine int) Doc {
	d := Doc{Body: body}
	type head struct {
		level, line, start int
		title, id          string
	}
	var heads []head
	fence := ""
	off := 0
	for i, ln := range strings.SplitAfter(body, "\n") {
		start := off
		off += len(ln)
		text := strings.TrimRight(ln, "\r\n")
		if f, rest := fenceOf(text); f != "" {
			switch {
			case fence == "":
				fence = f
			case f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(rest) == "":
				fence = "" // a closing fence: the same character, as long, nothing after
			}
			continue
		}
		if fence != "" {
			continue
		}
		m := heading.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		h := head{level: len(m[1]), line: firstLine + i, start: start, title: strings.TrimSpace(m[2])}
		if sm := scenarioID.FindStringSubmatch(h.title); sm != nil {
			h.title, h.id = strings.TrimSpace(sm[1]), sm[2]
		}
		heads = append(heads, h)
	}
	levels := map[int]bool{}
	for _, h := range heads {
		if h.id != "" && slug.MatchString(h.id) {
			levels[h.level] = true
		}
	}
	seen := map[string]int{} // ID -> its first line
	first := true
	for k, h := range heads {
		end := len(body)
		for _, n := range heads[k+1:] {
			if n.level <= h.level {
				end = n.start
				break
			}
		}
		switch {
		case h.id != "" && !slug.MatchString(h.id):
			d.Issues = append(d.Issues, Issue{h.line, fmt.Sprintf("scenario ID %q is not a slug (letters, digits, '.', '_' and '-'); the heading is not a scenario", h.id)})
		case h.id == "" && levels[h.level] && !first:
			d.Issues = append(d.Issues, Issue{h.line, fmt.Sprintf("heading %q has no scenario ID (write \"%s %s - id: some-slug\"); it is not judged", h.title, strings.Repeat("#", h.level), h.title)})
		case h.id == "":
		case seen[h.id] > 0:
			d.Issues = append(d.Issues, Issue{h.line, fmt.Sprintf("duplicate scenario ID %q (first at line %d); only the first is listed", h.id, seen[h.id])})
		default:
			seen[h.id] = h.line
			d.Scenarios = append(d.Scenarios, Scenario{ID: h.id, Title: h.title, Level: h.level, Line: h.line, Start: h.start, End: end})
		}
		if h.id != "" && slug.MatchString(h.id) {
			first = false
		}
	}
	return d
}

// fenceOf returns the fence a line starts with (``` or ~~~, three or
// more, indented at most three spaces) and what follows it; "" when the
// line is no fence.
func fenceOf(line string) (fence, rest string) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return "", ""
	}
	return t[:n], t[n:]
}

// Text returns the section of scenario s (its heading included).
func (d Doc) Text(s Scenario) string { return d.Body[s.Start:s.End] }

// Context returns the body as it concerns scenario s: the body without
// the other scenarios' sections (the preamble and any section that is no
// scenario kept; a scenario nested in s, or holding it, kept too). It is what a verdict on s depends on in the spec, so a
// sibling's edit does not invalidate it. With no scenarios it is the
// body.
func (d Doc) Context(s *Scenario) string {
	if s == nil {
		return d.Body
	}
	var b strings.Builder
	at := 0
	for _, o := range d.Scenarios {
		if o.ID == s.ID || o.Start < at || nested(o, *s) || nested(*s, o) {
			continue
		}
		b.WriteString(d.Body[at:o.Start])
		at = o.End
	}
	b.WriteString(d.Body[at:])
	return b.String()
}

// nested reports whether b's section lies in a's.
func nested(a, b Scenario) bool { return a.Start <= b.Start && b.End <= a.End }

// Find returns the scenario of an ID, nil when there is none.
func (d Doc) Find(id string) *Scenario {
	for i := range d.Scenarios {
		if d.Scenarios[i].ID == id {
			return &d.Scenarios[i]
		}
	}
	return nil
}

// Read splits a spec file's content into its frontmatter and its
// scenarios, with the frontmatter's issues and the scenarios' together,
// in line order.
func Read(raw []byte) (Frontmatter, Doc) {
	fm, body, probs := Split(raw)
	first := 1 + strings.Count(string(raw[:len(raw)-len(body)]), "\n")
	d := Parse(string(body), first)
	d.Issues = append(probs, d.Issues...)
	return fm, d
}
