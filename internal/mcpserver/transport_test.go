package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/mcpserver"
)

// TestBadLines sends testdex mcp's server, over pipes as stdio carries
// them, each line that used to end the process (exit 4), each followed by
// a ping that must be answered: the bad line gets its JSON-RPC error and
// the server goes on.
func TestBadLines(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"discover_tests","arguments":{"filter":"` +
		strings.Repeat("a", 17<<20) + `"}}}`
	for _, c := range []struct {
		name, line, want string
	}{
		{"truncated", `{`, `{"code":-32700,"id":null}`},
		{"empty batch", `[]`, `{"code":-32600,"id":null}`},
		{"batch", `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, `{"code":-32600,"id":null}`},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", `{"code":-32700,"id":null}`},
		{"not an object", `42`, `{"code":-32600,"id":null}`},
		{"not JSON-RPC 2.0", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, `{"code":-32600,"id":4}`},
		{"bad id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, `{"code":-32600,"id":null}`},
		{"unknown method", `{"jsonrpc":"2.0","id":5,"method":"tools/lint"}`, `{"code":-32601,"id":5}`},
		{"17 MB", huge, `{"code":-32600,"id":"huge"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := serve(t)
			s.send(t, c.line)
			if got := s.reply(t); got != c.want {
				t.Errorf("reply %s, want %s", got, c.want)
			}
			s.send(t, `{"jsonrpc":"2.0","id":"next","method":"ping"}`)
			if got := s.reply(t); got != `{"code":0,"id":"next"}` {
				t.Errorf("the ping after it: %s", got)
			}
		})
	}
}

// TestOversizedMessage checks the text of the error for a request over
// the limit.
func TestOversizedMessage(t *testing.T) {
	s := serve(t)
	s.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"`+strings.Repeat("x", 5<<20)+`"}}`)
	if !s.out.Scan() {
		t.Fatal("no reply")
	}
	want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: longer than 4194304 bytes, skipped (send less per request: fewer ids or paths)"}}`
	if got := s.out.Text(); got != want {
		t.Errorf("reply\n%s\nwant\n%s", got, want)
	}
}

type session struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

// serve starts a server over pipes and initializes it.
func serve(t *testing.T) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	s.out.Buffer(nil, 1<<20)
	go func() {
		s.done <- mcpserver.Serve(context.Background(), mcpserver.Config{Root: t.TempDir()}, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		if err := <-s.done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	s.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if got := s.reply(t); got != `{"code":0,"id":0}` {
		t.Fatalf("initialize: %s", got)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// send writes a line in the background, as the server reads it, so a
// line larger than any buffer does not block the test. A line the server
// never reads shows as a missing reply.
func (s *session) send(_ *testing.T, line string) {
	go io.WriteString(s.in, line+"\n")
}

// reply reads the next message and returns its error code (0 for a
// result) and id, as {"code":N,"id":ID}.
func (s *session) reply(t *testing.T) string {
	t.Helper()
	if !s.out.Scan() {
		t.Fatalf("no reply: %v", s.out.Err())
	}
	var msg struct {
		ID    json.RawMessage
		Error *struct{ Code int }
	}
	if err := json.Unmarshal(s.out.Bytes(), &msg); err != nil {
		t.Fatalf("reply %s: %v", s.out.Bytes(), err)
	}
	code := 0
	if msg.Error != nil {
		code = msg.Error.Code
	}
	if msg.ID == nil {
		msg.ID = json.RawMessage("null")
	}
	return fmt.Sprintf(`{"code":%d,"id":%s}`, code, bytes.TrimSpace(msg.ID))
}
