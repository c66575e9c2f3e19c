package python

import (
	"github.com/testdex/testdex/internal/lang"
)

// The kinds of a module's facts in a lang.ScanCache: read by the lexical
// scan or tree-sitter (readImports' full false), and with the names the
// module binds (full true). Change their version when readImports,
// modImports or importUse change (TestImportsCodecFields fails when a
// field is added).
const (
	importsKind = "py.imports.2"
	namedKind   = "py.named.2"
)

// imports returns readImports' facts of the file abs, whose content is
// data: from the scan cache when it holds them for this content.
func (b *impactBuild) imports(abs string, data []byte, full bool) *modImports {
	c := b.in.Cache
	if c == nil {
		return readImports(data, full)
	}
	kind := importsKind
	if full {
		kind = namedKind
	}
	if raw, ok := c.Get(abs, kind, func() ([]byte, error) { return data, nil }); ok {
		if f, ok := decodeImports(raw); ok {
			return f
		}
	}
	f := readImports(data, full)
	c.Put(abs, kind, data, encodeImports(f))
	return f
}

func encodeImports(f *modImports) []byte {
	var e lang.Enc
	e.Uint(uint64(len(f.imports)))
	for _, u := range f.imports {
		e.Int(u.line)
		e.Str(u.module)
		e.Bool(u.names != nil)
		e.Strs(u.names)
		e.Str(u.why)
	}
	e.Strs(f.dynamic)
	e.Bool(f.names != nil)
	e.Uint(uint64(len(f.names)))
	for n, v := range f.names {
		e.Str(n)
		e.Bool(v)
	}
	e.Bool(f.open)
	e.Bool(f.named)
	e.Bool(f.all != nil)
	e.Strs(f.all)
	e.Bool(f.allOpen)
	e.Str(f.bad)
	e.Int(f.badLine)
	return e.B
}

func decodeImports(data []byte) (*modImports, bool) {
	d := &lang.Dec{B: data}
	f := &modImports{}
	if n := d.Len(); n > 0 {
		f.imports = make([]importUse, n)
		for i := range f.imports {
			u := &f.imports[i]
			u.line, u.module = d.Int(), d.Str()
			hasNames := d.Bool()
			u.names = d.Strs()
			if hasNames && u.names == nil {
				u.names = []string{}
			}
			u.why = d.Str()
		}
	}
	f.dynamic = d.Strs()
	hasNames := d.Bool()
	if n := d.Len(); hasNames || n > 0 {
		f.names = make(map[string]bool, n)
		for ; n > 0 && !d.Bad; n-- {
			k := d.Str()
			f.names[k] = d.Bool()
		}
	}
	f.open, f.named = d.Bool(), d.Bool()
	hasAll := d.Bool()
	f.all = d.Strs()
	if hasAll && f.all == nil {
		f.all = []string{}
	}
	f.allOpen, f.bad, f.badLine = d.Bool(), d.Str(), d.Int()
	return f, d.Done()
}
