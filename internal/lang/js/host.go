package js

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
	"github.com/testdex/testdex/internal/proc"
)

// What a test file reads of the host it runs on is evaluated for the host
// the listing runs on, as the runner there would see it: the platform
// (process.platform, os.platform(), os.type(), os.EOL), node's version
// (process.version, process.versions.node) and its HTTP methods
// (http.METHODS, which Express names tests by), so that a test under
// if (process.platform === 'win32') is not listed on Linux, where the
// runner does not declare it. Environment variables stay unknown: a CI
// run's environment is not the listing's. Node's version and methods are
// asked of the node on PATH (node --version, and a fixed script printing
// http.METHODS, each once per process and only when a file reads it: node
// is the toolchain, not the project's code), and the extractor's
// cache key names that binary, so a listing cached under one node is not
// read under another.

// hostPlatform is process.platform on this host, "" where it is not
// certain.
var hostPlatform = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32",
	"freebsd": "freebsd", "openbsd": "openbsd", "aix": "aix"}[runtime.GOOS]

// hostOSType is os.type() on this host, "" where it is not certain.
var hostOSType = map[string]string{"linux": "Linux", "darwin": "Darwin", "windows": "Windows_NT"}[runtime.GOOS]

// hostEOL is os.EOL on this host.
var hostEOL = map[bool]string{true: "\r\n", false: "\n"}[runtime.GOOS == "windows"]

// hostNodeVersion returns the version of the node on PATH without its
// "v" (20.11.1), "" when there is none or it does not answer; tests
// replace it.
var hostNodeVersion = nodeVersion

// hostHTTPMethods returns http.METHODS of the node on PATH (upper case,
// as node sorts them), nil when there is none or it does not answer;
// tests replace it.
var hostHTTPMethods = nodeMethods

// nodeAnswer is one question's answer from node, asked once.
type nodeAnswer struct {
	sync.Once
	out string
}

var nodeOnce, methodsOnce nodeAnswer

// askNode runs the node on PATH once per process with args (10 s at
// most), in a temporary folder and without NODE_OPTIONS (which could load
// a module of the project), and returns its standard output, "" when it
// fails.
func askNode(once *nodeAnswer, args ...string) string {
	once.Do(func() {
		bin, err := exec.LookPath("node")
		if err != nil {
			return
		}
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "NODE_OPTIONS=") {
				env = append(env, kv)
			}
		}
		res, err := proc.Run(context.Background(), proc.Spec{Args: append([]string{bin}, args...), Dir: os.TempDir(), Env: env, Timeout: 10 * time.Second})
		if err == nil && res.ExitCode == 0 {
			once.out = string(res.Stdout)
		}
	})
	return once.out
}

// nodeVersion asks node --version.
func nodeVersion() string {
	v := strings.TrimSpace(askNode(&nodeOnce, "--version"))
	if !strings.HasPrefix(v, "v") || strings.ContainsAny(v, " \n") {
		return ""
	}
	return v[1:]
}

// nodeMethods asks node for http.METHODS, a script that loads no module
// but node's own; only a file that reads them asks.
func nodeMethods() []string {
	var ms []string
	out := askNode(&methodsOnce, "-e", `console.log(JSON.stringify(require("http").METHODS))`)
	if json.Unmarshal([]byte(out), &ms) != nil || len(ms) == 0 {
		return nil
	}
	for _, m := range ms {
		if m == "" || strings.ToUpper(m) != m || strings.ContainsAny(m, " \n") {
			return nil
		}
	}
	return ms
}

var hostKeyOnce struct {
	sync.Once
	key string
}

