package python

import (
	"runtime"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// hostPlatform is sys.platform on this host, "" where it is not certain
// (the BSDs carry a version: freebsd14).
var hostPlatform = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[runtime.GOOS]

// hostOSName is os.name on this host.
var hostOSName = map[bool]string{true: "nt", false: "posix"}[runtime.GOOS == "windows"]

// linuxAttrs are standard-library attributes whose presence is certain on
// Linux (CPython builds them there or never does): hasattr(module, name).
var linuxAttrs = map[string]bool{
	"select.kqueue": false, "select.kevent": false, "select.devpoll": false,
	"select.epoll": true, "select.poll": true,
	"selectors.KqueueSelector": false, "selectors.DevpollSelector": false,
	"selectors.EpollSelector": true, "selectors.PollSelector": true,
	"asyncio.ProactorEventLoop": false, "asyncio.SelectorEventLoop": true,
	"asyncio.WindowsSelectorEventLoopPolicy": false, "asyncio.WindowsProactorEventLoopPolicy": false,
	"os.startfile": false, "os.fork": true, "os.getuid": true, "os.geteuid": true, "os.getppid": true,
	"os.pipe": true, "os.mkfifo": true, "os.symlink": true, "os.link": true, "os.chown": true,
	"os.sched_getaffinity": true, "os.O_BINARY": false, "os.O_CLOEXEC": true,
	"signal.SIGALRM": true, "signal.SIGKILL": true, "signal.SIGUSR1": true, "signal.SIGCHLD": true,
	"signal.CTRL_C_EVENT": false, "signal.CTRL_BREAK_EVENT": false, "signal.pthread_kill": true,
	"signal.setitimer": true, "signal.siginterrupt": true,
	"socket.AF_UNIX": true, "socket.AF_INET6": true, "socket.socketpair": true,
	"time.tzset": true,
}

// hostCondition evaluates an if statement's condition as it would be on
// this host when it tests only the platform: sys.platform (==, !=, in,
// not in, startswith), os.name, and hasattr of a standard-library module
// whose answer is certain here, joined with not, and and or. known is
// false for anything else: both branches then stay.
func (w *evaluator) hostCondition(n *sitter.Node) (value, known bool) {
	n = unparen(n)
	switch n.Type() {
	case "not_operator":
		v, ok := w.hostCondition(n.ChildByFieldName("argument"))
		return !v, ok
	case "boolean_operator":
		l, lok := w.hostCondition(n.ChildByFieldName("left"))
		r, rok := w.hostCondition(n.ChildByFieldName("right"))
		op := w.text(n.ChildByFieldName("operator"))
		switch {
		case op == "and" && ((lok && !l) || (rok && !r)):
			return false, true
		case op == "or" && ((lok && l) || (rok && r)):
			return true, true
		case lok && rok && op == "and":
			return l && r, true
		case lok && rok && op == "or":
			return l || r, true
		}
	case "comparison_operator":
		return w.hostComparison(n)
	case "call":
		return w.hostCall(n)
	}
	return false, false
}

// hostString is the host's value of sys.platform or os.name, "" for any
// other expression or when the host's value is not certain.
func (w *evaluator) hostString(n *sitter.Node) string {
	n = unparen(n)
	if n.Type() != "attribute" {
		return ""
	}
	obj, attr := n.ChildByFieldName("object"), w.text(n.ChildByFieldName("attribute"))
	if obj == nil || obj.Type() != "identifier" || w.bindings[w.text(obj)] != 1 {
		return ""
	}
	switch w.facts.Imports[w.text(obj)] + "." + attr {
	case "sys.platform":
		return hostPlatform
	case "os.name":
		return hostOSName
	}
	return ""
}

// hostComparison evaluates PLATFORM == "x", != "x", in (...) and not in
// (...), either side first for == and !=.
func (w *evaluator) hostComparison(n *sitter.Node) (value, known bool) {
	if n.NamedChildCount() != 2 {
		return false, false
	}
	left, right := n.NamedChild(0), n.NamedChild(1)
	op := ""
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() {
			op = strings.TrimSpace(op + " " + c.Type())
		}
	}
	host := w.hostString(left)
	if host == "" && (op == "==" || op == "!=") {
		left, right = right, left
		host = w.hostString(left)
	}
	if host == "" {
		return false, false
	}
	var set []string
	switch op {
	case "==", "!=":
		v := w.value(right, 0)
		if !v.str || v.bytes || v.kind != vText {
			return false, false
		}
		set = []string{v.raw}
	case "in", "not in":
		r := unparen(right)
		if r.Type() != "tuple" && r.Type() != "list" && r.Type() != "set" {
			return false, false
		}
		for _, c := range children(r) {
			v := w.value(c, 0)
			if !v.str || v.bytes || v.kind != vText {
				return false, false
			}
			set = append(set, v.raw)
		}
	default:
		return false, false
	}
	in := slices.Contains(set, host)
	return in == (op == "==" || op == "in"), true
}

