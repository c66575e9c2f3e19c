package fidelity

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Record is the part of a `testdex list --json` record the suite reads.
type Record struct {
	ID        string `json:"id"`
	Framework string `json:"framework"`
	Kind      string `json:"kind"`
	Scope     string `json:"scope"`
	Name      string `json:"name"`
	Parent    string `json:"parent"`
	Dynamic   bool   `json:"dynamic"`
}

// ParseListing reads `testdex list --json` into records by ID.
func ParseListing(r io.Reader) (map[string]Record, error) {
	recs := map[string]Record{}
	dec := json.NewDecoder(r)
	for {
		var rec Record
		if err := dec.Decode(&rec); err == io.EOF {
			return recs, nil
		} else if err != nil {
			return recs, fmt.Errorf("testdex list --json: %w", err)
		}
		recs[rec.ID] = rec
	}
}

// Event is the part of a `testdex run --json` event the suite reads.
type Event struct {
	Action    string   `json:"action"`
	ID        string   `json:"id"`
	Framework string   `json:"framework"`
	Batch     string   `json:"batch"`
	Scope     string   `json:"scope"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Seen      []string `json:"seen"`
	Message   string   `json:"message"`
	Output    string   `json:"output"`
}

// Run is what one `testdex run --json` reported.
type Run struct {
	Results Results
	// Unreported holds the IDs testdex ended as "unreported" (listed, not
	// reported by the runner): not test results, so not in Results.
	Unreported []string
	// Errors holds the batch errors ("error" events) with their message.
	Errors []string
	// Unnamed holds the final results whose event carried no scope and name
	// and whose ID the listing did not hold: keyed by ID in Results
	// (scope "?"), so they show as only-testdex in a diff.
	Unnamed []string
	// Derived counts the final results named from the listing because the
	// event carried no scope and name.
	Derived int
	// RuntimeOnly counts the final results marked seen: ["runtime"].
	RuntimeOnly int
	// Kinds holds each result's record kind (test, subtest, suite, ...)
	// where the event or the listing gives it, for the report: a runner
	// never counts a suite.
	Kinds map[Key]string
}

// ParseRun reads testdex's JSON Lines events. A test's key is the event's
// own scope and name; when the event has none (events written by a
// testdex from before 2026-11-22), the listing's record of the same ID gives them.
func ParseRun(r io.Reader, listing map[string]Record) (*Run, error) {
	run := &Run{Results: Results{}, Kinds: map[Key]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] != '{' {
			continue
		}
		var ev Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			return run, fmt.Errorf("testdex run --json: %q: %w", line, err)
		}
		run.add(ev, listing)
	}
	sort.Strings(run.Unreported)
	sort.Strings(run.Unnamed)
	return run, sc.Err()
}

func (run *Run) add(ev Event, listing map[string]Record) {
	switch {
	case ev.Action == "error":
		msg := ev.Message
		if msg == "" {
			msg = "(no message)"
		}
		run.Errors = append(run.Errors, fmt.Sprintf("%s: %s", ev.Batch, flatten(msg, 600)))
		return
	case ev.ID == "":
		return
	case ev.Action == "unreported":
		run.Unreported = append(run.Unreported, ev.ID)
		return
	}
	o := Outcome(ev.Action)
	if o != Pass && o != Fail && o != Skip {
		return
	}
	if ev.Kind == "suite" && (o != Fail || ev.Message == "") {
		return // a suite counts only when it failed with its own message, as in run.Summary
	}
	if len(ev.Seen) == 1 && ev.Seen[0] == "runtime" {
		run.RuntimeOnly++
	}
	k := Key{ev.Framework, ev.Scope, ev.Name}
	if k.Name == "" {
		if rec, ok := listing[ev.ID]; ok {
			k = Key{rec.Framework, rec.Scope, rec.Name}
			run.Derived++
		} else {
			k = Key{ev.Framework, "?", "id " + ev.ID}
			run.Unnamed = append(run.Unnamed, ev.ID)
		}
	}
	run.Results.Add(k, o)
	kind := ev.Kind
	if kind == "" {
		kind = listing[ev.ID].Kind
	}
	if kind != "" {
		run.Kinds[k] = kind
	}
}

// flatten puts a message on one line, at most max bytes of it.
func flatten(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		return s[:max] + " ..."
	}
	return s
}
