package rust_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/rust"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// TestListerMatchesCargo runs the Lister's own command (cargo test --
// --list) on a copy of the fixture, offline, and compares: every static
// non-dynamic test, subtest and doc test must be reported with the same
// Scope and Name, and every reported test must be a static record. Tests
// gated by the feature "ext" (attribute macros from crates.io), off by
// default, must be left out by the static pass as cargo leaves them out.
func TestListerMatchesCargo(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		testenv.Missing(t, "cargo is not installed: install Rust (https://rustup.rs) to run the cargo integration test")
	}
	tmp := t.TempDir()
	copySources(t, shapesDir, tmp)
	ix, err := index.Build(t.Context(), index.Options{Root: tmp, Frameworks: []testdex.Framework{testdex.Cargo},
		Config: &config.Config{}}) // default features, not the fixture's ext
	if err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	for _, crate := range []string{"shapes", "member"} {
		t.Run(crate, func(t *testing.T) {
			dir := filepath.Join(tmp, crate)
			p, _ := rust.Detector.Detect(&lang.DetectEnv{Root: tmp, ReadFile: os.ReadFile}, dir, []string{"Cargo.toml"})
			listed := runLister(t, p, filepath.Join(target, "target"))
			static := map[string]testdex.Test{}
			for _, r := range ix.Tests {
				if r.Project == crate && r.Kind != testdex.KindSuite {
					if slices.Contains(r.Tags, `cfg(feature = "ext")`) {
						t.Errorf("%s is gated by the feature ext, off by default, but listed", r.ID)
					}
					static[r.Scope+"\x00"+r.Name] = r
				}
			}
			seen := map[string]bool{}
			for _, l := range listed {
				k := l.Scope + "\x00" + l.Name
				seen[k] = true
				if r, ok := static[k]; (!ok && !coveredByDynamic(static, l)) || (ok && r.Kind != l.Kind) {
					t.Errorf("cargo lists %s %q (%s) but the static pass has %+v", l.Scope, l.Name, l.Kind, r)
				}
			}
			for k, r := range static {
				if !r.Dynamic && !seen[k] {
					t.Errorf("static record %s not listed by cargo", r.ID)
				}
			}
			if len(listed) < 2 {
				t.Errorf("cargo listed only %d tests", len(listed))
			}
		})
	}
}

// coveredByDynamic reports whether a dynamic record of the same scope
// stands for a listed test: its name up to the "{" placeholder is a
// prefix of the listed name.
func coveredByDynamic(static map[string]testdex.Test, l lang.Listed) bool {
	for _, r := range static {
		if i := strings.Index(r.Name, "{"); r.Dynamic && r.Scope == l.Scope && i >= 0 && strings.HasPrefix(l.Name, r.Name[:i]) {
			return true
		}
	}
	return false
}

// copySources copies the fixture without the build folders a cargo run
// in the source tree may have left (target/, ignored by git): built
// artifacts copied with fresh times would look up to date to cargo.
func copySources(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir() && d.Name() == "target":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runLister runs the Lister's command with the target folder in tmp.
func runLister(t *testing.T, p *lang.Project, target string) []lang.Listed {
	t.Helper()
	s := p.Frameworks[0]
	c, err := s.Lister.ListCommand(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), c.Args[0], append(c.Args[1:2], append([]string{"--offline"}, c.Args[2:]...)...)...)
	cmd.Dir = c.Dir
	cmd.Env = append(append(os.Environ(), c.Env...), "CARGO_TARGET_DIR="+target)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := parsertest.ExitCode(t, cmd)
	listed, err := s.Lister.ParseList(p, out.Bytes(), errb.Bytes(), code)
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, strings.TrimSpace(errb.String()))
	}
	return listed
}
