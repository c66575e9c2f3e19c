package js

import (
	"runtime"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestHostFacts checks that a test under a condition on the host's
// platform or node version is listed as the runner on this host declares
// it, and that the condition stays unknown (both branches listed) where
// the file may bind process itself or reads the environment.
func TestHostFacts(t *testing.T) {
	saved := hostNodeVersion
	hostNodeVersion = func() string { return "20.11.1" }
	defer func() { hostNodeVersion = saved }()
	win := runtime.GOOS == "windows"
	pick := func(onWin, other string) string {
		if win {
			return onWin
		}
		return other
	}
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"const isWin = process.platform === 'win32';\nif (isWin) { it('win', () => {}) } else { it('posix', () => {}) }",
			[]string{pick("win", "posix")}},
		{"const os = require('os');\nif (os.platform() !== 'win32' && os.EOL === '\\n') it('posix', () => {})",
			[]string{pick("", "posix")}},
		{"import { EOL, platform } from 'node:os';\nit(`eol ${JSON.stringify(EOL)} ${platform() === process.platform}`, () => {})",
			[]string{pick(`eol "\r\n" true`, `eol "\n" true`)}},
		{"if (Number(process.versions.node.split('.')[0]) >= 18) { it('new', () => {}) } else { it('old', () => {}) }",
			[]string{"new"}},
		{"if (process.version.startsWith('v16')) it('16', () => {});\nit(process.version, () => {})",
			[]string{"v20.11.1"}},
		{"if (parseInt(process.versions.node, 10) < 20) it('old', () => {})", nil},
		// Unknown: the environment, and a file that may bind process.
		{"if (process.env.CI) { it('ci', () => {}) } else { it('local', () => {}) }", []string{"ci", "local"}},
		{"function f(process) { return process.platform }\nif (process.platform === 'nope') it('a', () => {})", []string{"a"}},
		{"const { platform } = process;\nif (process.platform === 'nope') it('a', () => {})", []string{"a"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestHostNodeVersionUnknown checks that without a node on the host a
// version check keeps both branches.
func TestHostNodeVersionUnknown(t *testing.T) {
	saved := hostNodeVersion
	hostNodeVersion = func() string { return "" }
	defer func() { hostNodeVersion = saved }()
	got := names(extract(t, testdex.Jest, "a.test.js", "if (process.version >= 'v18') { it('a', () => {}) } else { it('b', () => {}) }"))
	if strings.Join(got, "|") != "a|b" {
		t.Errorf("got %q, want both branches", got)
	}
}

// TestHostKey checks that the extractor's cache key names the host.
func TestHostKey(t *testing.T) {
	if k := ExtractorFor(testdex.Jest).CacheKey(); !strings.Contains(k, hostKey()) || !strings.HasPrefix(hostKey(), "host-") {
		t.Errorf("cache key %q does not name the host (%q)", k, hostKey())
	}
}

// TestPosixPath checks path.basename and path.extname against node's
// own answers (node 20, path.posix).
func TestPosixPath(t *testing.T) {
	for _, c := range [][3]string{
		{"a/b.js", ".js", "b"}, {".js", ".js", ""}, {"a/.js", ".js", ".js"}, {"b.js/", ".js", "b"},
		{"x", ".js", "x"}, {"a/b.test.js", ".js", "b.test"}, {"a/b.js", "js", "b."}, {"/", "", ""},
		{"", "", ""}, {"a//", "", "a"}, {"b.js", "b.js", ""},
	} {
		if got := posixBasename(c[0], c[1]); got != c[2] {
			t.Errorf("basename(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	for _, c := range [][2]string{
		{"a.js", ".js"}, {".bashrc", ""}, {"a.", "."}, {"a..", "."}, {"..", ""}, {".", ""},
		{"a/b.c/d", ""}, {"a.b.c", ".c"}, {".a.b", ".b"}, {"a/", ""}, {"...", "."}, {"a.js/", ".js"},
	} {
		if got := posixExtname(c[0]); got != c[1] {
			t.Errorf("extname(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
