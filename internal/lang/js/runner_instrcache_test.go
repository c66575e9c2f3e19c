package js

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneInstruments fills js-instrument/ past its bound: the files
// written first go until three quarters of it are left, with the folders
// they leave empty; a second prune within the hour does not look.
func TestPruneInstruments(t *testing.T) {
	defer func(m int64) { instrumentCacheMax = m }(instrumentCacheMax)
	instrumentCacheMax = 1000
	cache := t.TempDir()
	now := time.Now()
	files := []struct {
		path string
		age  time.Duration
		kept bool
	}{
		{"a.d/v1/old1.js", 5 * time.Hour, false},
		{"a.d/v1/old2.js", 4 * time.Hour, false},
		{"b.d/v2/mid.js", 3 * time.Hour, false},
		{"a.d/v2/new1.js", 2 * time.Hour, true},
		{"b.d/v2/new2.js", time.Hour, true},
	}
	for _, f := range files { // 300 bytes each: 1,500 in all, at most 750 once pruned
		p := filepath.Join(cache, "js-instrument", f.path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, make([]byte, 300), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, now.Add(-f.age), now.Add(-f.age))
	}
	pruneInstruments(cache)
	for _, f := range files {
		_, err := os.Stat(filepath.Join(cache, "js-instrument", f.path))
		if kept := err == nil; kept != f.kept {
			t.Errorf("%s: kept %v, want %v", f.path, kept, f.kept)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "js-instrument", "a.d", "v1")); err == nil {
		t.Errorf("the emptied folder a.d/v1 is still there")
	}
	extra := filepath.Join(cache, "js-instrument", "a.d", "v2", "more.js")
	os.WriteFile(extra, make([]byte, 2000), 0o644)
	pruneInstruments(cache)
	if _, err := os.Stat(extra); err != nil {
		t.Errorf("a prune within the hour of the last one removed %s", extra)
	}
	pruneInstruments("") // no cache folder: nothing to do
}
