package js_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/js"
)

// TestAccuracy measures the static listing against the framework's own on
// real projects named in TESTDEX_JS_ACCURACY (colon-separated folders,
// each with its framework installed): how many of the tests the framework
// lists the static pass names exactly, split into plain tests and .each
// rows (records sharing a source line), how many a dynamic record covers,
// and the misses. It reports; it fails only when a project cannot be read.
//
//	TESTDEX_JS_ACCURACY=/tmp/proj go test -run TestAccuracy -v ./internal/lang/js
func TestAccuracy(t *testing.T) {
	dirs := os.Getenv("TESTDEX_JS_ACCURACY")
	if dirs == "" {
		t.Skip("set TESTDEX_JS_ACCURACY to project folders to measure")
	}
	for _, dir := range filepath.SplitList(dirs) {
		t.Run(filepath.Base(dir), func(t *testing.T) { measure(t, dir) })
	}
}

func measure(t *testing.T, dir string) {
	start := time.Now()
	ix, err := index.Build(context.Background(), index.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	staticTime := time.Since(start)
	p, _ := js.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"package.json"})
	if p == nil || len(p.Frameworks) == 0 {
		t.Fatalf("no framework detected in %s", dir)
	}
	setup := p.Frameworks[0]
	byName := map[string]testdex.Test{}
	perLine := map[string]int{}
	var files []string
	seenFile := map[string]bool{}
	for _, r := range ix.Tests {
		byName[r.Scope+"::"+r.Name] = r
		perLine[r.File+":"+itoa(r.Line)]++
		if !seenFile[r.Scope] {
			seenFile[r.Scope] = true
			files = append(files, r.Scope)
		}
	}
	start = time.Now()
	var only []string // Jest and Vitest find their files; Mocha's spec may live on a command line
	if setup.Framework == testdex.Mocha || setup.Framework == testdex.NodeTest {
		only = files
	}
	listed := runLister(t, setup.Lister, p, only)
	runtimeTime := time.Since(start)
	var plain, plainHit, rows, rowsHit, dyn, miss int
	var misses []string
	for _, l := range listed {
		if l.Kind != testdex.KindTest {
			continue
		}
		r, ok := byName[l.Scope+"::"+l.Name]
		isRow := ok && perLine[r.File+":"+itoa(r.Line)] > 1
		switch {
		case ok && isRow:
			rows++
			rowsHit++
		case ok:
			plain++
			plainHit++
		case covered(ix.Tests, l):
			dyn++
		default:
			miss++
			misses = append(misses, l.Scope+" :: "+l.Name)
		}
	}
	var staticOnly []string
	got := map[string]bool{}
	for _, l := range listed {
		got[l.Scope+"::"+l.Name] = true
	}
	for _, r := range ix.Tests {
		if !r.Dynamic && !r.Skip && r.Kind == testdex.KindTest && !got[r.Scope+"::"+r.Name] {
			staticOnly = append(staticOnly, r.Scope+" :: "+r.Name)
		}
	}
	total := plain + rows + dyn + miss
	t.Logf("%s (%s): runtime lists %d tests in %d files; static names %d exactly (%d plain, %d .each rows), %d covered by dynamic records, %d missed; %d static tests the runtime does not list",
		dir, setup.Framework, total, len(files), plainHit+rowsHit, plainHit, rowsHit, dyn, miss, len(staticOnly))
	t.Logf("static %v (walk+parse, cold, no cache) vs runtime %v", staticTime.Round(time.Millisecond), runtimeTime.Round(time.Millisecond))
	for i, m := range misses {
		if i < 30 {
			t.Logf("missed: %s", m)
		}
	}
	for i, m := range staticOnly {
		if i < 30 {
			t.Logf("static only: %s", m)
		}
	}
}

func itoa(i int) string {
	var b []byte
	if i == 0 {
		return "0"
	}
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
