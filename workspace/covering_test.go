package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
)

// TestCoveringGaps: a file of a project whose last coverage run recorded
// nothing is answered with a GapError (an ErrNoData) saying why; a file
// of another project keeps the plain answers: no data, or its tests.
func TestCoveringGaps(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	for _, f := range []string{"web/a.js", "svc/s.go"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644)
	}
	ix := &index.Index{Root: root}
	w := &Workspace{Root: root, CacheDir: cache}
	when := time.Unix(1700000000, 0)
	cix, err := coverage.Open(coverage.Path(cache, root), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gap := coverage.Gap{Project: "web", Framework: "jest", Reason: "the recorder saw no test", Tests: 2, Recorded: when}
	if err := cix.SetGaps([]coverage.Gap{gap}); err != nil {
		t.Fatal(err)
	}
	cix.Close()
	_, err = w.Covering(ix, CoveringRequest{File: "web/a.js"})
	var ge *coverage.GapError
	if !errors.As(err, &ge) || !errors.Is(err, coverage.ErrNoData) || len(ge.Gaps) != 1 ||
		!strings.Contains(err.Error(), "recorded nothing for project web (jest): the recorder saw no test") {
		t.Fatalf("covering web/a.js: %v", err)
	}
	if _, err := w.Covering(ix, CoveringRequest{File: "svc/s.go"}); !errors.Is(err, coverage.ErrNoData) || errors.As(err, &ge) {
		t.Errorf("covering svc/s.go, outside the gap: %v, want plain ErrNoData", err)
	}

	cix, err = coverage.Open(coverage.Path(cache, root), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := coverage.Record{ID: "svc/s_test.go::TestS", Recorded: when, Outcome: "pass", Granularity: "test",
		Files: []coverage.File{{Path: "svc/s.go", Hash: xxh3.Hash([]byte("x\n")), Lines: []coverage.Span{{Start: 1, End: 1}}}}}
	if err := cix.Replace([]coverage.Record{rec}); err != nil {
		t.Fatal(err)
	}
	cix.Close()
	if _, err := w.Covering(ix, CoveringRequest{File: "web/a.js"}); !errors.As(err, &ge) {
		t.Errorf("covering web/a.js with other records: %v, want the gap", err)
	}
	if ans, err := w.Covering(ix, CoveringRequest{File: "svc/s.go", Start: 1}); err != nil || len(ans.Tests) != 1 {
		t.Errorf("covering svc/s.go: %+v, %v", ans, err)
	}
}
