package js

import (
	"strconv"
	"strings"
)

// wire is a value as JSON carries it in Facts; numbers are text so NaN,
// the infinities and -0 survive.
type wire struct {
	K    kind     `json:"k"`
	S    string   `json:"s,omitempty"`
	B    bool     `json:"b,omitempty"`
	A    []wire   `json:"a,omitempty"`
	Keys []string `json:"keys,omitempty"`
	V    []wire   `json:"v,omitempty"`
	P    *wire    `json:"p,omitempty"` // a function's own properties
	F    bool     `json:"f,omitempty"` // a function
	H    string   `json:"h,omitempty"` // a function's helper source
	U    string   `json:"u,omitempty"` // a function's pure source
	N    string   `json:"n,omitempty"` // a function's name (see funcnames.go)
}

// maxWireDepth bounds the nesting encoded; deeper parts become unknown.
const maxWireDepth = 32

func toWire(v value, depth int) wire {
	if depth > maxWireDepth {
		return wire{}
	}
	w := wire{K: v.kind, S: v.str, B: v.b}
	switch v.kind {
	case kUnknown:
		w.S, w.F, w.H, w.U, w.N = "", v.fn, v.helper, v.pure, v.fname
		if v.props != nil {
			p := toWire(*v.props, depth+1)
			w.P = &p
		}
	case kNumber:
		w.S = strconv.FormatFloat(v.num, 'g', -1, 64)
	case kArray:
		for _, e := range v.arr {
			w.A = append(w.A, toWire(e, depth+1))
		}
	case kObject:
		w.Keys = v.keys
		for _, e := range v.vals {
			w.V = append(w.V, toWire(e, depth+1))
		}
	}
	return w
}

func fromWire(w wire) value {
	v := value{kind: w.K, str: w.S, b: w.B}
	switch w.K {
	case kUnknown:
		v.fn, v.helper, v.pure, v.fname = w.F, w.H, w.U, w.N
		if w.P != nil && w.P.K == kObject {
			p := fromWire(*w.P)
			v.props = &p
		}
	case kNumber:
		f, err := strconv.ParseFloat(w.S, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return value{}
		}
		v.num, v.str = f, ""
	case kArray:
		v.arr = make([]value, len(w.A))
		for i, e := range w.A {
			v.arr[i] = fromWire(e)
		}
	case kObject:
		if len(w.Keys) != len(w.V) {
			return value{}
		}
		v.keys = w.Keys
		v.vals = make([]value, len(w.V))
		for i, e := range w.V {
			v.vals[i] = fromWire(e)
		}
	}
	return v
}
