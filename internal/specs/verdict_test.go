package specs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseAnswers(t *testing.T) {
	const obj = `{"scenarios":[{"id":"a","status":"pass","files_read":["x.go"]},{"id":"b","status":"FAIL","observed":"no","location":"y.go:3","resolution":"fix","commands_run":["ls"]}]}`
	want := []Answer{{ID: "a", Status: StatusPass, Read: []string{"x.go"}, Commands: []string{}},
		{ID: "b", Status: StatusFail, Observed: "no", Location: "y.go:3", Resolution: "fix", Read: []string{}, Commands: []string{"ls"}}}
	for name, text := range map[string]string{
		"bare":            obj,
		"chatter":         "Let me look at {the code}.\n" + obj + "\nThat is all.",
		"fenced":          "Here:\n```json\n" + obj + "\n```\n",
		"thought then":    `{"id":"a","status":"fail"} on second thought: ` + obj,
		"semtest's array": `[{"id":"a","status":"pass","files_read":["x.go"]},{"id":"b","status":"failed","actual":"no","location":"y.go:3","resolution":"fix","commands":["ls"]}]`,
	} {
		got, err := ParseAnswers(text)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(normalize(got), normalize(want)) {
			t.Errorf("%s:\n%+v\nwant\n%+v", name, got, want)
		}
	}
	for _, bad := range []string{"", "all good!", "{not json", `{"scenarios":[{"status":"pass"}]}`, "[1,2,3]"} {
		if _, err := ParseAnswers(bad); !errors.Is(err, ErrNoVerdict) {
			t.Errorf("%q: %v, want no verdict", bad, err)
		}
	}
	got, _ := ParseAnswers(`{"id":"a","status":"maybe"}`)
	if len(got) != 1 || got[0].Status != StatusError || !strings.Contains(got[0].Observed, `"maybe"`) {
		t.Errorf("an unknown status: %+v", got)
	}
}

// normalize makes nil and empty slices alike.
func normalize(as []Answer) []Answer {
	out := append([]Answer{}, as...)
	for i := range out {
		if len(out[i].Read) == 0 {
			out[i].Read = nil
		}
		if len(out[i].Commands) == 0 {
			out[i].Commands = nil
		}
	}
	return out
}

// TestParseAnswersBraces: an answer full of braces costs a bounded
// number of decodes and still finds a verdict at its end.
func TestParseAnswersBraces(t *testing.T) {
	text := strings.Repeat("{[", 50000) + `{"id":"a","status":"pass"}`
	got, err := ParseAnswers(text)
	if err == nil && len(got) == 1 {
		return // found within the bound
	}
	if !errors.Is(err, ErrNoVerdict) {
		t.Errorf("%v", err)
	}
}

func FuzzParseAnswers(f *testing.F) {
	for _, s := range []string{`{"scenarios":[{"id":"a","status":"pass"}]}`, "```json\n[{\"id\":\"x\"}]\n```", "{{{", `[{"id":1}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		as, err := ParseAnswers(s)
		if err == nil && len(as) == 0 {
			t.Fatal("no error and no answer")
		}
		for _, a := range as {
			if a.ID == "" || (a.Status != StatusPass && a.Status != StatusFail && a.Status != StatusError) {
				t.Fatalf("bad answer %+v", a)
			}
		}
	})
}
