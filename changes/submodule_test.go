package changes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// TestFromGitSubmodules: a change inside a submodule is the files that
// changed in it, under the submodule's path, not the gitlink: edited in
// its work tree, committed in it (the gitlink moves), and a submodule
// added since the base revision (all of its files are new).
func TestFromGitSubmodules(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	base := t.TempDir()
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "protocol.file.allow=always", "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, text string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib := filepath.Join(base, "lib")
	write(filepath.Join(lib, "lib.go"), "package lib\n")
	write(filepath.Join(lib, "lib_test.go"), "package lib\n")
	git(lib, "init", "-q")
	git(lib, "add", ".")
	git(lib, "commit", "-q", "-m", "lib")
	root := filepath.Join(base, "repo")
	write(filepath.Join(root, "main.go"), "package main\n")
	git(root, "init", "-q")
	git(root, "add", ".")
	git(root, "commit", "-q", "-m", "zero")
	git(root, "tag", "zero")
	git(root, "submodule", "add", "-q", lib, "vendor/lib")
	git(root, "add", ".")
	git(root, "commit", "-q", "-m", "one")
	changes := func(since string) []string {
		t.Helper()
		s, err := FromGit(context.Background(), GitOptions{Root: root, Since: since})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range s {
			out = append(out, string(c.Status)+" "+c.Path)
		}
		return out
	}
	if got := changes(""); len(got) != 0 {
		t.Errorf("clean: %q", got)
	}
	write(filepath.Join(root, "vendor/lib/lib.go"), "package lib\n\nfunc F() {}\n")
	if got, want := changes(""), []string{"modified vendor/lib/lib.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("edited in the submodule: %q, want %q", got, want)
	}
	git(filepath.Join(root, "vendor/lib"), "commit", "-q", "-am", "two")
	if got, want := changes(""), []string{"modified vendor/lib/lib.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("committed in the submodule: %q, want %q", got, want)
	}
	git(root, "commit", "-q", "-am", "bump")
	if got, want := changes("HEAD~1"), []string{"modified vendor/lib/lib.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("since the commit before the bump: %q, want %q", got, want)
	}
	want := []string{"added .gitmodules", "added vendor/lib/lib.go", "added vendor/lib/lib_test.go"}
	if got := changes("zero"); !reflect.DeepEqual(got, want) {
		t.Errorf("a submodule added since: %q, want %q", got, want)
	}
}
