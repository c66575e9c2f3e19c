package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
	"github.com/testdex/testdex/workspace"
)

// newPlanCmd is `testdex plan --shards N`: the selection's plan split
// into N shards, each shard's predicted time, and max/mean.
func newPlanCmd(env *Env, g *globals) *cobra.Command {
	f := &runFlags{}
	var n int
	var asJSON bool
	var out string
	cmd := &cobra.Command{
		Use:   "plan --shards N [ID|PATH...]",
		Short: "Split the selection into N shards for N CI machines and predict each one's time",
		Long: `Plan splits what 'testdex run' of the same arguments would run into N
shards by longest-processing-time-first packing: the files of each project
and framework (a file holding a large part of the time broken into its
tests by ID), largest first, each to the shard whose time grows least,
each shard paying once the setup of each project and framework it
touches. Times come from --durations (a 'testdex run --json' stream);
a test without one costs the median of its project and framework.
The same tree, arguments and durations give the same shards on every
machine: 'testdex run --shard K/N' runs shard K without talking to the
others. It prints each shard's predicted time and max/mean; -o DIR also
writes the plan (DIR/plan.json) and each shard's (DIR/shard-K.json) for
'testdex run --plan' and 'testdex merge --plan'. A selection with fewer
units than N gives fewer shards, said on stderr; the others have nothing
to run (exit 0).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if n < 1 {
				return usageErr("--shards %d: at least 1", n)
			}
			ws, err := g.workspace(env, args)
			if err != nil {
				return err
			}
			ix, req, err := selectRun(cmd, env, g, ws, f, args, nil)
			if err != nil || ix == nil {
				return err
			}
			return planShards(env, ws, ix, req, f, n, asJSON, out)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&n, "shards", 1, "the number of shards")
	fl.BoolVar(&asJSON, "json", false, "print the shards as one JSON document")
	fl.StringVarP(&out, "output", "o", "", "also write the plan and each shard's plan into this folder (plan.json, shard-K.json)")
	fl.StringVar(&f.durations, "durations", "", "the test durations: a 'testdex run --json' stream of an earlier run")
	fl.StringVar(&f.history, "history", "", "the test durations: a history file (every machine must read the same one; 'testdex history')")
	fl.StringVar(&f.profile, "profile", "", "with --history: prefer the durations of this profile label (default: $TESTDEX_PROFILE)")
	fl.BoolVar(&f.affected, "affected", false, "split the tests the change can affect ('testdex affected')")
	fl.StringVar(&f.since, "since", "", "with --affected: the revision the work tree is compared with (default HEAD)")
	fl.BoolVar(&f.noCover, "no-coverage", false, "with --affected: ignore the recorded coverage")
	fl.BoolVar(&f.failed, "failed", false, "split the tests that failed in the last run of this root")
	roundRobinFlag(cmd, f)
	return cmd
}

// planShards splits and prints.
func planShards(env *Env, ws *workspace.Workspace, ix *index.Index, req run.Request, f *runFlags, n int, asJSON bool, out string) error {
	f.shards = n
	d, err := f.readDurations(env, ws, false)
	if err != nil {
		return err
	}
	full, err := ws.Plan(ix, req)
	if err != nil {
		return selectionError(err)
	}
	s, err := workspace.SplitPlan(full, n, d, f.roundRobin)
	if err != nil {
		return err
	}
	if s.Note != "" {
		fmt.Fprintln(env.Stderr, "testdex: "+s.Note)
	}
	if out != "" {
		if err := writeShards(env, out, full, s); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if asJSON {
		return writeShardsJSON(w, s)
	}
	for _, sh := range s.Shards {
		fmt.Fprintf(w, "shard %d/%d  predicted %-8s  %d unit(s)  %d test(s)\n", sh.Index, len(s.Shards), seconds(sh.Predicted), len(sh.Units), sh.Plan.Leaves())
	}
	fmt.Fprintf(w, "%d shard(s): max %s, mean %s, max/mean %.2f\n", len(s.Shards), seconds(s.Max()), seconds(s.Mean()), ratio(s))
	return nil
}

func seconds(d time.Duration) string { return d.Round(100 * time.Millisecond).String() }

func ratio(s *plan.Sharding) float64 {
	if s.Mean() == 0 {
		return 1
	}
	return float64(s.Max()) / float64(s.Mean())
}

// shardsDoc is `plan --shards N --json`.
type shardsDoc struct {
	Requested   int        `json:"requested"`
	Note        string     `json:"note,omitempty"`
	MaxSeconds  float64    `json:"maxSeconds"`
	MeanSeconds float64    `json:"meanSeconds"`
	Shards      []shardDoc `json:"shards"`
}

type shardDoc struct {
	Index            int        `json:"index"`
	PredictedSeconds float64    `json:"predictedSeconds"`
	Tests            int        `json:"tests"`
	Units            []string   `json:"units"`
	Batches          []batchDoc `json:"batches"`
}

// batchDoc is one batch's share of a shard's predicted time.
type batchDoc struct {
	Name         string  `json:"name"`
	SetupSeconds float64 `json:"setupSeconds"`
	TestsSeconds float64 `json:"testsSeconds"`
}

func writeShardsJSON(w io.Writer, s *plan.Sharding) error {
	doc := shardsDoc{Requested: s.Requested, Note: s.Note, MaxSeconds: s.Max().Seconds(), MeanSeconds: s.Mean().Seconds()}
	for _, sh := range s.Shards {
		sd := shardDoc{Index: sh.Index, PredictedSeconds: sh.Predicted.Seconds(), Tests: sh.Plan.Leaves(), Units: sh.Units}
		for _, b := range sh.Batches {
			sd.Batches = append(sd.Batches, batchDoc{Name: b.Name, SetupSeconds: b.Setup.Seconds(), TestsSeconds: b.Tests.Seconds()})
		}
		doc.Shards = append(doc.Shards, sd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}

// writeShards writes the full plan and each shard's into dir.
func writeShards(env *Env, dir string, full *plan.Plan, s *plan.Sharding) error {
	dir = abs(env, dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "plan.json"), full.Write); err != nil {
		return err
	}
	for _, sh := range s.Shards {
		if err := writeFileAtomic(filepath.Join(dir, fmt.Sprintf("shard-%d.json", sh.Index)), sh.Plan.Write); err != nil {
			return err
		}
	}
	return nil
}

// readDurations reads the durations a split reads, once: --durations,
// else the history file --history names (of the run's profile where it
// has a test's durations, else of every profile); nil when neither is
// given. A split must be the same on every machine, so it never reads
// the root's own history under the cache folder, which each run appends
// to: the shards of one machine would split differently (testdex merge
// then names the tests run twice or not at all). Implicit is true to read
// that history too (the order batches start in, which only times).
func (f *runFlags) readDurations(env *Env, ws *workspace.Workspace, implicit bool) (plan.Durations, error) {
	if f.durations == "" {
		if f.history == "" && !implicit {
			return nil, nil
		}
		if f.fromHistory == nil {
			h, err := ws.LoadHistory(f.historyFile(env), nil)
			if err != nil || len(h.Attempts) == 0 {
				return nil, nil
			}
			f.fromHistory = workspace.HistoryDurations(h, profileLabel(env, f.profile), f.shards)
		}
		return f.fromHistory, nil
	}
	if f.recorded != nil {
		return f.recorded, nil
	}
	file, err := os.Open(abs(env, f.durations))
	if err != nil {
		return nil, usageErr("--durations: %v", err)
	}
	defer file.Close()
	r := plan.NewRecorded()
	if err := report.ReadJSON(file, r.Event); err != nil {
		return nil, usageErr("--durations %s: %v (give a 'testdex run --json' stream)", f.durations, err)
	}
	f.recorded = r
	return r, nil
}

// runShard splits the request's plan (or the plan p read from a file)
// and runs the shard spec names; a shard with nothing to run says so and
// passes. After it, the shard's predicted and measured times.
func runShard(cmd *cobra.Command, env *Env, ws *workspace.Workspace, ix *index.Index, req run.Request, f *runFlags, spec shardSpec, p *plan.Plan) error {
	d, err := f.readDurations(env, ws, false)
	if err != nil {
		return err
	}
	if p == nil {
		if p, err = ws.Plan(ix, req); err != nil {
			return selectionError(err)
		}
	}
	s, err := workspace.SplitPlan(p, spec.N, d, f.roundRobin)
	if err != nil {
		return err
	}
	if err := touchStatus(spec.Status); err != nil {
		return err
	}
	from := ""
	if spec.From != "--shard" {
		from = " (from " + spec.From + ")"
	}
	sh := s.Shard(spec.K)
	if sh == nil {
		fmt.Fprintf(env.Stderr, "testdex: shard %d/%d%s has nothing to run: %s\n", spec.K, spec.N, from, s.Note)
		return nil
	}
	fmt.Fprintf(env.Stderr, "testdex: shard %d/%d%s: %d unit(s), %d test(s), predicted %s\n", spec.K, spec.N, from, len(sh.Units), sh.Plan.Leaves(), seconds(sh.Predicted))
	req.IDs, req.Paths, req.Failed, req.Changed, req.Chosen = nil, nil, false, false, false
	req.Shards = spec.N
	start := time.Now()
	err = execute(cmd, env, ws, ix, req, f, sh.Plan)
	fmt.Fprintf(env.Stderr, "testdex: shard %d/%d: predicted %s, measured %s\n", spec.K, spec.N, seconds(sh.Predicted), seconds(time.Since(start)))
	return err
}

// roundRobinFlag adds the hidden --round-robin: the files dealt out in
// turn, the baseline scripts/shardbench.sh measures the split against.
func roundRobinFlag(cmd *cobra.Command, f *runFlags) {
	cmd.Flags().BoolVar(&f.roundRobin, "round-robin", false, "deal the files to the shards in turn, whatever their durations (a baseline for benchmarks)")
	_ = cmd.Flags().MarkHidden("round-robin")
}
