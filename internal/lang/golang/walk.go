package golang

import (
	"go/ast"
	"go/token"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// flow is how a walked statement list ends, as far as it is certain.
type flow int

const (
	flowNormal flow = iota
	flowBreak
	flowContinue
	flowReturn
)

// frame is the test whose body is being walked: the variable that holds
// its *testing.T (B, F), its full name and its record.
type frame struct {
	tvar   string
	parent string
	run    string
	rec    int  // index of the test's record in fileCtx.out
	fuzz   bool // tvar is a *testing.F: f.Add seeds, no t.Run
	seeds  *seedState
	skip   bool // the test is skipped: records under it inherit Skip
	// rowLine is the line of the table row being unrolled, which is where
	// a subtest named from it is declared; 0 outside tables.
	rowLine int
	// dynamic: inside a loop over unknown data, every t.Run is a Dynamic
	// record; uncertain: inside a branch that may not run.
	dynamic, uncertain bool
	// callLine is the line of the outermost helper call being inlined
	// (or of its table row), which records made inside the helper take;
	// 0 outside helpers. helper is the innermost helper's name.
	callLine int
	helper   string
}

// seedState counts the f.Add seeds of one fuzz target.
type seedState struct {
	n       int
	dynamic bool // a seed of unknown position was seen: no more static seeds
	done    bool // f.Fuzz was called: later f.Add calls are no-ops
}

// testFunc records one test function and walks its body.
func (x *fileCtx) testFunc(fn *ast.FuncDecl, kind testdex.Kind) {
	name := fn.Name.Name
	x.budget = maxSteps
	fr := &frame{parent: name, run: runPattern(name), rec: len(x.out), fuzz: kind == testdex.KindFuzz}
	x.add(lang.Test{Kind: kind, Name: name, Line: x.line(fn.Pos()), Run: fr.run})
	if fn.Body == nil || fn.Type.Params == nil || len(fn.Type.Params.List) != 1 {
		return
	}
	env := newScope(x.main.pkg, true)
	env.fr = fr
	if names := fn.Type.Params.List[0].Names; len(names) == 1 {
		fr.tvar = names[0].Name
		env.bind(fr.tvar, nil)
	}
	if fr.fuzz {
		fr.seeds = &seedState{}
	} else if x.quiet(fn.Body) || x.calls(fn.Body)&(hasRun|hasSkip|hasHelper) == 0 {
		// No t.Run, f.Add or Skip anywhere in it: the walk could find
		// nothing to record, and most test functions are like this, so
		// it is not made (a fifth of a cold listing's CPU on GOROOT).
		return
	}
	x.walkStmts(fn.Body.List, env, fr)
}

// line is the line of p in the main file, 0 when p lies in another file
// of the package (an inlined helper's).
func (x *fileCtx) line(p token.Pos) int {
	if !x.inMain(p) {
		return 0
	}
	return x.fset.Position(p).Line
}

// inMain reports whether p lies in the file being extracted.
func (x *fileCtx) inMain(p token.Pos) bool {
	return x.tfile != nil && int(p) >= x.tfile.Base() && int(p) <= x.tfile.Base()+x.tfile.Size()
}

// walkStmts walks a statement list in execution order.
func (x *fileCtx) walkStmts(list []ast.Stmt, env *scope, fr *frame) flow {
	for _, s := range list {
		if x.budget--; x.budget < 0 {
			if x.budget == -1 {
				x.problems = append(x.problems, x.stopProblem(s.Pos(), fr))
			}
			return flowReturn
		}
		if f := x.walkStmt(s, env, fr); f != flowNormal {
			return f
		}
	}
	return flowNormal
}

// walkStmt walks one statement, finding t.Run and f.Add calls and keeping
// the bindings that name expressions may use up to date.
func (x *fileCtx) walkStmt(s ast.Stmt, env *scope, fr *frame) flow {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if x.isSkip(s.X, fr) && !fr.dynamic && !fr.uncertain {
			fr.skip = true
			x.out[fr.rec].Skip = true
		}
		x.scan(s.X, env, fr)
	case *ast.AssignStmt:
		x.assignStmt(s, env, fr)
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		x.assignOp(s.X, op, cvalOne, env)
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			x.declareLocal(env, g)
		}
	case *ast.BlockStmt:
		return x.walkStmts(s.List, newScope(env, false), fr)
	case *ast.LabeledStmt:
		return x.walkStmt(s.Stmt, env, fr)
	case *ast.IfStmt:
		return x.ifStmt(s, env, fr)
	case *ast.RangeStmt:
		return x.rangeStmt(s, env, fr)
	case *ast.ForStmt:
		return x.forStmt(s, env, fr)
	case *ast.TypeSwitchStmt:
		if f, ok := x.typeSwitch(s, env, fr); ok {
			return f
		}
		x.clauses(s, env, fr)
	case *ast.SwitchStmt, *ast.SelectStmt:
		x.clauses(s, env, fr)
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			x.scan(r, env, fr)
		}
		return flowReturn
	case *ast.BranchStmt:
		return branchFlow(s)
	}
	return flowNormal
}