// hostCall evaluates sys.platform.startswith("x") (or a tuple of
// prefixes) and hasattr(module, "name") of a standard-library module.
func (w *evaluator) hostCall(n *sitter.Node) (value, known bool) {
	fn := unparen(n.ChildByFieldName("function"))
	args := children(n.ChildByFieldName("arguments"))
	switch {
	case fn.Type() == "attribute" && w.text(fn.ChildByFieldName("attribute")) == "startswith" && len(args) == 1:
		host := w.hostString(fn.ChildByFieldName("object"))
		if host == "" {
			return false, false
		}
		prefixes := []*sitter.Node{args[0]}
		if a := unparen(args[0]); a.Type() == "tuple" {
			prefixes = children(a)
		}
		for _, p := range prefixes {
			v := w.value(p, 0)
			if !v.str || v.bytes || v.kind != vText {
				return false, false
			}
			if strings.HasPrefix(host, v.raw) {
				return true, true
			}
		}
		return false, true
	case fn.Type() == "identifier" && w.text(fn) == "hasattr" && w.bindings["hasattr"] == 0 && len(args) == 2:
		if runtime.GOOS != "linux" || args[0].Type() != "identifier" || w.bindings[w.text(args[0])] != 1 {
			return false, false
		}
		v := w.value(args[1], 0)
		if !v.str || v.bytes || v.kind != vText {
			return false, false
		}
		has, ok := linuxAttrs[w.facts.Imports[w.text(args[0])]+"."+v.raw]
		return has, ok
	}
	return false, false
}

// hostBranches returns the parts of an if statement that may run on this
// host: a clause whose condition hostCondition knows false is left out,
// and the clauses after one it knows true. With no condition known, that
// is the whole statement.
func (w *evaluator) hostBranches(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	anyKnown := false
	clauses := []*sitter.Node{n}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		if c := n.NamedChild(i); c.Type() == "elif_clause" || c.Type() == "else_clause" {
			clauses = append(clauses, c)
		}
	}
	for _, c := range clauses {
		if c.Type() == "else_clause" {
			out = append(out, c)
			break
		}
		body := c.ChildByFieldName("consequence")
		v, known := w.hostCondition(c.ChildByFieldName("condition"))
		anyKnown = anyKnown || known
		if known && !v {
			continue
		}
		if body != nil {
			out = append(out, body)
		}
		if known {
			break
		}
	}
	if !anyKnown {
		return []*sitter.Node{n}
	}
	return out
}

// windowsModules are standard-library modules only Windows builds have.
var windowsModules = map[string]bool{"winreg": true, "_winreg": true, "msvcrt": true, "winsound": true,
	"_winapi": true, "msilib": true, "_msi": true, "_overlapped": true, "nt": true}

