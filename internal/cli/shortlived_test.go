package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestShortLived checks that list, and only a short-lived command, asks
// for the short-lived process's collector (Env.ShortLived).
func TestShortLived(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":    "module m\n\ngo 1.22\n",
		"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"list", "--no-cache", "--root", dir}, 1},
		{[]string{"list", "--json", "--no-cache", "--root", dir}, 1},
		{[]string{"version"}, 0},
	} {
		calls := 0
		env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: dir,
			ShortLived: func() { calls++ }}
		if code := Main(context.Background(), c.args, env); code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if calls != c.want {
			t.Errorf("%v: ShortLived called %d times, want %d", c.args, calls, c.want)
		}
	}
}