// branchFlow maps break and continue of the innermost loop; a labelled
// branch or a goto ends the walk of the current list.
func branchFlow(s *ast.BranchStmt) flow {
	switch {
	case s.Tok == token.FALLTHROUGH:
		return flowNormal
	case s.Label != nil || s.Tok == token.GOTO:
		return flowReturn
	case s.Tok == token.BREAK:
		return flowBreak
	}
	return flowContinue
}

// isSkip reports whether e is tvar.Skip(...), tvar.Skipf(...) or
// tvar.SkipNow().
func (x *fileCtx) isSkip(e ast.Expr, fr *frame) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	name := methodOf(call, fr.tvar)
	return name == "Skip" || name == "Skipf" || name == "SkipNow"
}

// methodOf returns M when call is recv.M(...), "" otherwise.
func methodOf(call *ast.CallExpr, recv string) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || recv == "" {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == recv {
		return sel.Sel.Name
	}
	return ""
}

// ifStmt walks only the branch a constant condition selects; with an
// unknown condition both branches are walked as uncertain.
func (x *fileCtx) ifStmt(s *ast.IfStmt, env *scope, fr *frame) flow {
	env = newScope(env, false)
	if s.Init != nil {
		x.walkStmt(s.Init, env, fr)
	}
	x.scan(s.Cond, env, fr)
	if c, ok := boolOf(x.eval(s.Cond, env, nil)); ok {
		if c {
			return x.walkStmts(s.Body.List, newScope(env, false), fr)
		}
		if s.Else != nil {
			return x.walkStmt(s.Else, env, fr)
		}
		return flowNormal
	}
	u := *fr
	u.uncertain = true
	at := x.names.mark()
	if x.walkStmts(s.Body.List, newScope(env, true), &u) == flowReturn && s.Else == nil {
		// if cond { ...; return }: what follows runs only when the
		// branch did not, so subtests it starts are named as if the
		// branch's had not been (runWithFIPSDisabled's two
		// t.Run("no-fips140tls") are one name); a subtest both start
		// is one record (run).
		x.names.rollback(at)
		return flowNormal
	}
	x.names.keep(at)
	if s.Else != nil {
		x.walkStmt(s.Else, newScope(env, true), &u)
	}
	return flowNormal
}

// clauses walks every clause of a switch or select as uncertain.
func (x *fileCtx) clauses(s ast.Stmt, env *scope, fr *frame) {
	env = newScope(env, false)
	var body *ast.BlockStmt
	switch s := s.(type) {
	case *ast.SwitchStmt:
		if s.Init != nil {
			x.walkStmt(s.Init, env, fr)
		}
		body = s.Body
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			x.walkStmt(s.Init, env, fr)
		}
		body = s.Body
	case *ast.SelectStmt:
		body = s.Body
	}
	if body == nil {
		return
	}
	u := *fr
	u.uncertain = true
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			x.walkStmts(c.Body, newScope(env, true), &u)
		case *ast.CommClause:
			x.walkStmts(c.Body, newScope(env, true), &u)
		}
	}
}
