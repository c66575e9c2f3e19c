package rust

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// TestCoverFallback: a coverage script's parser reads each test's raw
// profile in Go, and sends one it does not read (another version) to
// LLVM's tools alone, saying so as batch output; a test whose tools fail
// too records nothing, and a note says why. The binary is an ELF file
// holding the recorded mapping of testdata/covshapes; the tools are
// scripts that print a recorded lcov, or fail.
func TestCoverFallback(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "c0")
	bin := filepath.Join(dir, "covshapes-test")
	writeCovELF(t, bin, mustRead(t, covRec+"covmap.bin"), mustRead(t, covRec+"covfun.bin"))
	lcov, _ := filepath.Abs(covRec + "test_loops.lcov")
	profdata, cov := filepath.Join(dir, "profdata"), filepath.Join(dir, "cov")
	os.WriteFile(profdata, []byte("#!/bin/sh\ncase \"$5\" in *.0.2.profraw) echo 'error: bad' >&2; exit 1;; esac\n: >\"$4\"\n"), 0o755)
	os.WriteFile(cov, []byte("#!/bin/sh\ncat "+lcov+"\n"), 0o755)
	os.WriteFile(prefix+".tools", []byte("go\n"+profdata+"\n"+cov+"\n"), 0o644)
	os.WriteFile(prefix+".bins", []byte(bin+"\n"), 0o644)
	os.WriteFile(prefix+".0.names", []byte("tests::test_branches\ntests::test_loops\ntests::test_generic_macro\n"), 0o644)
	os.WriteFile(prefix+".0.0.profraw", mustRead(t, covRec+"test_branches.profraw"), 0o644)
	for _, j := range []string{"1", "2"} { // version 9: not read in Go
		old := mustRead(t, covRec+"test_loops.profraw")
		binary.LittleEndian.PutUint64(old[8:], 9)
		os.WriteFile(prefix+".0."+j+".profraw", old, 0o644)
	}
	var evs []lang.RunEvent
	c := &coverParser{lp: &libtestParser{emit: func(e lang.RunEvent) { evs = append(evs, e) }, block: -1, failed: map[string]*failure{}}, prefix: prefix, root: "/"}
	c.lines.Line = c.line
	if err := c.Close(0); err != nil {
		t.Fatal(err)
	}
	covered := map[string][]lang.CoveredFile{}
	var outputs, notes []string
	for _, e := range evs {
		switch {
		case e.Action == lang.ActionCovered && e.Name != "":
			covered[e.Name] = e.Covered
		case e.Action == lang.ActionCovered:
			notes = append(notes, e.Message)
		case e.Action == testdex.ActionOutput:
			outputs = append(outputs, e.Output)
		}
	}
	loops := lcovFiles(mustRead(t, covRec+"test_loops.lcov"), "/")
	branches := lcovFiles(mustRead(t, covRec+"test_branches.lcov"), "/")
	if len(covered) != 2 || !reflect.DeepEqual(covered["tests::test_branches"], branches) || !reflect.DeepEqual(covered["tests::test_loops"], loops) {
		t.Errorf("recorded %+v; want test_branches read in Go, test_loops through the tools", covered)
	}
	if len(outputs) != 1 || !strings.Contains(outputs[0], "read through llvm-profdata and llvm-cov, slower: raw profile: version 0x9") {
		t.Errorf("output %q; want one line saying the tools read the profiles", outputs)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "the coverage profiles of 1 of 3 tests could not be read: raw profile: version 0x9") || !strings.Contains(notes[0], "error: bad") {
		t.Errorf("notes %q; want one for the test whose tools failed too", notes)
	}
}

// writeCovELF writes a minimal 64-bit little-endian ELF file holding the
// two coverage mapping sections (and the section names), as debug/elf
// reads them.
func writeCovELF(t *testing.T, path string, covmap, covfun []byte) {
	t.Helper()
	names := []byte("\x00__llvm_covmap\x00__llvm_covfun\x00.shstrtab\x00")
	le := binary.LittleEndian
	body := append(append(append([]byte(nil), covmap...), covfun...), names...)
	shoff := 64 + len(body)
	shoff += (8 - shoff%8) % 8
	out := make([]byte, shoff+4*64)
	copy(out, "\x7fELF\x02\x01\x01")
	le.PutUint16(out[16:], 1)  // ET_REL
	le.PutUint16(out[18:], 62) // x86-64
	le.PutUint32(out[20:], 1)
	le.PutUint64(out[40:], uint64(shoff))
	le.PutUint16(out[52:], 64)
	le.PutUint16(out[58:], 64)
	le.PutUint16(out[60:], 4)
	le.PutUint16(out[62:], 3)
	copy(out[64:], body)
	sec := func(i int, name, off, size int) {
		h := out[shoff+i*64:]
		le.PutUint32(h[0:], uint32(name))
		le.PutUint32(h[4:], 1) // SHT_PROGBITS
		if i == 3 {
			le.PutUint32(h[4:], 3) // SHT_STRTAB
		}
		le.PutUint64(h[24:], uint64(off))
		le.PutUint64(h[32:], uint64(size))
		le.PutUint64(h[48:], 1)
	}
	sec(1, 1, 64, len(covmap))
	sec(2, 15, 64+len(covmap), len(covfun))
	sec(3, 29, 64+len(covmap)+len(covfun), len(names))
	if err := os.WriteFile(path, out, 0o755); err != nil {
		t.Fatal(err)
	}
}
