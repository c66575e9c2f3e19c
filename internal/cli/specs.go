package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang/markdown"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/internal/specreport"
)

// The markdown specs' part of `testdex run`: the report files of
// --output and the closing line saying what judging them cost.

// outputDir is --output made absolute ("" when not given).
func outputDir(env *Env, dir string) string {
	if dir == "" {
		return ""
	}
	return abs(env, dir)
}

// excludeOutput leaves the --output folder out of discovery, as semtest
// leaves its outputDir: the semtest detector ignores it (a folder outside
// the root needs nothing).
func excludeOutput(opts *index.Options, output string) error {
	if output == "" {
		return nil
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, output)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	cfg := opts.Config
	if cfg == nil {
		if cfg, err = config.Load(root, opts.ConfigPath); err != nil {
			return err
		}
	}
	markdown.IgnoreOutput(cfg, filepath.ToSlash(rel))
	opts.Config = cfg
	return nil
}

// specOutput collects the spec results of a run.
type specOutput struct {
	c      specreport.Collector
	output string
}

// Event implements run.Handler.
func (s *specOutput) Event(e testdex.Event) error { return s.c.Event(e) }

// printCost writes what judging the specs cost, when specs ran: the
// scenarios judged, the agent calls made and saved by reused verdicts,
// and each scenario --repeat found unstable.
func (s *specOutput) printCost(w io.Writer) {
	k := s.c.Cost()
	if k.Scenarios == 0 {
		return
	}
	line := fmt.Sprintf("specs: %d %s: %d judged by %d agent %s", k.Scenarios, pluralWord(k.Scenarios, "scenario", "scenarios"),
		k.Judged, k.Calls, pluralWord(k.Calls, "call", "calls"))
	if k.CostUSD > 0 {
		line += fmt.Sprintf(" ($%.4f reported)", k.CostUSD)
	}
	line += fmt.Sprintf(", %d %s reused (%d %s saved)", k.Reused, pluralWord(k.Reused, "verdict", "verdicts"), k.Saved, pluralWord(k.Saved, "call", "calls"))
	fmt.Fprintln(w, line)
	for _, u := range k.Unstable {
		fmt.Fprintf(w, "unstable: %s: %.0f%% of %d judgements agree\n", report.Escape(u.ID), u.Agreement*100, u.Of)
	}
}

// write writes the report files into --output, when given.
func (s *specOutput) write(ix *index.Index, now time.Time) error {
	if s.output == "" {
		return nil
	}
	return s.c.Write(s.output, ix.Root, ix.Problems, now)
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
