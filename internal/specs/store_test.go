package specs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHashAndChanged(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/a.go", "a")
	write("src/b.go", "b")
	old := Key{Text: "t", Agent: "claude-code@1", Model: "m", Files: map[string]string{"src/a.go": Hash(root, "src/a.go"), "src": Hash(root, "src")}}
	cur := Key{Text: "t", Agent: "claude-code@1", Model: "m", Files: map[string]string{}}
	if why := Changed(root, old, cur); why != "" {
		t.Fatalf("unchanged: %q", why)
	}
	for _, c := range []struct {
		edit func()
		cur  Key
		want string
	}{
		{func() {}, Key{Text: "u", Agent: "claude-code@1", Model: "m"}, "its text changed"},
		{func() {}, Key{Text: "t", Agent: "claude-code@2", Model: "m"}, "the agent changed"},
		{func() {}, Key{Text: "t", Agent: "claude-code@1", Model: "n"}, "the model changed"},
		{func() {}, Key{Text: "t", Agent: "claude-code@1", Model: "m", Files: map[string]string{"docs/new.md": "x"}}, "docs/new.md is new among its paths"},
		{func() { write("src/a.go", "A") }, cur, "src/a.go changed"},
		{func() { write("src/a.go", "a"); write("src/c.go", "c") }, cur, "src changed"}, // a folder it listed has a new file
	} {
		c.edit()
		if why := Changed(root, old, c.cur); !strings.HasPrefix(why, c.want) {
			t.Errorf("%q, want %q", why, c.want)
		}
	}
	gone := Key{Text: "t", Agent: "claude-code@1", Model: "m", Files: map[string]string{"src/b.go": Hash(root, "src/b.go")}}
	os.Remove(filepath.Join(root, "src/b.go"))
	if why := Changed(root, gone, cur); why != "src/b.go changed" {
		t.Errorf("a file removed: %q", why)
	}
	if Hash(root, "nope") != "absent" || !strings.HasPrefix(Hash(root, "src"), "dir:") {
		t.Error("absent and folder hashes")
	}
}

func TestRootRel(t *testing.T) {
	root := "/r"
	for in, want := range map[string]string{"src/a.go": "src/a.go", "./src/a.go:12": "src/a.go", "/r/x/y": "x/y", "/elsewhere/z": "", "../up": "", "": "", "src/a.go:": "src/a.go:"} {
		got, ok := RootRel(root, in)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
}

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v", "store.json")
	if s, err := LoadStore(path); err != nil || len(s) != 0 {
		t.Fatalf("missing store: %v %v", s, err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := UpdateStore(path, map[string]*Stored{"a.spec.md::x": {Key: Key{Text: "t"}, Status: StatusPass, Judged: now}, "a.spec.md::y": {Status: StatusFail}}); err != nil {
		t.Fatal(err)
	}
	if err := UpdateStore(path, map[string]*Stored{"a.spec.md::y": nil}); err != nil {
		t.Fatal(err)
	}
	s, err := LoadStore(path)
	if err != nil || len(s) != 1 || s["a.spec.md::x"].Status != StatusPass || !s["a.spec.md::x"].Judged.Equal(now) {
		t.Fatalf("%v %v", s, err)
	}
	// Another format, and an odd file: empty, with a reason.
	os.WriteFile(path, []byte(`{"version":99,"verdicts":{}}`), 0o644)
	if s, err := LoadStore(path); err == nil || len(s) != 0 {
		t.Errorf("a foreign store: %v %v", s, err)
	}
	os.Remove(path)
	os.Mkdir(path, 0o755)
	if s, err := LoadStore(path); err == nil || len(s) != 0 {
		t.Errorf("a folder: %v %v", s, err)
	}
}

func TestAgreement(t *testing.T) {
	for _, c := range []struct {
		in     []string
		agree  float64
		status string
	}{
		{nil, 1, ""},
		{[]string{"pass"}, 1, "pass"},
		{[]string{"pass", "pass", "fail", "pass", "pass"}, 0.8, "pass"},
		{[]string{"pass", "fail"}, 0.5, "fail"}, // a tie reads as the worse
		{[]string{"error", "pass"}, 0.5, "error"},
	} {
		a, s := Agreement(c.in)
		if a != c.agree || s != c.status {
			t.Errorf("%v: %v %q, want %v %q", c.in, a, s, c.agree, c.status)
		}
	}
}
