package watch

import (
	"reflect"
	"strings"
	"testing"
)

func feedAll(k *keyReader, s string) ([]key, string) {
	var keys []key
	var echo strings.Builder
	for i := 0; i < len(s); i++ {
		got, ok, e := k.feed(s[i])
		echo.WriteString(e)
		if ok {
			keys = append(keys, got)
		}
	}
	return keys, echo.String()
}

func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []key
	}{
		{"a", []key{{cmd: cmdAll}}},
		{"f\r", []key{{cmd: cmdFailed}, {cmd: cmdRerun}}},
		{"\n", []key{{cmd: cmdRerun}}},
		{"q", []key{{cmd: cmdQuit}}},
		{"\x03", []key{{cmd: cmdQuit}}},
		{"h?", []key{{cmd: cmdHelp}, {cmd: cmdHelp}}},
		{"xyzAQ", nil}, // unbound keys do nothing
		{"tsquare\r", []key{{cmd: cmdName, pattern: "square"}}},
		{"pcalc/\r", []key{{cmd: cmdPath, pattern: "calc/"}}},
		{"t\r", []key{{cmd: cmdName}}},                            // empty clears
		{"tabx\x7f\x7fc\r", []key{{cmd: cmdName, pattern: "ac"}}}, // backspace
		{"t\x7f\x7fq\r", []key{{cmd: cmdName, pattern: "q"}}},     // backspace on empty; q is text in a prompt
		{"tfoo\x1ba", []key{{cmd: cmdCancel}, {cmd: cmdAll}}},     // Esc leaves the prompt
		{"p\x03", []key{{cmd: cmdQuit}}},                          // Ctrl-C quits from a prompt
		{"\x1b[A", nil},                                           // an arrow key outside a prompt
	} {
		var k keyReader
		got, _ := feedAll(&k, tc.in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestKeysEcho(t *testing.T) {
	var k keyReader
	_, echo := feedAll(&k, "tab\x7f\r")
	if !strings.HasSuffix(echo, "ab\b \b\n") || !strings.Contains(echo, "test name") {
		t.Errorf("echo %q", echo)
	}
}

func TestReadKeys(t *testing.T) {
	out := make(chan key, 10)
	stop := make(chan struct{})
	var echo strings.Builder
	readKeys(strings.NewReader("atx\rq"), out, func(s string) { echo.WriteString(s) }, stop)
	close(out)
	var got []key
	for k := range out {
		got = append(got, k)
	}
	want := []key{{cmd: cmdAll}, {cmd: cmdName, pattern: "x"}, {cmd: cmdQuit}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestJunk(t *testing.T) {
	for name, want := range map[string]bool{
		"a/.#calc.go": true, "a/#calc.go#": true, "calc.go~": true, ".calc.go.swp": true, ".calc.go.swx": true,
		"4913": true, "x/calc.go___jb_tmp___": true, "calc.go.tmp": true,
		"calc.go": false, "test_x.py": false, "a/.gitignore": false, "49130": false, ".swp": false,
	} {
		if got := junk(name); got != want {
			t.Errorf("junk(%q) = %v, want %v", name, got, want)
		}
	}
}
