package golang

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

// TestScanCodecFields fails when a scan result gains a field its codec
// (impact_cache.go) does not know: encode it, and change the kind's
// version.
func TestScanCodecFields(t *testing.T) {
	langtest.CodecFields(t, langtest.Fields{Value: fileDecls{}, N: 7}, langtest.Fields{Value: decl{}, N: 10},
		langtest.Fields{Value: goFile{}, N: 10}, langtest.Fields{Value: ifaceFacts{}, N: 4})
}

// TestDeclsCodec round-trips the declarations of real files: this
// package's and a few of the standard library's.
func TestDeclsCodec(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	std, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "strings", "*.go"))
	for _, f := range append(files, std...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := quickDecls(filepath.Base(f), src)
		got, ok := decodeDecls(encodeDecls(want))
		if !ok {
			t.Fatalf("%s: the encoding does not decode", f)
		}
		normalize(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded declarations differ", f)
		}
		ls := linknames(src)
		if got, ok := decodeLinknames(encodeLinknames(ls)); !ok || !reflect.DeepEqual(got, ls) {
			t.Errorf("%s: linknames %v, decoded %v", f, ls, got)
		}
	}
	// Damaged data: every truncation of an encoding fails to decode,
	// without a panic.
	src, _ := os.ReadFile("impact_cache.go")
	data := encodeDecls(quickDecls("impact_cache.go", src))
	for i := range data {
		if _, ok := decodeDecls(data[:i]); ok {
			t.Fatalf("%d of %d bytes decoded", i, len(data))
		}
	}
	if _, ok := decodeDecls(append(data, 0)); ok {
		t.Error("a trailing byte decoded")
	}
}

// normalize makes empty lists nil, as decoding gives them.
func normalize(fd *fileDecls) {
	nilIfEmpty := func(s []string) []string {
		if len(s) == 0 {
			return nil
		}
		return s
	}
	fd.unnamed, fd.dots = nilIfEmpty(fd.unnamed), nilIfEmpty(fd.dots)
	if len(fd.decls) == 0 {
		fd.decls = nil
	}
	for _, d := range fd.decls {
		d.names, d.refs, d.linknames = nilIfEmpty(d.names), nilIfEmpty(d.refs), nilIfEmpty(d.linknames)
		if len(d.qrefs) == 0 {
			d.qrefs = nil
		}
	}
}

