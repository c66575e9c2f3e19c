package rust

import (
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// testdata/covshapes-rec holds what testdata/covshapes/record.sh recorded
// from testdata/covshapes's test binary (rustc 1.95): its __llvm_covmap and
// __llvm_covfun sections, and per test its raw profile with what
// llvm-profdata show --counts reads from it and what llvm-cov export
// makes of it (lcov).
const covRec = "testdata/covshapes-rec/"

var covTests = []string{"test_branches", "test_loops", "test_generic_macro"}

// TestReadProfraw: each recorded raw profile holds, per function with a
// counter that is not 0, the hash and counters llvm-profdata reads.
func TestReadProfraw(t *testing.T) {
	for _, name := range covTests {
		data := mustRead(t, covRec+name+".profraw")
		p, err := readProfraw(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := parseShow(t, covRec+name+".show")
		got := map[uint64]profRecord{}
		for ref, recs := range p {
			if len(recs) != 1 {
				t.Errorf("%s: %d records of %#x", name, len(recs), ref)
			}
			got[ref] = recs[0]
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read %+v\nllvm-profdata show %+v", name, got, want)
		}
		if len(got) < 3 {
			t.Errorf("%s: %d functions ran, want the test's and what it called", name, len(got))
		}
	}
}

// parseShow reads llvm-profdata show --all-functions --counts: per
// function its name, hash, and counts (the first is "Function count", the
// rest "Block counts"), keeping those with a count that is not 0, by the
// name's MD5.
func parseShow(t *testing.T, path string) map[uint64]profRecord {
	out := map[uint64]profRecord{}
	var name uint64
	var rec profRecord
	flush := func() {
		for _, c := range rec.counts {
			if c != 0 {
				out[name] = rec
				break
			}
		}
	}
	for _, l := range strings.Split(string(mustRead(t, path)), "\n") {
		f := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "    ") && strings.HasSuffix(f, ":"):
			flush()
			name, rec = md5Low([]byte(strings.TrimSuffix(f, ":"))), profRecord{}
		case strings.HasPrefix(f, "Hash: 0x"):
			rec.hash, _ = strconv.ParseUint(strings.TrimPrefix(f, "Hash: 0x"), 16, 64)
		case strings.HasPrefix(f, "Function count: "):
			n, _ := strconv.ParseUint(strings.TrimPrefix(f, "Function count: "), 10, 64)
			rec.counts = append(rec.counts, n)
		case strings.HasPrefix(f, "Block counts: ["):
			for _, s := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(f, "Block counts: ["), "]"), ", ") {
				if s != "" {
					n, _ := strconv.ParseUint(s, 10, 64)
					rec.counts = append(rec.counts, n)
				}
			}
		}
	}
	flush()
	return out
}

// TestCovLines: each test's executed lines from the recorded mapping and
// raw profile are those of llvm-cov's export (its DA lines with a count
// that is not 0): branches taken and not, a match arm, a loop's early
// return, a closure, two instantiations of a generic, a macro, an unused
// function.
func TestCovLines(t *testing.T) {
	funcs, err := readSections(mustRead(t, covRec+"covmap.bin"), mustRead(t, covRec+"covfun.bin"))
	if err != nil {
		t.Fatal(err)
	}
	b := newCovBinary(funcs, "/")
	for _, name := range covTests {
		p, err := readProfraw(mustRead(t, covRec+name+".profraw"))
		if err != nil {
			t.Fatal(err)
		}
		got, want := b.lines(p), lcovFiles(mustRead(t, covRec+name+".lcov"), "/")
		if len(want) != 1 || len(want[0].Lines) < 3 {
			t.Fatalf("%s: llvm-cov's lines %+v, want some of lib.rs", name, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read\n%+v\nllvm-cov export\n%+v", name, got, want)
		}
	}
}

// TestCovRefused: another raw profile version, another mapping version
// or a region kind the reader does not know is refused with the error
// that sends the caller to LLVM's tools; truncated input of every length
// is refused or read, never a panic.
func TestCovRefused(t *testing.T) {
	prof := mustRead(t, covRec+"test_loops.profraw")
	v9 := append([]byte(nil), prof...)
	binary.LittleEndian.PutUint64(v9[8:], 9)
	if _, err := readProfraw(v9); !errors.Is(err, errProfraw) || !strings.Contains(err.Error(), "version 0x9") {
		t.Errorf("version 9: %v", err)
	}
	covmap, covfun := mustRead(t, covRec+"covmap.bin"), mustRead(t, covRec+"covfun.bin")
	old := append([]byte(nil), covmap...)
	binary.LittleEndian.PutUint32(old[12:], 3)
	if _, err := readSections(old, covfun); !errors.Is(err, errCovmap) {
		t.Errorf("mapping version 4: %v", err)
	}
	for n := range prof {
		if _, err := readProfraw(prof[:n]); err == nil && n < profrawHeader {
			t.Errorf("%d bytes of a raw profile read", n)
		}
	}
	for n := range covfun {
		readSections(covmap, covfun[:n])
	}
	for n := range covmap {
		readSections(covmap[:n], covfun)
	}
	for i := range covfun { // a byte changed anywhere: an error or lines, never a panic
		bad := append([]byte(nil), covfun...)
		bad[i] ^= 0xff
		if funcs, err := readSections(covmap, bad); err == nil {
			p, _ := readProfraw(prof)
			newCovBinary(funcs, "/").lines(p)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
