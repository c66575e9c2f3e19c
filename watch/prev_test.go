package watch

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/workspace"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=w@t", "-c", "user.name=w", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestPrevious checks what each save is narrowed against: HEAD's commit
// for a file clean when watch began, the previous cycle's content after
// that, nothing for a file dirty from the start until its first save.
func TestPrevious(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	root := t.TempDir()
	write(t, root, "clean.go", "v1\n")
	write(t, root, "dirty.go", "v1\n")
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "one")
	write(t, root, "dirty.go", "v2\n")
	start, err := changes.FromGit(context.Background(), changes.GitOptions{Root: root, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	p := newPrevious(context.Background(), &workspace.Workspace{Root: root, Environ: os.Environ()}, start)
	p.keep(start)
	if len(p.base) != 40 {
		t.Fatalf("base %q, want HEAD's commit", p.base)
	}

	write(t, root, "clean.go", "v2\n")
	write(t, root, "new.go", "n1\n")
	set := changes.Set{{Path: "clean.go", Status: changes.Modified}, {Path: "dirty.go", Status: changes.Modified}, {Path: "new.go", Status: changes.Added}}
	write(t, root, "dirty.go", "v3\n")
	p.fill(set)
	if set[0].Base != p.base || set[0].Prev != nil {
		t.Errorf("a file clean at start: Base %q Prev %q, want HEAD's commit", set[0].Base, set[0].Prev)
	}
	if set[1].Base != "" || string(set[1].Prev) != "v2\n" {
		t.Errorf("a file dirty at start: Base %q Prev %q, want its content at start", set[1].Base, set[1].Prev)
	}

	write(t, root, "clean.go", "v3\n")
	write(t, root, "new.go", "n2\n")
	set = changes.Set{{Path: "clean.go", Status: changes.Modified}, {Path: "new.go", Status: changes.Modified}}
	p.fill(set)
	if set[0].Base != "" || string(set[0].Prev) != "v2\n" || string(set[1].Prev) != "n1\n" {
		t.Errorf("second saves: %+v, want the previous cycle's contents", set)
	}

	p.fill(changes.Set{{Path: "new.go", Status: changes.Deleted}})
	if _, ok := p.snap["new.go"]; ok || p.size != len("v3\n")+len("v3\n") {
		t.Errorf("a deleted file keeps its snapshot (size %d)", p.size)
	}

	// Without git nothing is narrowed until a file's first save.
	q := newPrevious(context.Background(), &workspace.Workspace{Root: t.TempDir(), Environ: os.Environ()}, nil)
	set = changes.Set{{Path: "a.go", Status: changes.Modified}}
	q.fill(set)
	if set[0].Base != "" || set[0].Prev != nil {
		t.Errorf("without git: %+v", set[0])
	}
}
