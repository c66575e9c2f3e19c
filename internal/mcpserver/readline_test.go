package mcpserver

import (
	"fmt"
	"testing"
)

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
