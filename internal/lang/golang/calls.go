package golang

import (
	"fmt"
	"go/ast"
	"go/constant"
	"strconv"
	"strings"
)

// pureFuncs are the library functions evaluated when every argument is a
// constant, by calling the real function: the result is exactly what the
// test computes at run time. Each returns false for arguments the function
// would reject or panic on.
var pureFuncs = map[string]func(args []any) (string, bool){
	"fmt.Sprint":   func(a []any) (string, bool) { return fmt.Sprint(a...), true },
	"fmt.Sprintln": func(a []any) (string, bool) { return fmt.Sprintln(a...), true },
	"fmt.Sprintf": func(a []any) (string, bool) {
		if len(a) == 0 {
			return "", false
		}
		f, ok := a[0].(string)
		return fmt.Sprintf(f, a[1:]...), ok
	},
	"strconv.Itoa": func(a []any) (string, bool) {
		n, ok := one[int](a)
		return strconv.Itoa(n), ok
	},
	"strconv.Quote": func(a []any) (string, bool) {
		s, ok := one[string](a)
		return strconv.Quote(s), ok
	},
	"strconv.FormatBool": func(a []any) (string, bool) {
		b, ok := one[bool](a)
		return strconv.FormatBool(b), ok
	},
	"strconv.FormatInt": func(a []any) (string, bool) {
		if len(a) != 2 {
			return "", false
		}
		n, ok1 := toInt64(a[0])
		base, ok2 := a[1].(int)
		if !ok1 || !ok2 || base < 2 || base > 36 {
			return "", false
		}
		return strconv.FormatInt(n, base), true
	},
	"strings.ToUpper":   func(a []any) (string, bool) { s, ok := one[string](a); return strings.ToUpper(s), ok },
	"strings.ToLower":   func(a []any) (string, bool) { s, ok := one[string](a); return strings.ToLower(s), ok },
	"strings.TrimSpace": func(a []any) (string, bool) { s, ok := one[string](a); return strings.TrimSpace(s), ok },
	"strings.Repeat": func(a []any) (string, bool) {
		if len(a) != 2 {
			return "", false
		}
		s, ok1 := a[0].(string)
		n, ok2 := a[1].(int)
		if !ok1 || !ok2 || n < 0 || n > 1<<16 || len(s)*n > 1<<16 {
			return "", false
		}
		return strings.Repeat(s, n), true
	},
}

func one[T any](a []any) (T, bool) {
	var zero T
	if len(a) != 1 {
		return zero, false
	}
	v, ok := a[0].(T)
	return v, ok
}

func toInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

// call evaluates a call: len, a conversion to a predeclared type, or one of
// pureFuncs with constant arguments.
func (x *fileCtx) call(e *ast.CallExpr, env *scope) (res value) {
	defer func() {
		if recover() != nil { // fmt with odd verbs never panics, but be sure
			res = nil
		}
	}()
	if e.Ellipsis.IsValid() {
		return nil
	}
	switch fun := e.Fun.(type) {
	case *ast.Ident:
		return x.builtin(fun.Name, e.Args, env)
	case *ast.SelectorExpr:
		pkg, ok := fun.X.(*ast.Ident)
		if !ok {
			return nil
		}
		path, ok := x.cur.imports[pkg.Name]
		f := pureFuncs[path+"."+fun.Sel.Name]
		if !ok || f == nil {
			return nil
		}
		if _, _, shadowed := env.lookup(pkg.Name); shadowed {
			return nil
		}
		args := make([]any, len(e.Args))
		for i, a := range e.Args {
			c, _ := x.eval(a, env, nil).(*cval)
			if args[i], ok = goValue(c); !ok {
				return nil
			}
		}
		s, ok := f(args)
		if !ok {
			return nil
		}
		return &cval{v: constant.MakeString(s)}
	}
	return nil
}

// builtin evaluates len(x) and conversions to predeclared types.
func (x *fileCtx) builtin(name string, args []ast.Expr, env *scope) value {
	if len(args) != 1 {
		return nil
	}
	if _, _, shadowed := env.lookup(name); shadowed {
		return nil
	}
	v := x.eval(args[0], env, nil)
	if name == "len" {
		return lenOf(x, v)
	}
	c, _ := v.(*cval)
	if c == nil {
		return nil
	}
	if t, _ := env.lookupType(name); t != nil {
		u, _ := x.underlying(t, env)
		if id, ok := u.(*ast.Ident); ok && basicTypes[id.Name] {
			r, _ := convert(c, id.Name).(*cval)
			if r != nil {
				return &cval{v: r.v, typ: "named"}
			}
		}
		return nil
	}
	if !basicTypes[name] {
		return nil
	}
	return convert(c, name)
}

// convert is a constant conversion T(c) to a predeclared type.
func convert(c *cval, to string) value {
	switch {
	case to == "string" && c.v.Kind() == constant.Int:
		r, ok := constant.Int64Val(c.v)
		if !ok || r < 0 || r > 0x10FFFF {
			return &cval{v: constant.MakeString("\uFFFD"), typ: to}
		}
		return &cval{v: constant.MakeString(string(rune(r))), typ: to}
	case to == "string" || to == "bool":
		return &cval{v: c.v, typ: to}
	case isFloatType(to):
		return &cval{v: constant.ToFloat(c.v), typ: to}
	}
	v := constant.ToInt(c.v)
	if v.Kind() != constant.Int {
		return nil
	}
	return &cval{v: v, typ: to}
}

// lenOf is len of a constant string or a known literal.
func lenOf(x *fileCtx, v value) value {
	switch v := v.(type) {
	case *cval:
		if v.v.Kind() == constant.String {
			return &cval{v: constant.MakeInt64(int64(len(constant.StringVal(v.v))))}
		}
	case *comp:
		if ps, ok := x.elems(v); ok {
			return &cval{v: constant.MakeInt64(int64(len(ps)))}
		}
	}
	return nil
}
