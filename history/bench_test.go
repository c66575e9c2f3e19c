package history

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAppend appends one run of 2,000 tests to a history that holds
// KeptRuns runs of them (100,000 attempts): what every `testdex run` of
// such a suite adds to its time.
func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "h.json")
	if err := Save(path, many(KeptRuns, 2000, "r")); err != nil {
		b.Fatal(err)
	}
	one := many(1, 2000, "s")
	one.Runs[0].Time = one.Runs[0].Time.AddDate(1, 0, 0)
	b.ResetTimer()
	for b.Loop() {
		if err := Append(path, one, nil); err != nil {
			b.Fatal(err)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size()), "file-bytes")
	}
}

// BenchmarkDurations prices the tests of a history of KeptRuns runs of
// 2,000 tests (100,000 attempts) once: what a plan, and a run's order of
// batches, read for each map of durations they ask for.
func BenchmarkDurations(b *testing.B) {
	h := many(KeptRuns, 2000, "r")
	for b.Loop() {
		if len(h.Durations("")) != 2000 {
			b.Fatal("durations")
		}
	}
}
