package golang

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// bodyOnly reports whether two versions of a Go file differ only inside
// the bodies of their function declarations (comments and layout aside).
// Such a change cannot change what the package declares, so no other
// package's type check can change with it: only the package's own can.
// A version that does not parse is no body-only change.
func bodyOnly(old, cur []byte) bool {
	a, ok := outsideBodies(old)
	if !ok {
		return false
	}
	b, ok := outsideBodies(cur)
	if !ok || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// outsideBodies returns a file's tokens outside function declarations'
// bodies (their braces kept), without comments; false when it does not
// parse.
func outsideBodies(src []byte) ([]string, bool) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	tf := fset.File(af.Package)
	var bodies [][2]int // offsets inside the braces
	for _, d := range af.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			bodies = append(bodies, [2]int{tf.Offset(fd.Body.Lbrace) + 1, tf.Offset(fd.Body.Rbrace)})
		}
	}
	var s scanner.Scanner
	s.Init(token.NewFileSet().AddFile("", -1, len(src)), src, nil, 0)
	var out []string
	for i := 0; ; {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out, true
		}
		off := int(pos) - 1
		for i < len(bodies) && off >= bodies[i][1] {
			i++
		}
		if i < len(bodies) && off >= bodies[i][0] {
			continue
		}
		if tok == token.SEMICOLON {
			lit = ";" // an automatic semicolon's text is "\n"
		}
		out = append(out, tok.String()+" "+lit)
	}
}

// apiChange is what a package's change may change for its users: the
// package-level objects (of the package as it is now) whose declared
// type, value or method set changed, or whose type mentions such a type,
// and their names (added and removed ones included). all says that
// nothing could be compared: every user counts.
type apiChange struct {
	names map[string]bool
	objs  map[types.Object]bool
	all   bool
	// pkgName is the changed package's name, which an import of it
	// declares unless it names another.
	pkgName string
}

func (a *apiChange) empty() bool { return a == nil || !a.all && len(a.names) == 0 }

// apiDiff compares a package's declarations before and after a change.
// A declaration changed when its description (declared type, a
// constant's value, a type's underlying type, type parameters and
// methods) differs, or when its type mentions a type of the package that
// changed: a function returning a type whose field was removed changed
// too, since a user reaches the field through it without naming the type.
func apiDiff(old, cur *types.Package) *apiChange {
	a := &apiChange{names: map[string]bool{}, objs: map[types.Object]bool{}, pkgName: cur.Name()}
	oldDesc, _ := describe(old)
	curDesc, curRefs := describe(cur)
	for n, d := range curDesc {
		if oldDesc[n] != d {
			a.names[n] = true
		}
	}
	for n := range oldDesc {
		if _, ok := curDesc[n]; !ok {
			a.names[n] = true
		}
	}
	for grew := true; grew; { // what mentions a changed type changed too
		grew = false
		for n, refs := range curRefs {
			if a.names[n] {
				continue
			}
			for _, r := range refs {
				if a.names[r] {
					a.names[n], grew = true, true
					break
				}
			}
		}
	}
	for n := range a.names {
		if obj := cur.Scope().Lookup(n); obj != nil {
			a.objs[obj] = true
		}
	}
	return a
}

// describe returns, for each package-level object of pkg, its
// description and the package's own type names its types mention.
func describe(pkg *types.Package) (map[string]string, map[string][]string) {
	desc, refs := map[string]string{}, map[string][]string{}
	qual := types.RelativeTo(pkg)
	ts := func(t types.Type) string { return types.TypeString(t, qual) }
	for _, n := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(n)
		var d string
		var mentioned []types.Type
		switch o := obj.(type) {
		case *types.Const:
			d = "const " + ts(o.Type()) + " = " + o.Val().ExactString()
			mentioned = []types.Type{o.Type()}
		case *types.Var:
			d = "var " + ts(o.Type())
			mentioned = []types.Type{o.Type()}
		case *types.Func:
			d = "func " + ts(o.Type())
			mentioned = []types.Type{o.Type()}
		case *types.TypeName:
			d, mentioned = describeType(o, ts)
		default:
			d = obj.String()
		}
		desc[n] = d
		seen := map[string]bool{}
		for _, t := range mentioned {
			walkType(t, map[types.Type]bool{}, func(tn *types.TypeName) {
				if tn.Pkg() == pkg && tn.Parent() == pkg.Scope() && !seen[tn.Name()] && tn.Name() != n {
					seen[tn.Name()] = true
					refs[n] = append(refs[n], tn.Name())
				}
			})
		}
	}
	return desc, refs
}

// describeType describes a type name: an alias's right side, or a
// defined type's type parameters, underlying type and methods.
func describeType(o *types.TypeName, ts func(types.Type) string) (string, []types.Type) {
	if a, ok := o.Type().(*types.Alias); ok {
		return "= " + ts(a.Rhs()), []types.Type{a.Rhs()}
	}
	nt, ok := o.Type().(*types.Named)
	if !ok {
		return "type " + ts(o.Type()), []types.Type{o.Type()}
	}
	var b strings.Builder
	b.WriteString("type")
	mentioned := []types.Type{nt.Underlying()}
	for i := 0; i < nt.TypeParams().Len(); i++ {
		tp := nt.TypeParams().At(i)
		b.WriteString(" [" + tp.Obj().Name() + " " + ts(tp.Constraint()) + "]")
		mentioned = append(mentioned, tp.Constraint())
	}
	b.WriteString(" " + ts(nt.Underlying()))
	var methods []string
	for i := 0; i < nt.NumMethods(); i++ {
		m := nt.Method(i)
		ptr := ""
		if sig, ok := m.Type().(*types.Signature); ok && sig.Recv() != nil {
			if _, isPtr := sig.Recv().Type().(*types.Pointer); isPtr {
				ptr = "*"
			}
		}
		methods = append(methods, ptr+m.Name()+" "+ts(m.Type()))
		mentioned = append(mentioned, m.Type())
	}
	sort.Strings(methods)
	for _, m := range methods {
		b.WriteString("; " + m)
	}
	return b.String(), mentioned
}

