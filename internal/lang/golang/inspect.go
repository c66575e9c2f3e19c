package golang

import (
	"fmt"
	"go/ast"
)

// inspect is ast.Inspect without its calls of f with nil after each
// node's children: f(n) is called for every node in the same depth-first
// order as ast.Walk's (whose switch this one copies, $GOROOT/src/go/ast/walk.go),
// and n's children are visited only when it returns true. It does
// without ast.Walk's Visitor and its second call per node, which the
// extractor's scans of every test body paid for.
func inspect(node ast.Node, f func(ast.Node) bool) {
	if !f(node) {
		return
	}
	switch n := node.(type) {
	case *ast.Comment:
	case *ast.CommentGroup:
		for _, c := range n.List {
			inspect(c, f)
		}
	case *ast.Field:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		for _, c := range n.Names {
			inspect(c, f)
		}
		if n.Type != nil {
			inspect(n.Type, f)
		}
		if n.Tag != nil {
			inspect(n.Tag, f)
		}
		if n.Comment != nil {
			inspect(n.Comment, f)
		}
	case *ast.FieldList:
		for _, c := range n.List {
			inspect(c, f)
		}
	case *ast.BadExpr, *ast.Ident, *ast.BasicLit:
	case *ast.Ellipsis:
		if n.Elt != nil {
			inspect(n.Elt, f)
		}
	case *ast.FuncLit:
		inspect(n.Type, f)
		inspect(n.Body, f)
	case *ast.CompositeLit:
		if n.Type != nil {
			inspect(n.Type, f)
		}
		for _, c := range n.Elts {
			inspect(c, f)
		}
	case *ast.ParenExpr:
		inspect(n.X, f)
	case *ast.SelectorExpr:
		inspect(n.X, f)
		inspect(n.Sel, f)
	case *ast.IndexExpr:
		inspect(n.X, f)
		inspect(n.Index, f)
	case *ast.IndexListExpr:
		inspect(n.X, f)
		for _, c := range n.Indices {
			inspect(c, f)
		}
	case *ast.SliceExpr:
		inspect(n.X, f)
		if n.Low != nil {
			inspect(n.Low, f)
		}
		if n.High != nil {
			inspect(n.High, f)
		}
		if n.Max != nil {
			inspect(n.Max, f)
		}
	case *ast.TypeAssertExpr:
		inspect(n.X, f)
		if n.Type != nil {
			inspect(n.Type, f)
		}
	case *ast.CallExpr:
		inspect(n.Fun, f)
		for _, c := range n.Args {
			inspect(c, f)
		}
	case *ast.StarExpr:
		inspect(n.X, f)
	case *ast.UnaryExpr:
		inspect(n.X, f)
	case *ast.BinaryExpr:
		inspect(n.X, f)
		inspect(n.Y, f)
	case *ast.KeyValueExpr:
		inspect(n.Key, f)
		inspect(n.Value, f)
	case *ast.ArrayType:
		if n.Len != nil {
			inspect(n.Len, f)
		}
		inspect(n.Elt, f)
	case *ast.StructType:
		inspect(n.Fields, f)
	case *ast.FuncType:
		if n.TypeParams != nil {
			inspect(n.TypeParams, f)
		}
		if n.Params != nil {
			inspect(n.Params, f)
		}
		if n.Results != nil {
			inspect(n.Results, f)
		}
	case *ast.InterfaceType:
		inspect(n.Methods, f)
	case *ast.MapType:
		inspect(n.Key, f)
		inspect(n.Value, f)
	case *ast.ChanType:
		inspect(n.Value, f)
	case *ast.BadStmt:
	case *ast.DeclStmt:
		inspect(n.Decl, f)
	case *ast.EmptyStmt:
	case *ast.LabeledStmt:
		inspect(n.Label, f)
		inspect(n.Stmt, f)
	case *ast.ExprStmt:
		inspect(n.X, f)
	case *ast.SendStmt:
		inspect(n.Chan, f)
		inspect(n.Value, f)
	case *ast.IncDecStmt:
		inspect(n.X, f)
	case *ast.AssignStmt:
		for _, c := range n.Lhs {
			inspect(c, f)
		}
		for _, c := range n.Rhs {
			inspect(c, f)
		}
	case *ast.GoStmt:
		inspect(n.Call, f)
	case *ast.DeferStmt:
		inspect(n.Call, f)
	case *ast.ReturnStmt:
		for _, c := range n.Results {
			inspect(c, f)
		}
	case *ast.BranchStmt:
		if n.Label != nil {
			inspect(n.Label, f)
		}
	case *ast.BlockStmt:
		for _, c := range n.List {
			inspect(c, f)
		}
	case *ast.IfStmt:
		if n.Init != nil {
			inspect(n.Init, f)
		}
		inspect(n.Cond, f)
		inspect(n.Body, f)
		if n.Else != nil {
			inspect(n.Else, f)
		}
	case *ast.CaseClause:
		for _, c := range n.List {
			inspect(c, f)
		}
		for _, c := range n.Body {
			inspect(c, f)
		}
	case *ast.SwitchStmt:
		if n.Init != nil {
			inspect(n.Init, f)
		}
		if n.Tag != nil {
			inspect(n.Tag, f)
		}
		inspect(n.Body, f)
	case *ast.TypeSwitchStmt:
		if n.Init != nil {
			inspect(n.Init, f)
		}
		inspect(n.Assign, f)
		inspect(n.Body, f)
	case *ast.CommClause:
		if n.Comm != nil {
			inspect(n.Comm, f)
		}
		for _, c := range n.Body {
			inspect(c, f)
		}
	case *ast.SelectStmt:
		inspect(n.Body, f)
	case *ast.ForStmt:
		if n.Init != nil {
			inspect(n.Init, f)
		}
		if n.Cond != nil {
			inspect(n.Cond, f)
		}
		if n.Post != nil {
			inspect(n.Post, f)
		}
		inspect(n.Body, f)
	case *ast.RangeStmt:
		if n.Key != nil {
			inspect(n.Key, f)
		}
		if n.Value != nil {
			inspect(n.Value, f)
		}
		inspect(n.X, f)
		inspect(n.Body, f)
	case *ast.ImportSpec:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		if n.Name != nil {
			inspect(n.Name, f)
		}
		inspect(n.Path, f)
		if n.Comment != nil {
			inspect(n.Comment, f)
		}
	case *ast.ValueSpec:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		for _, c := range n.Names {
			inspect(c, f)
		}
		if n.Type != nil {
			inspect(n.Type, f)
		}
		for _, c := range n.Values {
			inspect(c, f)
		}
		if n.Comment != nil {
			inspect(n.Comment, f)
		}
	case *ast.TypeSpec:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		inspect(n.Name, f)
		if n.TypeParams != nil {
			inspect(n.TypeParams, f)
		}
		inspect(n.Type, f)
		if n.Comment != nil {
			inspect(n.Comment, f)
		}
	case *ast.BadDecl:
	case *ast.GenDecl:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		for _, c := range n.Specs {
			inspect(c, f)
		}
	case *ast.FuncDecl:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		if n.Recv != nil {
			inspect(n.Recv, f)
		}
		inspect(n.Name, f)
		inspect(n.Type, f)
		if n.Body != nil {
			inspect(n.Body, f)
		}
	case *ast.File:
		if n.Doc != nil {
			inspect(n.Doc, f)
		}
		inspect(n.Name, f)
		for _, c := range n.Decls {
			inspect(c, f)
		}
	default:
		panic(fmt.Sprintf("ast.Walk: unexpected node type %T", node))
	}
}
