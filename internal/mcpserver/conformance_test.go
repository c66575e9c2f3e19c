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

// exchange sends the client lines to a server over pipes, as the stdio
// transport carries them, and returns the server's messages indented, one
// after another. Each line is sent as it is, so the client section can
// hold bad lines; after each line the server's messages are read up to
// the reply it calls for (see replyID).
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
	for _, line := range bytes.Split(client, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		inW.Write(append(line, '\n'))
		id := replyID(line)
		for id != nil && replies.Scan() {
			text := strings.ReplaceAll(replies.Text(), root, "$ROOT")
			var pretty bytes.Buffer
			json.Indent(&pretty, []byte(text), "", "\t")
			got.Write(append(pretty.Bytes(), '\n'))
			var reply struct{ ID json.RawMessage }
			json.Unmarshal([]byte(text), &reply)
			if bytes.Equal(reply.ID, id) || (reply.ID == nil && string(id) == "null") {
				break
			}
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	return got.Bytes()
}

// replyID is the id of the reply a client line calls for: its own id for
// a request (a string or number id), none (nil) for a notification or a
// response, and null for anything else, which the server refuses with an
// error whose id is null.
func replyID(line []byte) json.RawMessage {
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil {
		return json.RawMessage("null")
	}
	id := msg["id"]
	switch {
	case len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')):
		return id
	case msg["result"] != nil || msg["error"] != nil || (msg["method"] != nil && (id == nil || string(id) == "null")):
		return nil
	}
	return json.RawMessage("null")
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
