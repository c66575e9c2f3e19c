package js

import (
	"regexp"
	"strconv"
	"strings"
)

// Jest 29's jest-each placeholders (src/table/array.ts).
var (
	jestPlaceholder = regexp.MustCompile(`%[sdifjoOp#]`)
	utilVerb        = regexp.MustCompile(`%[sdifjoOcC%]`)
	vitestVerb      = regexp.MustCompile(`%[sdjifoOc%]`)
	vitestVar       = regexp.MustCompile(`\$([$\w.]+)`)
)

const jestEscape = "\x00JEST_EACH_ESCAPE\x00"

// jestArrayTitles formats test.each(table)(title) rows as jest-each does:
// a table of objects with no placeholder in the title interpolates
// $variables; otherwise each row (an array is spread, anything else is one
// argument) fills the printf placeholders left to right.
// named[i] is false for a row whose title needs a value the source does
// not show; out is nil when the table's shape is not known.
func jestArrayTitles(title string, table []value) (out []string, named []bool) {
	allArrays := true
	allObjects := true
	for _, r := range table {
		if r.kind == kUnknown && !r.fn && r.shown == "" {
			return nil, nil // a row of unknown shape changes every row's format
		}
		allArrays = allArrays && r.kind == kArray
		allObjects = allObjects && r.isObject()
	}
	escaped := strings.ReplaceAll(title, "%%", jestEscape)
	if !jestPlaceholder.MatchString(escaped) && !allArrays && allObjects {
		return rowTitles(len(table), func(i int) string {
			return strings.ReplaceAll(jestInterpolate(title, table[i], i), "%%", "%")
		})
	}
	return rowTitles(len(table), func(i int) string {
		row := []value{table[i]}
		if allArrays {
			row = table[i].arr
		}
		return jestFormatRow(escaped, row, i)
	})
}

// jestFormatRow is jest-each's formatTitle on a title whose %% are escaped.
func jestFormatRow(t string, row []value, idx int) string {
	t = strings.Replace(t, "%#", strconv.Itoa(idx), 1)
	for _, v := range row {
		ph := jestPlaceholder.FindString(t)
		if ph == "" {
			break
		}
		if v.kind == kString {
			v.str = strings.ReplaceAll(v.str, "%", jestEscape)
		}
		if ph == "%p" {
			t = strings.Replace(t, "%p", pretty(v, 0), 1)
			continue
		}
		t = utilFormat1(t, v)
	}
	return strings.ReplaceAll(t, jestEscape, "%")
}

// utilFormat1 is node's util.format(t, v) with one argument.
func utilFormat1(t string, v value) string {
	used := false
	out := utilVerb.ReplaceAllStringFunc(t, func(x string) string {
		switch {
		case x == "%%":
			return "%"
		case used:
			return x
		}
		used = true
		if x == "%c" || x == "%C" {
			return ""
		}
		return formatVerb(x[1], v, false)
	})
	if !used {
		out += " " + extraArg(v)
	}
	return out
}

// extraArg is how util.format appends an argument no verb consumed.
func extraArg(v value) string {
	if v.kind == kString {
		return v.str
	}
	return nodeInspect(v, 2)
}

// jestInterpolate is jest-each's interpolateVariables: $key and
// $key.path are replaced by the row's values (primitives as String,
// others pretty-printed), then the first $# by the row index.
func jestInterpolate(title string, row value, idx int) string {
	keys, _ := dedupe(row)
	if row.kind == kArray {
		keys = nil
		for i := range row.arr {
			keys = append(keys, strconv.Itoa(i))
		}
	}
	var b strings.Builder
	for i := 0; i < len(title); {
		n := variableAt(title[i:], keys)
		if n == 0 {
			b.WriteByte(title[i])
			i++
			continue
		}
		b.WriteString(interpolated(title[i:i+n], row))
		i += n
	}
	return strings.Replace(b.String(), "$#", strconv.Itoa(idx), 1)
}

