package mcpserver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadLine reads lines around the limit (10 bytes) through a 16-byte
// buffer, whole and one byte at a time: a line over the limit is marked
// long and cut, the line after it is intact.
func TestReadLine(t *testing.T) {
	input := "abc\n" + "0123456789\n" + "0123456789X\n" + strings.Repeat("y", 100) + "\n" + "\n" + "a\r\n" + "last"
	want := []string{"abc", "0123456789", "0123456789 long", "yyyyyyyyyy long", "", "a\r", "last"}
	for name, r := range map[string]io.Reader{"whole": strings.NewReader(input), "bytes": iotest.OneByteReader(strings.NewReader(input))} {
		br := bufio.NewReaderSize(r, 16)
		var got []string
		for {
			line, long, err := readLine(br, 10)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			s := string(line)
			if long {
				s += " long"
			}
			got = append(got, s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestLeadingID finds the id of a request cut short, when it comes before
// the cut.
func TestLeadingID(t *testing.T) {
	for prefix, want := range map[string]string{
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"aaa`: "12",
		`{"jsonrpc":"2.0","id":"a\"b","params":[1,2`:                        `"a\"b"`,
		`{"jsonrpc":"2.0","params":{"x":"aaa`:                               "",
		`{"jsonrpc":"2.0","id":null,"params":{"x":"aaa`:                     "",
		`{"jsonrpc":"2.0","id":{"x":1},"params":`:                           "",
		`[{"id":3`: "",
	} {
		if got := string(leadingID([]byte(prefix))); got != want {
			t.Errorf("leadingID(%s) = %s, want %s", prefix, got, want)
		}
	}
}

// TestErrorReply writes id null when the id is unknown.
func TestErrorReply(t *testing.T) {
	got := fmt.Sprintf("%s\n%s", errorReply(nil, -32700, "parse error: x"), errorReply([]byte(`"a"`), -32600, "invalid request: y"))
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: x"}}` + "\n" +
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"invalid request: y"}}`
	if got != want {
		t.Errorf("%s\nwant\n%s", got, want)
	}
}
