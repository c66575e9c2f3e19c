package workspace

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// ProfileEnv names the environment variable that labels a run's profile
// in the history when no --profile does.
const ProfileEnv = "TESTDEX_PROFILE"

// historyFile is the history a run of root appends to: the one named, or
// the root's under the cache folder ("" when both are off).
func historyFile(cacheDir, root, named string) string {
	switch {
	case named != "":
		return named
	case cacheDir != "":
		return history.File(cacheDir, root)
	}
	return ""
}

// HistoryFile is the history of the root: the file named (--history), or
// the root's under the cache folder; "" when neither is (the cache off).
func (w *Workspace) HistoryFile(named string) string { return historyFile(w.CacheDir, w.Root, named) }

// newHistoryRun returns the recorder of a run of root into its history,
// nil when it keeps none: the run's ID, start, commit (HEAD, "" outside
// git) and profile.
func newHistoryRun(ctx context.Context, root string, req run.Request) *history.Recorder {
	if historyFile(req.CacheDir, root, req.History) == "" {
		return nil
	}
	now := time.Now
	if req.Options.Now != nil {
		now = req.Options.Now
	}
	start := now()
	commit, _ := changes.Head(ctx, changes.GitOptions{Root: root, Env: req.Options.Env})
	return history.NewRecorder(history.Run{ID: history.NewRunID(start), Time: start.UTC(), Commit: commit,
		Profile: history.Local(req.Profile), Source: "run", Coverage: req.Options.Coverage, Shards: req.Shards})
}

// profileOf is the profile label of a request: its own, else the
// environment's TESTDEX_PROFILE.
func profileOf(req run.Request, environ []string) string {
	if req.Profile != "" {
		return req.Profile
	}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, ProfileEnv+"="); ok {
			return v
		}
	}
	return ""
}

// handlerOrNone is h, or a handler that drops the events when h is nil.
func handlerOrNone(h run.Handler) run.Handler {
	if h == nil {
		return run.HandlerFunc(func(testdex.Event) error { return nil })
	}
	return h
}

// HistoryDurations are the history's durations as a split and the
// batches' order read them (plan.FileDurations): a test's recent median
// duration (history.Stat.Recent) in the runs of the profile label that
// were split as the prediction is (shards: the N of a split into N
// shards, 0 for a run of the whole selection) when it has one there, else
// in the runs of label, else in the runs split so, else in every run; a
// setup unit's recent median setup cost in the runs of label, else in
// every run, its start and cost per file where the records know their
// files, and a batch's setup per folder where they know those (a Go
// package's unit, "BATCH:FOLDER", has no record of its own: the history
// keeps batches).
//
// The profile comes first because a machine twice as fast halves every
// test (a mix of machines misprices tests against each other); the split
// next because a test's time depends on what shares its process:
// networkx's gc-heavy tests took 1.0 s each in the whole suite's process
// and 0.2-0.3 s in an eighth of it, so a plan for eight shards priced from
// whole runs put 4.3 s of them in one shard that ran them in 1.8 s.
func HistoryDurations(h *history.History, label string, shards int) plan.Durations {
	start := plan.DefaultSetup.Seconds()
	d := historyDurations{setups: h.Setup(""), files: h.FileSetups("", start), folders: h.FolderSetups("")}
	if label != "" {
		d.tests = splitFirst(h, label, shards)
		d.labelSetups, d.labelFiles = h.Setup(label), h.FileSetups(label, start)
		d.labelFolders = h.FolderSetups(label)
	}
	d.tests = append(d.tests, splitFirst(h, "", shards)...)
	return d
}

// splitFirst are the test durations of label's runs split as shards say,
// then of all label's runs; one map where those are the same runs (every
// run split so, the common case of a history of whole runs, which every
// plain run reads for its batch order) or the first would hold none: a
// pass over the attempts is saved on that path.
func splitFirst(h *history.History, label string, shards int) []map[string]history.Stat {
	runs, split := 0, 0
	for _, r := range h.Runs {
		if label == "" || r.Profile.Label == label {
			runs++
			if r.Shards == shards {
				split++
			}
		}
	}
	if split == 0 || split == runs {
		return []map[string]history.Stat{h.Durations(label)}
	}
	return []map[string]history.Stat{h.DurationsOf(label, shards), h.Durations(label)}
}

type historyDurations struct {
	tests                 []map[string]history.Stat // in the order they are asked
	setups, labelSetups   map[string]history.Stat
	files, labelFiles     map[string]history.FileSetup
	folders, labelFolders map[string]float64
}

func (d historyDurations) SetupPerFolder(batch string) (time.Duration, bool) {
	for _, m := range []map[string]float64{d.labelFolders, d.folders} {
		if v, ok := m[batch]; ok {
			return seconds(v), true
		}
	}
	return 0, false
}

func (d historyDurations) Test(id string) (time.Duration, bool) {
	return recent(id, d.tests...)
}

func (d historyDurations) Setup(unit string) (time.Duration, bool) {
	return recent(unit, d.labelSetups, d.setups)
}

func (d historyDurations) SetupFiles(unit string) (plan.SetupCost, bool) {
	for _, m := range []map[string]history.FileSetup{d.labelFiles, d.files} {
		if f, ok := m[unit]; ok {
			return plan.SetupCost{Start: seconds(f.Start), PerFile: seconds(f.PerFile), PerTest: seconds(f.PerTest)}, true
		}
	}
	return plan.SetupCost{}, false
}

// recent is key's recent median in the first of ms where it has timed
// figures.
func recent(key string, ms ...map[string]history.Stat) (time.Duration, bool) {
	for _, m := range ms {
		if s, ok := m[key]; ok && (s.Timed > 0 || s.Outcome == "" && s.Runs > 0) {
			return seconds(s.Recent), true
		}
	}
	return 0, false
}

// seconds is s seconds as a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// coverageCost says, per batch of a coverage run whose wall time is more
// than twice its plain cost, what coverage cost: the plain cost is the
// median wall time of the batch in the history's runs without coverage
// that ran as many top-level tests, so nothing is said when the history
// has none. this is the coverage run's own records.
func coverageCost(past, this *history.History) []string {
	coverage := map[string]bool{}
	for _, r := range past.Runs {
		coverage[r.ID] = r.Coverage
	}
	var out []string
	for _, u := range this.Units {
		var walls []float64
		for _, p := range past.Units {
			if c, known := coverage[p.Run]; known && !c && p.Unit == u.Unit && p.Count == u.Count && p.Run != u.Run {
				walls = append(walls, p.Wall)
			}
		}
		if len(walls) == 0 || u.Count == 0 {
			continue
		}
		slices.Sort(walls)
		plain := walls[len(walls)/2]
		if len(walls)%2 == 0 {
			plain = (walls[len(walls)/2-1] + plain) / 2
		}
		if plain <= 0 || u.Wall <= 2*plain {
			continue
		}
		out = append(out, fmt.Sprintf("coverage cost %.1fx the run: %s took %.2fs with --coverage, %.2fs in the median of %d plain %s of the same %d top-level %s (recording what each test executes: see the docs' coverage page for this framework)",
			u.Wall/plain, u.Unit, u.Wall, plain, len(walls), plural(len(walls), "run", "runs"), u.Count, plural(u.Count, "test", "tests")))
	}
	return out
}

// plural is one or many, as n asks.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