// walkType calls visit for every type name t mentions (named types and
// aliases, with their type arguments), without entering the named types'
// own declarations.
func walkType(t types.Type, seen map[types.Type]bool, visit func(*types.TypeName)) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	walkAll := func(ts ...types.Type) {
		for _, x := range ts {
			walkType(x, seen, visit)
		}
	}
	switch t := t.(type) {
	case *types.Named:
		visit(t.Obj())
		for i := 0; i < t.TypeArgs().Len(); i++ {
			walkAll(t.TypeArgs().At(i))
		}
	case *types.Alias:
		visit(t.Obj())
		for i := 0; i < t.TypeArgs().Len(); i++ {
			walkAll(t.TypeArgs().At(i))
		}
		walkAll(t.Rhs())
	case *types.Pointer:
		walkAll(t.Elem())
	case *types.Slice:
		walkAll(t.Elem())
	case *types.Array:
		walkAll(t.Elem())
	case *types.Map:
		walkAll(t.Key(), t.Elem())
	case *types.Chan:
		walkAll(t.Elem())
	case *types.Signature:
		walkAll(t.Params(), t.Results())
		for i := 0; i < t.TypeParams().Len(); i++ {
			walkAll(t.TypeParams().At(i).Constraint())
		}
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			walkAll(t.At(i).Type())
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			walkAll(t.Field(i).Type())
		}
	case *types.Interface:
		for i := 0; i < t.NumExplicitMethods(); i++ {
			walkAll(t.ExplicitMethod(i).Type())
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			walkAll(t.EmbeddedType(i))
		}
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			walkAll(t.Term(i).Type())
		}
	case *types.TypeParam:
		walkAll(t.Constraint())
	}
}

// derivedChange is the change of a package that type-checks with its
// dependencies' changes (changed, every object they changed): its
// objects whose types mention a changed object's type, and its untyped
// constants and variables whose values use a changed object (their type
// or value follows it: var V = dep.F()).
func derivedChange(pkg *types.Package, files []*ast.File, info *types.Info, changed map[types.Object]bool) *apiChange {
	a := &apiChange{names: map[string]bool{}, objs: map[types.Object]bool{}, pkgName: pkg.Name()}
	mark := func(obj types.Object) {
		if obj != nil && !a.objs[obj] {
			a.objs[obj], a.names[obj.Name()] = true, true
		}
	}
	mentions := func(t types.Type) bool {
		found := false
		walkType(t, map[types.Type]bool{}, func(tn *types.TypeName) {
			found = found || changed[tn] || a.objs[tn]
		})
		return found
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.VAR || gd.Tok == token.CONST) && usesAny(gd, info, changed) {
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					if gd.Tok == token.CONST || vs.Type == nil {
						for _, n := range vs.Names {
							mark(pkg.Scope().Lookup(n.Name))
						}
					}
				}
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for _, n := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(n)
			if a.objs[obj] {
				continue
			}
			var ts []types.Type
			if tn, ok := obj.(*types.TypeName); ok {
				_, ts = describeType(tn, func(types.Type) string { return "" })
			} else {
				ts = []types.Type{obj.Type()}
			}
			for _, t := range ts {
				if mentions(t) {
					mark(obj)
					grew = true
					break
				}
			}
		}
	}
	return a
}

// usesAny reports whether a declaration's values use a changed object
// (a const group's implicit repetitions use its first values).
func usesAny(gd *ast.GenDecl, info *types.Info, changed map[types.Object]bool) bool {
	found := false
	ast.Inspect(gd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && changed[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// namesFrom reports whether files name a changed object of the package
// path through an import of it: pkg.Name (pkg the import's name), or Name
// alone through a dot import. A package whose files name none of a
// dependency's changed objects type-checks as it did: each value of a
// changed type reaches it through an object it names (the function that
// returns it, the variable that holds it), and apiDiff and derivedChange
// count those as changed too.
func namesFrom(files []*ast.File, path string, a *apiChange) bool {
	for _, f := range files {
		for _, spec := range f.Imports {
			if strings.Trim(spec.Path.Value, "`\"") != path {
				continue
			}
			local := a.pkgName
			if spec.Name != nil {
				local = spec.Name.Name
			}
			switch {
			case local == "_":
			case local == "." || a.all:
				if mentionsAny([]*ast.File{f}, a) {
					return true
				}
			case selects(f, local, a):
				return true
			}
		}
	}
	return false
}

// selects reports whether f has a selector local.Name of a changed name.
func selects(f *ast.File, local string, a *apiChange) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := se.X.(*ast.Ident); ok && id.Name == local && a.names[se.Sel.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsAny reports whether files name any of a change's names, as an
// identifier anywhere (a package's own files, which name its objects
// bare).
func mentionsAny(files []*ast.File, a *apiChange) bool {
	if a.all {
		return true
	}
	found := false
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && a.names[id.Name] {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
