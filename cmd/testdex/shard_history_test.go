package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestShardsFromHistory: without --durations, `plan --shards` reads the
// durations the root's history recorded: after one run, the slow test
// has a shard to itself, where before it the split knew no time.
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
	planned := func() split {
		t.Helper()
		code, out, errs := cliIn(t, root, os.Environ(), "plan", "--shards", "2", "--json")
		var s split
		if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil || len(s.Shards) != 2 {
			t.Fatalf("plan --shards 2: exit %d, %v\n%s%s", code, err, out, errs)
		}
		return s
	}
	before := planned()
	if before.Shards[0].Predicted != before.Shards[1].Predicted {
		t.Errorf("without a history the shards are priced alike: %+v", before)
	}
	if code, _, errs := cliIn(t, root, os.Environ(), "run"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	after := planned()
	alone := false
	for _, s := range after.Shards {
		alone = alone || len(s.Units) == 1 && strings.HasSuffix(s.Units[0], "a/x_test.go::TestSlow") && s.Predicted >= 1.4
	}
	if !alone {
		t.Errorf("after a run, the 1.5 s test should have a shard to itself: %+v", after)
	}
}