// hostKey names, for the extractor's cache key, what the evaluation reads
// of the host: its platform and the node binary on PATH (path, size and
// time of change), found without running it.
func hostKey() string {
	hostKeyOnce.Do(func() {
		h := fnv.New64a()
		fmt.Fprint(h, runtime.GOOS)
		if bin, err := exec.LookPath("node"); err == nil {
			if st, err := os.Stat(bin); err == nil {
				fmt.Fprint(h, bin, st.Size(), st.ModTime().UnixNano())
			}
		}
		hostKeyOnce.key = fmt.Sprintf("host-%016x", h.Sum64())
	})
	return hostKeyOnce.key
}

// hostFact is the value of an expression reading the host: process.platform,
// process.version, process.versions.node, os.EOL, EOL imported from os,
// http.METHODS (METHODS imported from http), os.platform() and os.type(); or the project's files, through
// folderValue (a folder's entries, a computed require). ok is false for
// anything else, or where the file may bind process itself.
func (w *walker) hostFact(n *sitter.Node) (value, bool) {
	switch n.Type() {
	case "identifier":
		if b, ok := w.builtinBindings()[w.text(n)]; ok && b.member != "" && !w.localBinding(n) {
			return hostMember(b.mod, b.member)
		}
	case "member_expression":
		obj, prop := n.ChildByFieldName("object"), n.ChildByFieldName("property")
		if obj == nil || prop == nil || optional(n) {
			return value{}, false
		}
		switch p := w.text(prop); {
		case obj.Type() == "identifier" && w.text(obj) == "process" && w.globalProcess():
			switch p {
			case "platform":
				return str(hostPlatform), hostPlatform != ""
			case "version":
				v := hostNodeVersion()
				return str("v" + v), v != ""
			}
		case p == "node" && obj.Type() == "member_expression" && obj.EndByte()-obj.StartByte() == 16 &&
			w.text(obj) == "process.versions" && w.globalProcess():
			v := hostNodeVersion()
			return str(v), v != ""
		case p == "EOL" || p == "METHODS":
			return hostMember(w.builtinCall(n))
		}
	case "call_expression":
		fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
		if fn == nil || args == nil || args.Type() != "arguments" {
			return value{}, false
		}
		if args.NamedChildCount() != 0 {
			if v, ok := w.pathCall(fn, args); ok {
				return v, true
			}
			return w.folderValue(n)
		}
		switch mod, name := w.builtinCall(fn); {
		case mod != "os":
		case name == "platform":
			return str(hostPlatform), hostPlatform != ""
		case name == "type":
			return str(hostOSType), hostOSType != ""
		}
	}
	return value{}, false
}

// hostMember is the value of a node module's member that the host
// decides: os.EOL and http.METHODS.
func hostMember(mod, name string) (value, bool) {
	switch {
	case mod == "os" && name == "EOL":
		return str(hostEOL), true
	case mod == "http" && name == "METHODS":
		ms := hostHTTPMethods()
		if ms == nil {
			return value{}, false
		}
		v := value{kind: kArray, arr: make([]value, len(ms))}
		for i, m := range ms {
			v.arr[i] = str(m)
		}
		return v, true
	}
	return value{}, false
}

// globalProcess reports whether every identifier process in the file is
// the object of a member access (process.x): nothing in it declares,
// binds or passes on a name process, so each process is the global.
func (w *walker) globalProcess() bool {
	if w.processBound == 0 {
		w.processBound = 1
		q, err := cachedQuery(w.lang, `(identifier) @i (shorthand_property_identifier_pattern) @i (shorthand_property_identifier) @i`)
		if err != nil {
			w.processBound = 2
			return false
		}
		for c := range tsgrammars.CaptureNodes(q, w.root) {
			if w.text(c) != "process" {
				continue
			}
			p := c.Parent()
			if c.Type() != "identifier" || p == nil || p.Type() != "member_expression" || !same(p.ChildByFieldName("object"), c) {
				w.processBound = 2
				break
			}
		}
	}
	return w.processBound == 1
}

// hostValue is w.host(n), when the walker set it.
func (w *evaluator) hostValue(n *sitter.Node) (value, bool) {
	if w.host == nil {
		return value{}, false
	}
	return w.host(n)
}
