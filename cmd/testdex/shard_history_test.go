package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShardsFromHistory: `plan --shards --history FILE` splits by the
// durations that history recorded: after one run, the slow test has a
// shard to itself, where before it the split knew no time. The root's own
// history, which every run appends to, is not read by a split (the shards
// of one machine would differ): without --history or --durations the
// split stays the timeless one.
func TestShardsFromHistory(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"go.mod": "module shh\n\ngo 1.21\n"}
	for _, p := range []string{"a", "b", "c", "d"} {
		sleep := "100"
		if p == "a" {
			sleep = "1500"
		}
		files[p+"/x_test.go"] = "package " + p + "\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestSlow(t *testing.T) { time.Sleep(" + sleep + " * time.Millisecond) }\nfunc TestFast(t *testing.T) {}\n"
	}
	writeFiles(t, root, files)
	type split struct {
		Shards []struct {
			Predicted float64  `json:"predictedSeconds"`
			Units     []string `json:"units"`
		} `json:"shards"`
	}
	hist := filepath.Join(t.TempDir(), "history.json")
	planned := func(args ...string) split {
		t.Helper()
		code, out, errs := cliIn(t, root, os.Environ(), append([]string{"plan", "--shards", "2", "--json"}, args...)...)
		var s split
		if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil || len(s.Shards) != 2 {
			t.Fatalf("plan --shards 2: exit %d, %v\n%s%s", code, err, out, errs)
		}
		return s
	}
	before := planned("--history", hist)
	if before.Shards[0].Predicted != before.Shards[1].Predicted {
		t.Errorf("without a history the shards are priced alike: %+v", before)
	}
	if code, _, errs := cliIn(t, root, os.Environ(), "run", "--history", hist); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	if implicit := planned(); implicit.Shards[0].Predicted != implicit.Shards[1].Predicted {
		t.Errorf("the root's own history was read by a split: %+v", implicit)
	}
	// The packing itself is plan's to test (whether the slow test gets a
	// shard to itself depends on the packages' recorded start-up, large
	// on a loaded machine); here the recorded times must reach it: the
	// shard holding the 1.5 s test is priced at least that.
	after := planned("--history", hist)
	for _, s := range after.Shards {
		if !slices.ContainsFunc(s.Units, func(u string) bool { return strings.HasSuffix(u, "a/x_test.go::TestSlow") }) {
			continue
		}
		if s.Predicted < 1.4 {
			t.Errorf("the shard of the 1.5 s test is priced %.2f s: %+v", s.Predicted, after)
		}
	}
	// A shard's run is kept as one: the next split of two prefers it.
	if code, _, errs := cliIn(t, root, os.Environ(), "run", "--shard", "1/2", "--history", hist); code != 0 {
		t.Fatalf("run --shard 1/2: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(hist)
	if err != nil || !strings.Contains(string(data), `"shards":2`) {
		t.Errorf("the shard's run is not kept as a shard of two (%v):\n%s", err, data)
	}
}
