package js_test

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// glubeanDir is the Glubean all-shapes fixture: a Deno project with one
// test of every export shape, and a Node project whose Glubean files sit
// beside Vitest ones.
const glubeanDir = "../../../testdata/shapes/glubean"

// TestGlubeanShapes compares the static listing of the Glubean fixture
// with testdata/shapes/glubean.expected.txt, then checks each shape's
// record by its id: kind, parent, skip, only, variant. Regenerate the
// expectations with `go test ./internal/lang/js -run TestGlubeanShapes -update`.
func TestGlubeanShapes(t *testing.T) {
	ix := shapes.CheckFixture(t, index.Options{Root: glubeanDir}, glubeanDir+".expected.txt")
	if golden.Updating() {
		return
	}
	byID := map[string]testdex.Test{}
	for _, r := range ix.Tests {
		byID[r.ID] = r
	}
	const f = "deno/tests/shapes.test.ts::"
	type want struct {
		kind       testdex.Kind
		parent     string
		skip, only bool
		variant    string
		dynamic    bool
	}
	for id, w := range map[string]want{
		f + "ping":                                     {kind: testdex.KindTest},
		f + "fetch-catalog":                            {kind: testdex.KindTest},
		f + "checkout":                                 {kind: testdex.KindTest},
		f + "checkout > add to cart":                   {kind: testdex.KindSubtest, parent: f + "checkout"},
		f + "checkout > pay":                           {kind: testdex.KindSubtest, parent: f + "checkout"},
		f + "refund":                                   {kind: testdex.KindTest},
		f + "refund > request refund":                  {kind: testdex.KindSubtest, parent: f + "refund"},
		f + "book-0451524934":                          {kind: testdex.KindTest, variant: "each"},
		f + "book-0060850523":                          {kind: testdex.KindTest, variant: "each"},
		f + "review-brave-new-world":                   {kind: testdex.KindTest, variant: "each"},
		f + "review-brave-new-world > read it back":    {kind: testdex.KindSubtest, parent: f + "review-brave-new-world", variant: "each"},
		f + "search-by-author":                         {kind: testdex.KindTest, variant: "pick"},
		f + "search-by-title":                          {kind: testdex.KindTest, variant: "pick"},
		f + "focused-login":                            {kind: testdex.KindTest, only: true},
		f + "parked-export":                            {kind: testdex.KindTest, skip: true},
		f + "focused-flow > only step":                 {kind: testdex.KindSubtest, parent: f + "focused-flow", only: true},
		f + "parked-flow > never runs":                 {kind: testdex.KindSubtest, parent: f + "parked-flow", skip: true},
		f + "health-live":                              {kind: testdex.KindTest},
		f + "health-ready":                             {kind: testdex.KindTest},
		f + "landing-page":                             {kind: testdex.KindTest},
		f + "region-{region}":                          {kind: testdex.KindTest, dynamic: true},
		"node/tests/users.test.ts::list-users":         {kind: testdex.KindTest},
		"node/tests/users.test.ts::create-user > post": {kind: testdex.KindSubtest, parent: "node/tests/users.test.ts::create-user"},
		"node/tests/format.test.ts::format > pads":     {kind: testdex.KindTest, parent: "node/tests/format.test.ts::format", only: true},
		"node/tests/format.test.ts::format > prints 2": {kind: testdex.KindTest, parent: "node/tests/format.test.ts::format", variant: "each"},
	} {
		r, ok := byID[id]
		if !ok {
			t.Errorf("%s: not listed", id)
			continue
		}
		got := want{kind: r.Kind, parent: r.Parent, skip: r.Skip, only: r.Only, variant: r.Variant, dynamic: r.Dynamic}
		if got != w {
			t.Errorf("%s: %+v, want %+v", id, got, w)
		}
		fw := testdex.Glubean
		if strings.HasPrefix(id, "node/tests/format") {
			fw = testdex.Vitest
		}
		if r.Framework != fw {
			t.Errorf("%s: framework %s, want %s", id, r.Framework, fw)
		}
	}
	if r := byID[f+"fetch-catalog"]; strings.Join(r.Tags, ",") != "smoke,catalog" {
		t.Errorf("fetch-catalog tags %v, want smoke, catalog", r.Tags)
	}
	if r := byID[f+"review-nineteen-eighty-four"]; strings.Join(r.Tags, ",") != "isbn:0451524934" {
		t.Errorf("review row tags %v, want the tagFields tag isbn:0451524934", r.Tags)
	}
	if r := byID[f+"search-by-title"]; r.Run != "search-$_pick --pick by-title" {
		t.Errorf("pick example's selector %q", r.Run)
	}
}
