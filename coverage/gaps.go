package coverage

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Gap is a batch (a project and a framework) whose tests ran in the last
// `run --coverage` that reached it, and recorded nothing (the coverage
// tool is missing, the framework has none in testdex, the runner's
// recording reached no test) or, Partial, only part of what ran (files
// transformed without a source map). `testdex covering` gives it as the
// reason a file of that project has no record, rather than "run
// --coverage" or "no test executed it".
type Gap struct {
	// Project is the project folder, root-relative ("." for the root).
	Project   string `json:"project"`
	Framework string `json:"framework"`
	// Reason says why, with what to do where known.
	Reason string `json:"reason"`
	// Tests is how many tests ran.
	Tests int `json:"tests"`
	// Partial is true when some coverage was recorded, not all.
	Partial bool `json:"partial,omitempty"`
	// Recorded is when that run started.
	Recorded time.Time `json:"recorded"`
}

// String is "the --coverage run of DATE recorded nothing for project P
// (FW): REASON", or "recorded only part of what project P (FW) ran".
func (g Gap) String() string {
	when := g.Recorded.Local().Format("2006-01-02 15:04:05")
	if g.Partial {
		return fmt.Sprintf("the --coverage run of %s recorded only part of what project %s (%s) ran: %s", when, g.Project, g.Framework, g.Reason)
	}
	return fmt.Sprintf("the --coverage run of %s recorded nothing for project %s (%s): %s", when, g.Project, g.Framework, g.Reason)
}

// bucketGaps holds the gaps, keyed "PROJECT\x00FRAMEWORK", each a JSON
// Gap. An index written before it existed has none (Open creates it).
var bucketGaps = []byte("gaps")

func gapKey(project, framework string) []byte { return []byte(project + "\x00" + framework) }

// SetGaps records what a run learnt of its batches: a Gap with a Reason
// is put under its project and framework, one without clears theirs (the
// batch recorded coverage this time).
func (ix *Index) SetGaps(gaps []Gap) error {
	err := ix.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketGaps)
		if err != nil {
			return err
		}
		for _, g := range gaps {
			k := gapKey(g.Project, g.Framework)
			if g.Reason == "" {
				if err := b.Delete(k); err != nil {
					return err
				}
				continue
			}
			v, err := json.Marshal(g)
			if err != nil {
				return err
			}
			if err := b.Put(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write the coverage index: %w", err)
	}
	return nil
}

// Gaps returns the recorded gaps, sorted by project and framework.
func (ix *Index) Gaps() ([]Gap, error) {
	var out []Gap
	err := ix.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGaps)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var g Gap
			if err := json.Unmarshal(v, &g); err != nil {
				return fmt.Errorf("%w: %s (gap %q: %v)", ErrDamaged, ix.path, k, err)
			}
			out = append(out, g)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		return out[i].Project < out[j].Project || out[i].Project == out[j].Project && out[i].Framework < out[j].Framework
	})
	return out, err
}

// GapError answers a query about a file that the index holds no record
// of while its project's last run with coverage recorded nothing: Gaps
// say why. It is ErrNoData for errors.Is.
type GapError struct {
	File string
	Gaps []Gap
}

func (e *GapError) Error() string {
	parts := make([]string, len(e.Gaps))
	for i, g := range e.Gaps {
		parts[i] = g.String()
	}
	return fmt.Sprintf("no coverage recorded for %s: %s", e.File, strings.Join(parts, "; "))
}

// Unwrap makes a GapError ErrNoData.
func (e *GapError) Unwrap() error { return ErrNoData }
