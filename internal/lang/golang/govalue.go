package golang

import (
	"go/constant"
	"math"
)

// goValue converts a constant to the Go value it has when passed to an
// `any` parameter: its declared type, or the default type of an untyped
// constant (int, rune, float64, complex128, string, bool). Constants of
// named types are refused: formatting them may call a String method.
func goValue(c *cval) (any, bool) {
	if c == nil || c.typ == "named" {
		return nil, false
	}
	v := c.v
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), true
	case constant.Bool:
		return constant.BoolVal(v), true
	case constant.Complex:
		if c.typ != "" && c.typ != "complex128" && c.typ != "complex64" {
			return nil, false
		}
		re, _ := constant.Float64Val(constant.Real(v))
		im, _ := constant.Float64Val(constant.Imag(v))
		if c.typ == "complex64" {
			return complex64(complex(re, im)), true
		}
		return complex(re, im), true
	}
	switch c.typ {
	case "", "int":
		if v.Kind() == constant.Float && c.typ == "" {
			f, _ := constant.Float64Val(v)
			return f, !math.IsInf(f, 0)
		}
		return intOf[int](v)
	case "rune", "int32":
		return intOf[int32](v)
	case "int8":
		return intOf[int8](v)
	case "int16":
		return intOf[int16](v)
	case "int64":
		return intOf[int64](v)
	case "uint":
		return uintOf[uint](v)
	case "uint8", "byte":
		return uintOf[uint8](v)
	case "uint16":
		return uintOf[uint16](v)
	case "uint32":
		return uintOf[uint32](v)
	case "uint64":
		return uintOf[uint64](v)
	case "uintptr":
		return uintOf[uintptr](v)
	case "float64":
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f, true
	case "float32":
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return f, true
	}
	return nil, false
}

type signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// intOf converts an integral constant to T when it fits.
func intOf[T signed](v constant.Value) (any, bool) {
	n, ok := constant.Int64Val(constant.ToInt(v))
	if !ok || int64(T(n)) != n {
		return nil, false
	}
	return T(n), true
}

func uintOf[T unsigned](v constant.Value) (any, bool) {
	n, ok := constant.Uint64Val(constant.ToInt(v))
	if !ok || uint64(T(n)) != n {
		return nil, false
	}
	return T(n), true
}
