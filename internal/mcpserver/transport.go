package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/lines"
)

// maxRequest bounds one incoming line. The largest real request is a
// run_tests call with some thousand IDs, well under a megabyte.
const maxRequest = 4 << 20

// lineTransport carries newline-delimited JSON-RPC over a reader and a
// writer, as mcp.IOTransport does, except that a bad line ends nothing
// (the SDK's transport ends the session, and testdex mcp exited 4):
//
//   - a line that is not UTF-8 or not one JSON value gets a -32700 parse
//     error;
//   - a JSON value that is not one JSON-RPC message (an array, a batch, a
//     message without "jsonrpc": "2.0" or with a bad id) gets -32600
//     invalid request; batches are refused, as MCP 2025-06-18 removed them;
//   - a line longer than max bytes gets -32600 and is skipped, read to its
//     end without being kept in memory;
//
// and the next line is read. The error reply carries the request's id
// when the line gives it (an invalid or oversized request) and null
// otherwise, as JSON-RPC 2.0 says. Blank lines are skipped. Neither the
// reader nor the writer is closed.
type lineTransport struct {
	r   io.Reader
	w   io.Writer
	max int // bytes per line; <= 0 means maxRequest

	mu   sync.Mutex
	conn *lineConn // the connection, once connected
}

// drain waits until every request read has been answered, or until
// timeout; it reports whether none is left unanswered.
func (t *lineTransport) drain(timeout time.Duration) bool {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return true
	}
	deadline := time.Now().Add(timeout)
	for c.pending.Load() > 0 && !c.ended.Load() { // after the input's end the SDK cancels what runs and answers nothing
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// Connect starts reading lines.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.max
	if limit <= 0 {
		limit = maxRequest
	}
	c := &lineConn{w: t.w, incoming: make(chan readResult), closed: make(chan struct{})}
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	go c.readLoop(bufio.NewReaderSize(t.r, 64<<10), limit)
	return c, nil
}

// lineConn is lineTransport's connection. A goroutine reads the lines so
// that Close unblocks Read while the reader blocks (as in the SDK, that
// goroutine stays in the reader until it returns).
type lineConn struct {
	wmu sync.Mutex // each message is one Write, whole
	w   io.Writer

	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once

	// pending counts the requests read and not yet answered, for a
	// shutdown that answers them first (lineTransport.drain); ended is
	// set when the input ended.
	pending atomic.Int64
	ended   atomic.Bool
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// readLoop hands each good message to Read and answers each bad line
// itself. It ends at the end of the input, on a read or write error
// (which ends the session), or when the connection is closed.
func (c *lineConn) readLoop(r *bufio.Reader, limit int) {
	for {
		line, long, err := lines.ReadLine(r, limit)
		if err != nil {
			c.ended.Store(true)
			c.deliver(readResult{err: err})
			return
		}
		msg, reply := decodeLine(line, long, limit)
		if reply != nil {
			if err := c.writeLine(reply); err != nil {
				c.deliver(readResult{err: err})
				return
			}
			continue
		}
		if msg != nil && !c.deliver(readResult{msg: msg}) {
			return
		}
	}
}

func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// Read returns the next good message.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		if req, ok := r.msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.pending.Add(1)
		}
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write writes msg as one line.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode JSON-RPC message: %w", err)
	}
	err = c.writeLine(data)
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.pending.Add(-1)
	}
	return err
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// Close stops reading; it may be called more than once.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: a stdio connection has no session ID.
func (c *lineConn) SessionID() string { return "" }

// decodeLine decodes one line: a message, a reply to write instead (the
// line is bad), or neither (a blank line).
func decodeLine(line []byte, long bool, limit int) (jsonrpc.Message, []byte) {
	if long {
		return nil, errorReply(leadingID(line), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("invalid request: longer than %d bytes, skipped (send less per request: fewer ids or paths)", limit))
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !utf8.Valid(line) {
		return nil, errorReply(nil, jsonrpc.CodeParseError, "parse error: the line is not valid UTF-8")
	}
	var v json.RawMessage
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, errorReply(nil, jsonrpc.CodeParseError, "parse error: "+err.Error()+" (send one JSON-RPC message per line)")
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "invalid request: a JSON array (a batch) is not supported; send one JSON-RPC message per line")
	default:
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorReply(requestID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return msg, nil
}

// errorReply is a JSON-RPC error response; id nil is written null (the
// SDK's encoder would leave it out).
func errorReply(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	return data
}

// requestID is the id of a JSON object, when it is a string or a number.
func requestID(obj []byte) json.RawMessage {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(obj, &head) // a field that does not decode leaves ID nil
	return validID(head.ID)
}

// leadingID is the id of a JSON object of which only prefix was kept,
// when "id" comes before the first value the cut broke (as clients write
// it: jsonrpc, id, method, then params).
func leadingID(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil
		}
		if key == "id" {
			return validID(val)
		}
	}
	return nil
}

// validID returns raw when it is a JSON-RPC id (a string or a number).
func validID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || (raw[0] != '"' && raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return nil
	}
	return raw
}
