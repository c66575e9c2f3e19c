package markdown

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		tags      []string
		timeout   string
		llm       string
		body      string
		problems  int
		skipPerms *bool
	}{
		{name: "none", raw: "# Title\nbody\n", tags: []string{}, body: "# Title\nbody\n"},
		{name: "list", raw: "---\ntags: [auth, api]\ntimeout: 30\n---\n# T\n", tags: []string{"auth", "api"}, timeout: "30", body: "# T\n"},
		{name: "block list", raw: "---\ntags:\n  - a\n  - b\nllm: claude\n---\nx", tags: []string{"a", "b"}, llm: "claude", body: "x"},
		{name: "comma string", raw: "---\ntags: \"a, b ,c\"\n---\n", tags: []string{"a", "b", "c"}, body: ""},
		{name: "crlf and bom", raw: "\ufeff---\r\ntags: x\r\n---\r\nbody", tags: []string{"x"}, body: "body"},
		{name: "bad field keeps others", raw: "---\ntags: [a, b\ntimeout: 5\n---\nbody", tags: []string{}, timeout: "5", body: "body", problems: 1},
		{name: "wrong type", raw: "---\ntags: {a: 1}\nskipPermissionsIfPossible: true\n---\n", tags: []string{}, body: "", problems: 1, skipPerms: ptr(true)},
		{name: "bad bool", raw: "---\nskipPermissionsIfPossible: maybe\n---\n", tags: []string{}, body: "", problems: 1},
		{name: "unclosed", raw: "---\ntags: [a]\nno end\n", tags: []string{}, body: "---\ntags: [a]\nno end\n", problems: 1},
		{name: "tab indented garbage", raw: "---\n\t: : :\ntags: [z]\n---\nb", tags: []string{"z"}, body: "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, probs := Split([]byte(tc.raw))
			if !reflect.DeepEqual(fm.Tags, tc.tags) {
				t.Errorf("tags = %q, want %q", fm.Tags, tc.tags)
			}
			if fm.Timeout != tc.timeout || fm.LLM != tc.llm {
				t.Errorf("timeout, llm = %q, %q; want %q, %q", fm.Timeout, fm.LLM, tc.timeout, tc.llm)
			}
			if string(body) != tc.body {
				t.Errorf("body = %q, want %q", body, tc.body)
			}
			if len(probs) != tc.problems {
				t.Errorf("problems = %v, want %d", probs, tc.problems)
			}
			if !reflect.DeepEqual(fm.SkipPermissionsIfPossible, tc.skipPerms) {
				t.Errorf("skipPermissionsIfPossible = %v, want %v", fm.SkipPermissionsIfPossible, tc.skipPerms)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestExtract(t *testing.T) {
	res := Extractor{}.Extract(&lang.File{Rel: "api/routes.spec.md", Data: []byte("---\ntags: smoke\nllm: x\n---\n# Routes\n")})
	if len(res.Tests) != 1 || len(res.Problems) != 0 {
		t.Fatalf("got %+v", res)
	}
	got := res.Tests[0]
	if got.Name != "routes.spec.md" || got.Kind != testdex.KindSpec || !reflect.DeepEqual(got.Tags, []string{"smoke"}) || got.Spec.LLM != "x" {
		t.Errorf("got %+v", got)
	}
	for _, bad := range []string{"\x00\x01binary", "\xff\xfe not utf8"} {
		res := Extractor{}.Extract(&lang.File{Rel: "b.spec.md", Data: []byte(bad)})
		if len(res.Tests) != 0 || len(res.Problems) != 1 || res.Problems[0].Severity != testdex.SevError {
			t.Errorf("%q: got %+v", bad, res)
		}
	}
}

func TestGroup(t *testing.T) {
	for _, tc := range [][3]string{
		{"/r", "/r/a.spec.md", ""},
		{"/r", "/r/api/v1/a.spec.md", "api/v1"},
		{"/r", "/elsewhere/a.spec.md", ""},
	} {
		if g := Group(tc[0], tc[1]); g != tc[2] {
			t.Errorf("Group(%q, %q) = %q, want %q", tc[0], tc[1], g, tc[2])
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"---\ntags: [a]\n---\nx", "---\n", "---\n---", "---\na: [\n---\n", "\ufeff---\r\n\t- x\n..."} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fm, body, _ := Split(raw)
		if fm.Tags == nil {
			t.Fatal("nil tags")
		}
		if len(body) > len(raw) || !strings.HasSuffix(string(raw), string(body)) {
			t.Fatalf("body %q is not a suffix of %q", body, raw)
		}
	})
}

// TestPaths: the paths field takes the shapes of tags; a field of the
// wrong shape, bad YAML or a bad glob marks it invalid, with a warning.
func TestPaths(t *testing.T) {
	for _, c := range []struct {
		raw     string
		paths   []string
		invalid bool
	}{
		{"# none\n", nil, false},
		{"---\npaths: [src/**, \"docs/*.md\"]\n---\n", []string{"src/**", "docs/*.md"}, false},
		{"---\npaths:\n  - a\n  - ./b/**\n---\n", []string{"a", "./b/**"}, false},
		{"---\npaths: \"a/**, b\"\n---\n", []string{"a/**", "b"}, false},
		{"---\npaths: {a: 1}\n---\n", nil, true},
		{"---\npaths: [a, b\n---\n", nil, true},
		{"---\npaths: \"src/[a\"\n---\n", []string{"src/[a"}, true},
	} {
		fm, _, probs := Split([]byte(c.raw))
		if !reflect.DeepEqual(fm.Paths, c.paths) || fm.PathsInvalid != c.invalid {
			t.Errorf("%q: paths %q invalid %v, want %q %v", c.raw, fm.Paths, fm.PathsInvalid, c.paths, c.invalid)
		}
		if (len(probs) > 0) != c.invalid {
			t.Errorf("%q: problems %v", c.raw, probs)
		}
	}
}
