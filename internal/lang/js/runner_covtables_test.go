package js

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestCoverageTables turns the counting recorder's function sets into
// lines through their tables, and marks unmapped (records nothing) what
// cannot be told: a table not given or unreadable, a function not in it,
// a file transformed without a source map.
func TestCoverageTables(t *testing.T) {
	var c coverage
	c.table("1.0.0", json.RawMessage(`{"f":["/p/a.js","/p/b.ts"],"k":[[0,2,1,9],[0,3,2,3,4,1,1,7],[]]}`))
	c.table("1.0.1", json.RawMessage(`{"f":[],"k":[[],[]],"u":"/p/gen.js"}`))
	c.table("1.0.2", json.RawMessage(`{"f":`))
	c.table("1.0.3", json.RawMessage(`{"f":[],"k":[[]],"u":"/p/gen3.js"}`))
	c.table("1.0.12", json.RawMessage(`{"f":[],"k":[[]],"u":"/p/gen12.js"}`))
	for _, tc := range []struct {
		name     string
		fns      map[string][]int
		cov      map[string][][2]int
		unmapped bool
		nomap    []string
	}{
		{"two functions", map[string][]int{"1.0.0": {1, 0}}, map[string][][2]int{"/p/a.js": {{1, 4}, {9, 9}}, "/p/b.ts": {{7, 7}}}, false, nil},
		{"again, from the memo", map[string][]int{"1.0.0": {1, 0}}, map[string][][2]int{"/p/a.js": {{1, 4}, {9, 9}}, "/p/b.ts": {{7, 7}}}, false, nil},
		{"a function without lines", map[string][]int{"1.0.0": {2}}, map[string][][2]int{}, false, nil},
		{"no source map", map[string][]int{"1.0.1": {0}}, map[string][][2]int{}, true, []string{"/p/gen.js"}},
		{"not given", map[string][]int{"9.9.9": {0}}, map[string][][2]int{}, true, nil},
		{"unreadable", map[string][]int{"1.0.2": {0}}, map[string][][2]int{}, true, nil},
		{"out of the table", map[string][]int{"1.0.0": {0, 3}}, map[string][][2]int{}, true, nil},
		{"notes in the tables' order", map[string][]int{"1.0.12": {0}, "1.0.1": {0}, "1.0.3": {0}}, map[string][][2]int{}, true,
			[]string{"/p/gen.js", "/p/gen3.js", "/p/gen12.js"}},
	} {
		e := jsEvent{A: "cov", Fns: tc.fns}
		var said []string
		c.resolve(&e, func(f string) { said = append(said, f) })
		if e.Unmapped != tc.unmapped || !reflect.DeepEqual(said, tc.nomap) {
			t.Errorf("%s: unmapped %v, nomap %v; want %v, %v", tc.name, e.Unmapped, said, tc.unmapped, tc.nomap)
		}
		if !reflect.DeepEqual(e.Cov, tc.cov) {
			t.Errorf("%s: cov %v, want %v", tc.name, e.Cov, tc.cov)
		}
	}
}
