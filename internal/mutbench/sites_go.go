package mutbench

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
)

// goSites finds the mutation sites of one Go file with go/scanner (the
// operators, integer literals, true and false) and go/ast (return
// values): comments, strings and struct tags never hold one. A file that
// does not parse has none.
func goSites(file string, src []byte) []Site {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	tf := fset.File(f.Pos())
	out := goTokenSites(file, src)
	return append(out, goReturnSites(file, src, tf, f)...)
}

// goTokenSites scans the file's tokens. + and - are mutated only as binary
// operators: right after an operand.
func goTokenSites(file string, src []byte) []Site {
	fset := token.NewFileSet()
	tf := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(tf, src, nil, 0)
	var out []Site
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		off := tf.Offset(pos)
		add := func(old, to, op string) {
			out = append(out, Site{File: file, Line: tf.Line(pos), Off: off, Old: old, New: to, Op: op})
		}
		switch tok {
		case token.INT:
			if to, ok := bumpInt(lit); ok {
				add(lit, to, "const")
			}
		case token.IDENT:
			if lit == "true" || lit == "false" {
				add(lit, flips[lit].to, "bool")
			}
		case token.EQL, token.NEQ, token.LSS, token.GEQ, token.GTR, token.LEQ, token.LAND, token.LOR:
			f := flips[tok.String()]
			add(tok.String(), f.to, f.op)
		case token.ADD, token.SUB:
			if goOperand(prev) {
				add(tok.String(), flips[tok.String()].to, "arith")
			}
		}
		if tok != token.SEMICOLON || lit != "\n" { // an inserted semicolon is no token of the source
			prev = tok
		}
	}
}

func goOperand(t token.Token) bool {
	switch t {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING, token.RPAREN, token.RBRACK:
		return true
	}
	return false
}

// goReturnSites replaces the first value of a one-line `return X, ...` by
// the zero of the function's first result type: nil, "", 0, false, or
// *new(T) for any other T (which always compiles).
func goReturnSites(file string, src []byte, tf *token.File, f *ast.File) []Site {
	v := &returnVisitor{file: file, src: src, tf: tf}
	ast.Inspect(f, v.visit)
	return v.out
}

// returnVisitor walks a file keeping the stack of enclosing function
// types (declarations and literals), and adds the site of each return.
type returnVisitor struct {
	file  string
	src   []byte
	tf    *token.File
	stack []*ast.FuncType
	out   []Site
}

func (v *returnVisitor) visit(n ast.Node) bool {
	var ft *ast.FuncType
	var body *ast.BlockStmt
	switch n := n.(type) {
	case *ast.FuncDecl:
		ft, body = n.Type, n.Body
	case *ast.FuncLit:
		ft, body = n.Type, n.Body
	case *ast.ReturnStmt:
		if len(v.stack) > 0 {
			if s, ok := goReturnSite(v.file, v.src, v.tf, v.stack[len(v.stack)-1], n); ok {
				v.out = append(v.out, s)
			}
		}
		return true
	default:
		return true
	}
	if body != nil {
		v.stack = append(v.stack, ft)
		ast.Inspect(body, v.visit)
		v.stack = v.stack[:len(v.stack)-1]
	}
	return false
}

func goReturnSite(file string, src []byte, tf *token.File, ft *ast.FuncType, r *ast.ReturnStmt) (Site, bool) {
	if len(r.Results) == 0 || ft.Results == nil || len(ft.Results.List) == 0 {
		return Site{}, false
	}
	n := 0
	for _, fld := range ft.Results.List {
		n += max(1, len(fld.Names))
	}
	if len(r.Results) != n { // return f() of a function with several results
		return Site{}, false
	}
	x := r.Results[0]
	if tf.Line(x.Pos()) != tf.Line(x.End()) {
		return Site{}, false
	}
	typ := ft.Results.List[0].Type
	old := string(src[tf.Offset(x.Pos()):tf.Offset(x.End())])
	zero := goZero(typ, string(src[tf.Offset(typ.Pos()):tf.Offset(typ.End())]))
	if old == zero || old == "nil" {
		return Site{}, false
	}
	return Site{File: file, Line: tf.Line(x.Pos()), Off: tf.Offset(x.Pos()), Old: old, New: zero, Op: "return"}, true
}

// goZero is the zero value of the type expression typ, whose source text
// is text.
func goZero(typ ast.Expr, text string) string {
	switch t := typ.(type) {
	case *ast.StarExpr, *ast.MapType, *ast.FuncType, *ast.ChanType, *ast.InterfaceType:
		return "nil"
	case *ast.ArrayType:
		if t.Len == nil {
			return "nil"
		}
	case *ast.Ident:
		switch t.Name {
		case "error", "any":
			return "nil"
		case "string":
			return `""`
		case "bool":
			return "false"
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
			"uintptr", "byte", "rune", "float32", "float64":
			return "0"
		}
	}
	return "*new(" + text + ")"
}