// TestScanCacheReads: with a warm cache, a run reads no unchanged file
// (only the changed one, to narrow it), and a changed file is scanned
// again; the graphs are the same as without the cache.
func TestScanCacheReads(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	tree := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.B() }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { A() }\n",
		"b/b.go":      "package b\n\nfunc B() int { return 1 }\n\nfunc C() int { return 2 }\n",
		"b/l.go":      "package b\n\nimport _ \"unsafe\"\n\n//go:linkname x runtime.x\nvar x int\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) { C() }\n",
	}
	old := time.Now().Add(-time.Hour)
	for name, content := range tree {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	var mu sync.Mutex
	reads := map[string]int{}
	read := func(abs string) ([]byte, error) {
		mu.Lock()
		rel, _ := filepath.Rel(root, abs)
		reads[filepath.ToSlash(rel)]++
		mu.Unlock()
		return os.ReadFile(abs)
	}
	base := []byte(tree["b/b.go"])
	// run graphs the project and narrows the change of b/b.go, as a new
	// process would (no memo); cacheDir "" runs without a cache.
	run := func(cacheDir string) (*lang.Graph, *lang.Diff, []string) {
		t.Helper()
		ClearMemo()
		clear(reads)
		in := &lang.GraphInput{Project: &lang.Project{Dir: root, Name: "example.com/m"}, Root: root,
			Files: []string{"a/a_test.go", "b/b_test.go"}, ReadFile: read}
		var st *cache.ScanStore
		if cacheDir != "" {
			var err error
			if st, err = cache.OpenScan(cacheDir, root); err != nil {
				t.Fatal(err)
			}
			in.Cache = st
		}
		gr := &grapher{}
		g, err := gr.Graph(in)
		if err != nil {
			t.Fatal(err)
		}
		d, err := gr.Diff(in, "b/b.go", base)
		if err != nil {
			t.Fatal(err)
		}
		if st != nil {
			if err := st.Save(); err != nil {
				t.Fatal(err)
			}
		}
		var read []string
		for f, n := range reads { // the tree's and GOROOT's (the method scope's interfaces)
			if n > 0 && strings.HasSuffix(f, ".go") { // go.mod and go.work are read each time
				read = append(read, f)
			}
		}
		slices.Sort(read)
		return g, d, read
	}
	edit := func(content string, at time.Time) {
		p := filepath.Join(root, "b", "b.go")
		os.WriteFile(p, []byte(content), 0o644)
		os.Chtimes(p, at, at)
	}
	// A change of B: a.go's tests are selected through it.
	edit(strings.Replace(tree["b/b.go"], "return 1", "return 11", 1), old.Add(time.Minute))
	plainG, plainD, plainReads := run("")
	coldG, coldD, coldReads := run(dir)
	warmG, warmD, warmReads := run(dir)
	if !reflect.DeepEqual(plainG, coldG) || !reflect.DeepEqual(plainG, warmG) || !reflect.DeepEqual(plainD, coldD) || !reflect.DeepEqual(plainD, warmD) {
		t.Errorf("graphs differ with the cache:\nplain %v\n%v\ncold %v\n%v\nwarm %v\n%v", plainG, plainD, coldG, coldD, warmG, warmD)
	}
	if plainD == nil || len(plainD.Start) == 0 {
		t.Fatalf("b/b.go's change was not narrowed: %+v", plainD)
	}
	if !reflect.DeepEqual(plainReads, coldReads) || len(coldReads) < 3 {
		t.Errorf("cold run read %d files, without the cache %d", len(coldReads), len(plainReads))
	}
	t.Logf("Go files read: cold %d, warm %v", len(coldReads), warmReads)
	if want := []string{"b/b.go"}; !reflect.DeepEqual(warmReads, want) {
		t.Errorf("warm run read %v, want %v (the changed file, to narrow it)", warmReads, want)
	}

	// Another change, of C, written now: b.go is scanned again (its time
	// is racy, its content new), and the answer follows the new content.
	edit(strings.Replace(tree["b/b.go"], "return 2", "return 22", 1), time.Now())
	plainG, plainD, _ = run("")
	warmG, warmD, _ = run(dir)
	if !reflect.DeepEqual(plainG, warmG) || !reflect.DeepEqual(plainD, warmD) {
		t.Errorf("after a change, graphs differ with the cache:\nplain %v\n%v\nwarm %v\n%v", plainG, plainD, warmG, warmD)
	}
	if !slices.Contains(plainD.Start, "go:example.com/m/b.C") || slices.Contains(plainD.Start, "go:example.com/m/b.B") {
		t.Errorf("narrowed to %v, want C", plainD.Start)
	}

	// A damaged store: every other byte of its second half flipped. The
	// damaged entries are scanned again; the answer is the same.
	path := cache.ScanPath(dir, root)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) / 2; i < len(data); i += 2 {
		data[i] ^= 0x5a
	}
	os.WriteFile(path, data, 0o644)
	damagedG, damagedD, damagedReads := run(dir)
	if !reflect.DeepEqual(plainG, damagedG) || !reflect.DeepEqual(plainD, damagedD) {
		t.Errorf("with a damaged store, graphs differ:\nplain %v\n%v\ndamaged %v\n%v", plainG, plainD, damagedG, damagedD)
	}
	if len(damagedReads) < 2 {
		t.Errorf("with a damaged store, read only %v", damagedReads)
	}
}

// BenchmarkDeclsScanOrCache compares cutting GOROOT's net/http files into
// declarations with decoding them from the scan cache's encoding, the
// work a warm `testdex affected` does instead:
//
//	go test ./internal/lang/golang -run '^$' -bench DeclsScanOrCache
func BenchmarkDeclsScanOrCache(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if len(files) == 0 {
		b.Skip("no GOROOT/src/net/http")
	}
	var srcs, encoded [][]byte
	size := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		encoded = append(encoded, encodeDecls(quickDecls(filepath.Base(f), src)))
		size += len(src)
	}
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for i, src := range srcs {
				quickDecls(files[i], src)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, data := range encoded {
				if _, ok := decodeDecls(data); !ok {
					b.Fatal("does not decode")
				}
			}
		}
	})
}
