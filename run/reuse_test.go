package run

import (
	"context"
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// reuser knows two results without running, and runs the rest: the
// selection it hands RunCommands is recorded.
type reuser struct {
	ran []*lang.Selection
}

func (r *reuser) Reuse(_ *lang.Project, sel *lang.Selection, _ lang.RunOptions) ([]lang.RunEvent, *lang.Selection, error) {
	known := []lang.RunEvent{
		{Action: testdex.ActionUnchanged, Name: "a", Message: "kept", Verdict: &testdex.Verdict{Status: "pass", Reused: true}},
		{Action: testdex.ActionFail, Name: "b", Message: "kept failure"},
	}
	return known, &lang.Selection{Tests: sel.Tests[2:]}, nil
}

func (r *reuser) RunCommands(_ *lang.Project, sel *lang.Selection, _ lang.RunOptions) ([]*lang.Command, error) {
	r.ran = append(r.ran, sel)
	return []*lang.Command{{Args: []string{"true"}}}, nil
}

func (r *reuser) NewParser(_ *lang.Project, _ *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return closer(func(int) { emit(lang.RunEvent{Action: testdex.ActionPass, Name: "c"}) })
}

type closer func(int)

func (c closer) Write(p []byte) (int, error) { return len(p), nil }
func (c closer) Close(exit int) error        { c(exit); return nil }

// TestReuser: a Reuser's known results are the batch's events, counted as
// results (not unreported), carrying their verdict; only the rest runs.
func TestReuser(t *testing.T) {
	var recs []*testdex.Test
	for _, n := range []string{"a", "b", "c"} {
		recs = append(recs, &testdex.Test{ID: "f::" + n, Name: n, File: "f", Project: ".", Framework: "fake"})
	}
	r := &reuser{}
	b := &plan.Batch{Name: ". fake", Dir: ".", Project: &lang.Project{Dir: t.TempDir()}, Setup: &lang.Setup{Framework: "fake", Runner: r},
		Selection: lang.Selection{Tests: recs}, Expected: recs}
	out := &batchOutput{ready: make(chan struct{})}
	names := plan.NewNamer(plan.Listing{Tests: []testdex.Test{*recs[0], *recs[1], *recs[2]}})
	runBatch(context.Background(), b, Options{}.withDefaults(), names, out)
	got := map[string]testdex.Action{}
	var verdict *testdex.Verdict
	for _, e := range out.events {
		if e.ID != "" && e.Action.Final() {
			got[e.ID] = e.Action
			if e.ID == "f::a" {
				verdict = e.Verdict
			}
		}
	}
	want := map[string]testdex.Action{"f::a": testdex.ActionUnchanged, "f::b": testdex.ActionFail, "f::c": testdex.ActionPass}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if verdict == nil || !verdict.Reused {
		t.Errorf("the reused result lost its verdict: %+v", verdict)
	}
	if len(r.ran) != 1 || len(r.ran[0].Tests) != 1 || r.ran[0].Tests[0].ID != "f::c" {
		t.Errorf("RunCommands got %+v, want the rest alone", r.ran)
	}
}
