package js

import (
	"errors"

	"github.com/testdex/testdex/internal/lang"
)

// scanOutcome is a file's scan as a lang.ScanCache keeps it: its result, or
// the text of the error that stopped it (a file tree-sitter cannot parse
// fails again with the same bytes).
type scanOutcome struct {
	res scanResult
	err string
}

// refsCodec keeps scan's outcome per file. Change its kind's version when
// scan, ref or scanResult change (TestRefsCodecFields fails when a field
// is added).
var refsCodec = lang.Codec[scanOutcome]{Kind: "js.refs.1", Encode: encodeRefs, Decode: decodeRefs}

// scanCached scans the file abs, or takes its scan from the cache;
// scanErr is the scan's failure, readErr the read's.
func scanCached(in *lang.GraphInput, abs string) (res scanResult, scanErr, readErr error) {
	out, err := lang.Scan(in, abs, refsCodec, func(src []byte) scanOutcome {
		res, err := scan(abs, src)
		if err != nil {
			return scanOutcome{res: res, err: err.Error()}
		}
		return scanOutcome{res: res}
	})
	if err != nil {
		return scanResult{}, nil, err
	}
	if out.err != "" {
		return out.res, errors.New(out.err), nil
	}
	return out.res, nil, nil
}

func encodeRefs(o scanOutcome) []byte {
	var e lang.Enc
	e.Str(o.err)
	e.Int(o.res.syntaxLine)
	e.Uint(uint64(len(o.res.refs)))
	for _, r := range o.res.refs {
		e.Str(r.kind)
		e.Str(r.spec)
		e.Str(r.expr)
		e.Bool(r.mock)
		e.Str(r.prefix)
		e.Uint(uint64(r.at))
		e.Bool(r.path)
	}
	return e.B
}

func decodeRefs(data []byte) (scanOutcome, bool) {
	d := &lang.Dec{B: data}
	o := scanOutcome{err: d.Str()}
	o.res.syntaxLine = d.Int()
	if n := d.Len(); n > 0 {
		o.res.refs = make([]ref, n)
		for i := range o.res.refs {
			o.res.refs[i] = ref{kind: d.Str(), spec: d.Str(), expr: d.Str(), mock: d.Bool(), prefix: d.Str(), at: uint32(d.Uint()), path: d.Bool()}
		}
	}
	return o, d.Done()
}
