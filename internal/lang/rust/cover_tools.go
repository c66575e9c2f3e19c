package rust

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// The LLVM tools path: where testdex does not read a raw profile or a
// binary's mapping itself (another profile version, a mapping version or
// region kind it does not know), or TESTDEX_RUST_COVERAGE=llvm-tools asks
// for it, each test's profile goes through `llvm-profdata merge -sparse`
// and `llvm-cov export -format=lcov`, as before testdex read them: about
// 0.07 s of CPU a test, mostly llvm-cov reading the binary's mapping.
// TESTDEX_RUST_COVERAGE=compare reads each profile both ways, records
// testdex's reading and says, as batch output, each test whose lines
// differ from llvm-cov's (the check of docs/coverage.md's Rust figures).

// coverTools is what a coverage script's parser needs to fall back.
type coverTools struct {
	force         bool // TESTDEX_RUST_COVERAGE=llvm-tools
	compare       bool // TESTDEX_RUST_COVERAGE=compare: both, differences said
	profdata, cov string
}

// writeTools writes PREFIX.tools for the parser: the mode, then the
// tools' paths ("" where none was found).
func writeTools(prefix string, o lang.RunOptions, profdata, cov string) error {
	mode := "go"
	if m := o.Getenv("TESTDEX_RUST_COVERAGE"); m == "llvm-tools" || m == "compare" {
		mode = m
	}
	return os.WriteFile(prefix+".tools", []byte(mode+"\n"+profdata+"\n"+cov+"\n"), 0o644)
}

// readTools reads PREFIX.tools.
func readTools(prefix string) coverTools {
	data, _ := os.ReadFile(prefix + ".tools")
	f := strings.Split(string(data), "\n")
	for len(f) < 3 {
		f = append(f, "")
	}
	return coverTools{force: f[0] == "llvm-tools", compare: f[0] == "compare", profdata: f[1], cov: f[2]}
}

// lcov runs the tools on one test's profile: PREFIX.B.J.profraw to its
// lcov text.
func (t coverTools) lcov(bin, f string) ([]byte, error) {
	if t.profdata == "" || t.cov == "" {
		return nil, fmt.Errorf("no llvm-profdata and llvm-cov of LLVM %d or later (apt-get install llvm-19, rustup component add llvm-tools, or set LLVM_PROFDATA and LLVM_COV)", minLLVM)
	}
	defer os.Remove(f + ".profdata")
	if out, err := exec.Command(t.profdata, "merge", "-sparse", "-o", f+".profdata", f+".profraw").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s merge: %v: %s", t.profdata, err, firstLine(out))
	}
	var stderr bytes.Buffer
	cmd := exec.Command(t.cov, "export", "-format=lcov", "-instr-profile="+f+".profdata",
		"-ignore-filename-regex="+ignoredFiles.String(), bin)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s export: %v: %s", t.cov, err, firstLine(stderr.Bytes()))
	}
	return out, nil
}

func firstLine(b []byte) string {
	l, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return l
}
