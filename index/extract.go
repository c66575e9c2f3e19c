package index

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"

	"github.com/zeebo/xxh3"
	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
)

// fileResult is level 2's output for one candidate.
type fileResult struct {
	cand  *candidate
	res   lang.Result
	fresh *cache.Entry // the entry to store, nil when unreadable
	hit   bool         // answered from the cache
	hash  uint64       // content hash, when known
}

// cacheKeys returns a candidate's cache key and extractor key: the
// extractor's version and options plus the project's settings.
func cacheKeys(c *candidate) (string, string) {
	s := c.setup
	return cache.Key(c.rel, string(s.Framework)), s.Extractor.CacheKey() + "|" + s.Settings.Key()
}

// level2 reads and parses every candidate, in parallel, reusing the cache.
// checked is the build's start (unix nanoseconds), recorded on every entry
// whose content this build reads.
func level2(ctx context.Context, cands []candidate, snap *cache.Snapshot, workers int, maxSize, checked int64) ([]fileResult, error) {
	results := make([]fileResult, len(cands))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers) // parsing is CPU-bound
	for i := range cands {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			results[i] = extractOne(&cands[i], snap, maxSize, checked)
			return nil
		})
	}
	return results, g.Wait()
}

// extractOne handles one candidate file. It only reads snap, which no
// goroutine mutates during level 2. The result's tests are its own copy:
// the Linkers edit them in place, and the cache keeps the originals.
func extractOne(c *candidate, snap *cache.Snapshot, maxSize, checked int64) fileResult {
	out := fileResult{cand: c}
	key, exKey := cacheKeys(c)
	info, err := os.Stat(c.abs)
	if err != nil {
		return fail(out, testdex.SevError, "cannot read: "+err.Error())
	}
	size, mtime := info.Size(), info.ModTime().UnixNano()
	if e := snap.Trusted(key, size, mtime, exKey); e != nil {
		out.res, out.hit, out.hash = e.Result, true, e.Hash
		out.res.Tests = slices.Clone(out.res.Tests)
		return out
	}
	if size > maxSize {
		return fail(out, testdex.SevWarning, fmt.Sprintf("skipped: %d bytes is more than the %d-byte limit", size, maxSize))
	}
	data, err := os.ReadFile(c.abs)
	if err != nil {
		return fail(out, testdex.SevError, "cannot read: "+err.Error())
	}
	sum := xxh3.Hash(data)
	out.hash = sum
	if e := snap.Matching(key, sum, exKey); e != nil {
		out.res, out.hit = e.Result, true
	} else {
		f := &lang.File{Rel: c.rel, Abs: c.abs, Data: data, Framework: c.setup.Framework, Settings: c.setup.Settings}
		out.res = safeExtract(c.setup.Extractor, f)
	}
	out.fresh = &cache.Entry{Size: size, MTime: mtime, Checked: checked, Hash: sum, ExtractorKey: exKey, Result: out.res}
	out.res.Tests = slices.Clone(out.res.Tests)
	return out
}

// safeExtract turns an extractor panic into a per-file error, so one bad
// file can never take the listing down. Extractors are fuzzed not to panic;
// this is the second line of defence.
func safeExtract(ex lang.Extractor, f *lang.File) (res lang.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError,
				Message: fmt.Sprintf("internal error in the %s extractor (please report): %v\n%s", ex.Framework(), r, debug.Stack())}}}
		}
	}()
	return ex.Extract(f)
}

func fail(out fileResult, sev testdex.Severity, msg string) fileResult {
	out.res = lang.Result{Problems: []testdex.Problem{{Severity: sev, Message: msg}}}
	return out
}
