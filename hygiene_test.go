package testdex_test

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// The repository's hygiene as tests (govulncheck's all_test.go): gofmt,
// go vet and go mod tidy, so that `go test ./...` alone holds them.

// TestGofmt: every Go file of the module is gofmt-clean; examples/ and
// testdata/ hold deliberately broken Go and are left out.
func TestGofmt(t *testing.T) {
	var bad []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "examples", "node_modules", ".git", "target":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, err := format.Source(src)
		if err != nil {
			bad = append(bad, p+": "+err.Error())
		} else if !bytes.Equal(out, src) {
			bad = append(bad, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("gofmt needed on:\n%s", strings.Join(bad, "\n"))
	}
}

// goCmd runs the go command in the module's root and fails the test
// with its output when it fails.
func goCmd(t *testing.T, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestGoModTidy: go.mod and go.sum are what go mod tidy makes them
// (every direct dependency marked as one).
func TestGoModTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy -diff")
	}
	goCmd(t, "mod", "tidy", "-diff")
}

// TestVet: go vet finds nothing in the module.
func TestVet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet ./...")
	}
	goCmd(t, "vet", "./...")
}