// variableAt returns the length of the variable s starts with, 0 if none:
// what jest-each's RegExp \$(key1|key2|...)[.\w]* matches there, the
// first key that fits winning. It compares bytes rather than compile the
// keys: they come from the source and may be anything, invalid UTF-8
// included, which regexp refuses.
func variableAt(s string, keys []string) int {
	if s == "" || s[0] != '$' {
		return 0
	}
	if len(keys) == 0 {
		keys = []string{""} // new RegExp('\\$()[.\\w]*')
	}
	for _, k := range keys {
		if !strings.HasPrefix(s[1:], k) {
			continue
		}
		n := 1 + len(k)
		for n < len(s) && (s[n] == '.' || s[n] == '_' || isAlnum(s[n])) {
			n++
		}
		return n
	}
	return 0
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// interpolated is the value a $key.path variable m names in row.
func interpolated(m string, row value) string {
	v := row
	for _, k := range strings.Split(m[1:], ".") {
		next, ok := v.field(k)
		if k == "" || !ok {
			break
		}
		v = next
	}
	if v.isObject() {
		return pretty(v, 0)
	}
	return must(v).jsString()
}

// templateRows turns a tagged template table (a | b, then ${} cells) into
// one object per row, keyed by the headings of its first line.
func templateRows(header string, cells []value) []value {
	line, _, _ := strings.Cut(strings.TrimSpace(header), "\n")
	headings := strings.Split(strings.Join(strings.Fields(line), ""), "|")
	if len(headings) == 0 || headings[0] == "" {
		return nil
	}
	var rows []value
	for i := 0; i+len(headings) <= len(cells); i += len(headings) {
		rows = append(rows, value{kind: kObject, keys: headings, vals: cells[i : i+len(headings)]})
	}
	return rows
}

// vitestTitles formats test.each/test.for rows as @vitest/runner's
// formatTitle does: an array row is spread, anything else is one item.
func vitestTitles(title string, table []value) ([]string, []bool) {
	return rowTitles(len(table), func(i int) string {
		// A row's cells need only be known where the title prints them.
		if table[i].kind == kUnknown {
			panic(errUnknown{})
		}
		items := []value{table[i]}
		if table[i].kind == kArray {
			items = table[i].arr
		}
		return vitestFormatRow(title, items, i)
	})
}

func vitestFormatRow(t string, items []value, idx int) string {
	if strings.Contains(t, "%#") || strings.Contains(t, "%$") {
		t = strings.ReplaceAll(t, "%%", "\x00")
		t = strings.ReplaceAll(t, "%#", strconv.Itoa(idx))
		t = strings.ReplaceAll(t, "%$", strconv.Itoa(idx+1))
		t = strings.ReplaceAll(t, "\x00", "%%")
	}
	args := items[:min(strings.Count(t, "%"), len(items))]
	n := 0
	out := vitestVerb.ReplaceAllStringFunc(t, func(x string) string {
		switch {
		case x == "%%":
			return "%"
		case n >= len(args):
			return x
		}
		v := args[n]
		n++
		if x == "%c" {
			return ""
		}
		return formatVerb(x[1], v, true)
	})
	for ; n < len(args); n++ {
		out += " " + extraArg(args[n])
	}
	isObjectItem := len(items) > 0 && items[0].kind == kObject
	return vitestVar.ReplaceAllStringFunc(out, func(m string) string {
		key := m[1:]
		_, err := strconv.Atoi(key)
		isArrayKey := err == nil && !strings.ContainsAny(key, "+-")
		if !isObjectItem && !isArrayKey {
			return m
		}
		v := value{kind: kUndefined}
		if isArrayKey {
			v = attr(value{kind: kArray, arr: items}, key, v)
		}
		if isObjectItem {
			v = attr(items[0], key, v)
		}
		return objDisplay(v)
	})
}

// attr is Vitest's objectAttr: a dotted path into a value, def when the
// path leads nowhere.
func attr(v value, path string, def value) value {
	for _, k := range strings.Split(path, ".") {
		if v.kind == kNull || v.kind == kUndefined {
			return def
		}
		next := member(v, k) // own properties, a string's or an array's length and indexes
		switch next.kind {
		case kUnknown:
			if !next.fn || next.fname == "" {
				panic(errUnknown{}) // a method, printed as a function: do not guess
			}
		case kUndefined:
			return def
		}
		v = next
	}
	if v.kind == kUndefined {
		return def
	}
	return v
}

// objDisplay is @vitest/utils' objDisplay with its default truncate, 40:
// loupe's output, or for an array or object that reaches 40 characters
// even cut short, [ Array(n) ] or { Object (a, b, ...) }.
func objDisplay(v value) string {
	s := loupe(v, 40)
	if len16(s) < 40 {
		return s
	}
	switch v.kind {
	case kArray:
		return "[ Array(" + strconv.Itoa(len(v.arr)) + ") ]"
	case kObject:
		keys, _ := ownKeys(v)
		k := strings.Join(keys, ", ")
		if len(keys) > 2 {
			k = strings.Join(keys[:2], ", ") + ", ..."
		}
		return "{ Object (" + k + ") }"
	}
	return s
}