// skipsOnHost reports a module that skips itself on this host as it is
// imported, so that neither runner lists a test of it: at its top level
// (or in a with block there) an if statement whose condition
// hostCondition knows true and whose body raises unittest.SkipTest or
// calls pytest.skip(..., allow_module_level=True), an
// import_module("winreg") or pytest.importorskip("winreg") of a
// Windows-only module on another system, or test.support's
// get_attribute(os, "startfile") of an attribute Linux never has.
func (w *evaluator) skipsOnHost(root *sitter.Node) bool {
	for _, c := range children(root) {
		switch c.Type() {
		case "if_statement":
			v, known := w.hostCondition(c.ChildByFieldName("condition"))
			if body := c.ChildByFieldName("consequence"); known && v && body != nil && w.skipsModule(body) {
				return true
			}
		case "expression_statement":
			if w.importsWindowsModule(c) || w.getsAbsentAttribute(c) {
				return true
			}
		case "with_statement":
			if body := c.ChildByFieldName("body"); body != nil && w.skipsOnHost(body) {
				return true
			}
		}
	}
	return false
}

// getsAbsentAttribute reports a statement (or assignment) calling
// test.support's get_attribute(module, "name") for an attribute of a
// standard-library module that Linux builds never have: it raises
// SkipTest.
func (w *evaluator) getsAbsentAttribute(s *sitter.Node) bool {
	if runtime.GOOS != "linux" || s.NamedChildCount() == 0 {
		return false
	}
	call := unparen(s.NamedChild(0))
	if call.Type() == "assignment" {
		if call = call.ChildByFieldName("right"); call == nil {
			return false
		}
		call = unparen(call)
	}
	if call.Type() != "call" {
		return false
	}
	fn := w.resolve(w.text(call.ChildByFieldName("function")))
	args := children(call.ChildByFieldName("arguments"))
	if !strings.HasSuffix(fn, "support.get_attribute") || len(args) != 2 || args[0].Type() != "identifier" ||
		w.bindings[w.text(args[0])] != 1 {
		return false
	}
	v := w.value(args[1], 0)
	has, ok := linuxAttrs[w.facts.Imports[w.text(args[0])]+"."+v.raw]
	return v.isStr() && ok && !has
}

// skipsModule reports a block whose statements include a raise of
// SkipTest or a module-level pytest.skip.
func (w *evaluator) skipsModule(block *sitter.Node) bool {
	for _, s := range children(block) {
		var call *sitter.Node
		switch s.Type() {
		case "raise_statement":
			if s.NamedChildCount() > 0 {
				call = unparen(s.NamedChild(0))
			}
		case "expression_statement":
			if s.NamedChildCount() > 0 {
				call = unparen(s.NamedChild(0))
			}
		}
		if call == nil || call.Type() != "call" {
			continue
		}
		fn := w.text(call.ChildByFieldName("function"))
		last := fn[strings.LastIndex(fn, ".")+1:]
		if s.Type() == "raise_statement" && last == "SkipTest" {
			return true
		}
		if s.Type() == "expression_statement" && (fn == "pytest.skip" || (fn == "skip" && w.facts.Imports["skip"] == "pytest.skip")) &&
			strings.Contains(strings.Join(strings.Fields(w.text(call.ChildByFieldName("arguments"))), ""), "allow_module_level=True") {
			return true
		}
	}
	return false
}

// importsWindowsModule reports a statement (or assignment) calling
// import_module or importorskip on a Windows-only module while this host
// is not Windows: the call raises SkipTest.
func (w *evaluator) importsWindowsModule(s *sitter.Node) bool {
	if runtime.GOOS == "windows" || s.NamedChildCount() == 0 {
		return false
	}
	call := unparen(s.NamedChild(0))
	if call.Type() == "assignment" {
		if call = call.ChildByFieldName("right"); call == nil {
			return false
		}
		call = unparen(call)
	}
	if call.Type() != "call" {
		return false
	}
	fn := w.text(call.ChildByFieldName("function"))
	last := fn[strings.LastIndex(fn, ".")+1:]
	if last != "import_module" && last != "importorskip" {
		return false
	}
	if last == "import_module" && !strings.Contains(fn+"."+w.facts.Imports[fn], "import_helper") &&
		!strings.Contains(fn+"."+w.facts.Imports[fn], "support") {
		return false // importlib.import_module raises ImportError, not SkipTest
	}
	args := children(call.ChildByFieldName("arguments"))
	if len(args) == 0 {
		return false
	}
	v := w.value(args[0], 0)
	return v.isStr() && windowsModules[v.raw]
}
