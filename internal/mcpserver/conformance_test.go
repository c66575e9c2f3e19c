package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex/internal/mcpserver"
)

var update = flag.Bool("update", false, "rewrite the server section of testdata/conformance/*.txtar")

// TestConformance replays testdata/conformance/*.txtar: the files under
// root/ make the workspace root, the client section holds JSON-RPC
// messages sent one at a time (a request waits for its reply), and the
// server section holds every message the server sent, in order, with the
// root folder written $ROOT. Regenerate with
//
//	go test ./internal/mcpserver -run TestConformance -update
func TestConformance(t *testing.T) {
	files, _ := filepath.Glob("testdata/conformance/*.txtar")
	if len(files) == 0 {
		t.Fatal("no conformance files")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { conform(t, f) })
	}
}

func conform(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var client, want []byte
	for _, f := range ar.Files {
		switch {
		case f.Name == "client":
			client = f.Data
		case f.Name == "server":
			want = f.Data
		case strings.HasPrefix(f.Name, "root/"):
			p := filepath.Join(root, strings.TrimPrefix(f.Name, "root/"))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got := exchange(t, root, client)
	if *update {
		for i := range ar.Files {
			if ar.Files[i].Name == "server" {
				ar.Files[i].Data = got
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(normalize(t, want), normalize(t, got)) {
		t.Errorf("server replies differ (rerun with -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// exchange sends the client messages to a server over pipes, as the
// stdio transport carries them, and returns the server's messages
// indented, one after another.
func exchange(t *testing.T, root string, client []byte) []byte {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := mcpserver.Config{Root: root, CacheDir: t.TempDir(), Environ: os.Environ(), Jobs: 1}
	done := make(chan error, 1)
	go func() { done <- mcpserver.Serve(ctx, c, inR, outW); outW.Close() }()
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 16<<20)
	var got bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(client))
	for dec.More() {
		var msg json.RawMessage
		if err := dec.Decode(&msg); err != nil {
			t.Fatalf("client section: %v", err)
		}
		var compact bytes.Buffer
		json.Compact(&compact, msg)
		inW.Write(append(compact.Bytes(), '\n'))
		var head struct{ ID json.RawMessage }
		json.Unmarshal(msg, &head)
		for head.ID != nil && replies.Scan() {
			line := strings.ReplaceAll(replies.Text(), root, "$ROOT")
			var pretty bytes.Buffer
			json.Indent(&pretty, []byte(line), "", "\t")
			got.Write(append(pretty.Bytes(), '\n'))
			var reply struct{ ID json.RawMessage }
			json.Unmarshal([]byte(line), &reply)
			if bytes.Equal(reply.ID, head.ID) {
				break
			}
		}
	}
	inW.Close()
	<-done
	return got.Bytes()
}

// normalize re-indents a sequence of JSON values so formatting does not
// count.
func normalize(t *testing.T, data []byte) []byte {
	var out bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("server section: %v", err)
		}
		b, _ := json.MarshalIndent(v, "", "\t")
		out.Write(append(b, '\n'))
	}
	return out.Bytes()
}
