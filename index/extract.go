package index

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/zeebo/xxh3"
	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
)

// fileResult is level 2's output for one (file, framework) pair.
type fileResult struct {
	cand   *candidate
	plugin *plugin
	res    lang.Result
	fresh  *cache.Entry // the entry to store, nil when unchanged or unreadable
	hit    bool
}

// level2 reads and parses every candidate, in parallel, reusing the cache.
// results[i] holds candidate i's results in plugin order.
func level2(ctx context.Context, cands []candidate, snap *cache.Snapshot, workers int, maxSize int64) ([][]fileResult, error) {
	results := make([][]fileResult, len(cands))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers) // parsing is CPU-bound
	for i := range cands {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			results[i] = extractOne(&cands[i], snap, maxSize)
			return nil
		})
	}
	return results, g.Wait()
}

// extractOne handles one candidate file. It only reads snap, which no
// goroutine mutates during level 2.
func extractOne(c *candidate, snap *cache.Snapshot, maxSize int64) []fileResult {
	out := make([]fileResult, len(c.plugins))
	for i, p := range c.plugins {
		out[i] = fileResult{cand: c, plugin: p}
	}
	info, err := os.Stat(c.abs)
	if err != nil {
		return failAll(out, testdex.SevError, "cannot read: "+err.Error())
	}
	size, mtime := info.Size(), info.ModTime().UnixNano()
	pending := out[:0:0]
	for i := range out {
		if e := snap.Trusted(cache.Key(c.rel, string(out[i].plugin.fw)), size, mtime, out[i].plugin.key); e != nil {
			out[i].res, out[i].hit = e.Result, true
		} else {
			pending = append(pending, out[i])
		}
	}
	if len(pending) == 0 {
		return out
	}
	if size > maxSize {
		return failAll(out, testdex.SevWarning, fmt.Sprintf("skipped: %d bytes is more than the %d-byte limit", size, maxSize))
	}
	data, err := os.ReadFile(c.abs)
	if err != nil {
		return failAll(out, testdex.SevError, "cannot read: "+err.Error())
	}
	sum := xxh3.Hash(data)
	f := &lang.File{Rel: c.rel, Abs: c.abs, Data: data}
	for i := range out {
		if out[i].hit {
			continue
		}
		p := out[i].plugin
		key := cache.Key(c.rel, string(p.fw))
		if e := snap.Matching(key, sum, p.key); e != nil {
			out[i].res, out[i].hit = e.Result, true
		} else {
			out[i].res = safeExtract(p.ex, f)
		}
		out[i].fresh = &cache.Entry{Size: size, MTime: mtime, Hash: sum, ExtractorKey: p.key, Result: out[i].res}
	}
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

func failAll(out []fileResult, sev testdex.Severity, msg string) []fileResult {
	for i := range out {
		out[i].res = lang.Result{Problems: []testdex.Problem{{Severity: sev, Message: msg}}}
		out[i].hit = false
	}
	return out
}
