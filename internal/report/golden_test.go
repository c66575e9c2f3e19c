package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/run"
)

// The golden files: each event stream testdata/NAME.jsonl replayed into
// the text view (NAME.txt, NAME.color.txt, NAME.verbose.txt) and JUnit
// (NAME.junit.xml).
//
// recorded.jsonl is a real run of the projects in testdata/src (Go,
// pytest, and a Go module that does not compile), recorded from the
// repository's root with
//
//	go run ./cmd/testdex run --json --root internal/report/testdata/src > internal/report/testdata/recorded.jsonl
//
// edge.jsonl is written by hand for what a small real run rarely shows at
// once: control characters in IDs and messages, a failing suite with and
// without a message of its own, a runtime-only test, a timeout with a
// leaked process, a missing toolchain.
//
// After a deliberate change of a view, regenerate them with
//
//	go test ./internal/report -run Golden -update
func TestGolden(t *testing.T) {
	streams, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(streams) == 0 {
		t.Fatalf("no streams in testdata: %v", err)
	}
	views := []struct {
		suffix string
		render func([]testdex.Event) []byte
	}{
		{".txt", textView(Text{})},
		{".color.txt", textView(Text{Color: true})},
		{".verbose.txt", textView(Text{Verbose: true})},
		{".junit.xml", junitView},
	}
	for _, stream := range streams {
		events := readStream(t, stream)
		base := strings.TrimSuffix(stream, ".jsonl")
		for _, v := range views {
			t.Run(filepath.Base(base)+v.suffix, func(t *testing.T) {
				got := v.render(events)
				if !strings.Contains(v.suffix, "color") && bytes.IndexByte(got, 0x1b) >= 0 {
					t.Errorf("a plain view holds an ESC byte")
				}
				golden.Check(t, base+v.suffix, got)
			})
		}
	}
}

func readStream(t *testing.T, path string) []testdex.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []testdex.Event
	if err := ReadJSON(f, func(e testdex.Event) error { events = append(events, e); return nil }); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return events
}

// textView renders a stream as `testdex run` does: the events, then the
// closing lines of the stream's summary.
func textView(opts Text) func([]testdex.Event) []byte {
	return func(events []testdex.Event) []byte {
		var b bytes.Buffer
		tx := opts
		tx.W = &b
		sum := run.NewSummary()
		for _, e := range events {
			tx.Event(e)
			sum.Event(e)
		}
		sum.Finish()
		tx.Summary(sum, 5*time.Second)
		return b.Bytes()
	}
}

func junitView(events []testdex.Event) []byte {
	var j JUnit
	for _, e := range events {
		j.Event(e)
	}
	var b bytes.Buffer
	j.WriteTo(&b)
	return b.Bytes()
}
