package golang

import (
	"github.com/testdex/testdex/internal/lang"
)

// The scan results the Go Grapher keeps in a lang.ScanCache, one codec
// per kind. A kind's name carries its version: change it whenever the
// encoding, the struct it encodes or the scanner that fills it changes
// (TestScanCodecFields fails when a field is added without the codec
// knowing).

// declsCodec keeps quickDecls' cut of a file. Its strings go through a
// table: a file's references repeat the same few names.
var declsCodec = lang.Codec[*fileDecls]{Kind: "go.decls.2", Encode: encodeDecls, Decode: decodeDecls}

// linknamesCodec keeps a file's //go:linkname local target pairs.
var linknamesCodec = lang.Codec[[][2]string]{Kind: "go.linknames.1", Encode: encodeLinknames, Decode: decodeLinknames}

// ifacesCodec keeps a standard library file's ifaceFacts; ifaceMemo
// adds the build filter's key to its kind.
var ifacesCodec = lang.Codec[ifaceFacts]{Kind: "go.ifaces.1", Encode: encodeIfaces, Decode: decodeIfaces}

// headerKind is the kind of a file's header (goFile) under a build
// filter's key.
func headerKind(filter string) string { return "go.header.1/" + filter }

// strTab numbers the strings of one encoded value.
type strTab struct {
	ids  map[string]int
	list []string
}

func (t *strTab) id(s string) uint64 {
	if i, ok := t.ids[s]; ok {
		return uint64(i)
	}
	t.ids[s] = len(t.list)
	t.list = append(t.list, s)
	return uint64(len(t.list) - 1)
}

func encodeDecls(fd *fileDecls) []byte {
	// The body refers to strings by number; the table goes first.
	t := &strTab{ids: map[string]int{}}
	var body lang.Enc
	total := 0 // the strings of all lists, one allocation when decoding
	refs := func(ss []string) {
		body.Uint(uint64(len(ss)))
		for _, s := range ss {
			body.Uint(t.id(s))
		}
		total += len(ss)
	}
	body.Uint(t.id(fd.pkg))
	body.Uint(uint64(len(fd.imports)))
	for local, ip := range fd.imports {
		body.Uint(t.id(local))
		body.Uint(t.id(ip))
	}
	refs(fd.unnamed)
	refs(fd.dots)
	body.Uint(fd.header)
	body.Bool(fd.cgo)
	body.Uint(uint64(len(fd.decls)))
	for _, d := range fd.decls {
		body.Uint(t.id(d.key))
		refs(d.names)
		body.Uint(t.id(d.recv))
		body.Uint(d.hash)
		body.Bool(d.init)
		body.Bool(d.fn)
		refs(d.refs)
		body.Uint(uint64(len(d.qrefs)))
		for _, q := range d.qrefs {
			body.Uint(t.id(q[0]))
			body.Uint(t.id(q[1]))
		}
		refs(d.sels)
		refs(d.linknames)
	}
	// The table: its count, each length, then the strings run together
	// (decoded as one string, which they all slice).
	var out lang.Enc
	out.Uint(uint64(len(t.list)))
	for _, s := range t.list {
		out.Uint(uint64(len(s)))
	}
	for _, s := range t.list {
		out.B = append(out.B, s...)
	}
	out.Uint(uint64(total))
	out.B = append(out.B, body.B...)
	return out.B
}

func decodeDecls(data []byte) (*fileDecls, bool) {
	d := &lang.Dec{B: data}
	lens := make([]int, d.Len())
	blob := 0
	for i := range lens {
		lens[i] = d.Len()
		blob += lens[i]
	}
	if d.Bad || blob > len(d.B) {
		return nil, false
	}
	all := string(d.B[:blob]) // one allocation for every string
	d.B = d.B[blob:]
	tab := make([]string, len(lens))
	for i, n := range lens {
		tab[i], all = all[:n], all[n:]
	}
	backing := make([]string, d.Len())
	str := func() string {
		i := d.Uint()
		if i >= uint64(len(tab)) {
			d.Bad = true
			return ""
		}
		return tab[i]
	}
	strs := func() []string {
		n := d.Len()
		if n == 0 || n > len(backing) {
			d.Bad = d.Bad || n > 0
			return nil
		}
		out := backing[:n:n] // full: an append copies
		backing = backing[n:]
		for i := range out {
			out[i] = str()
		}
		return out
	}
	fd := &fileDecls{pkg: str(), imports: map[string]string{}}
	for n := d.Len(); n > 0 && !d.Bad; n-- {
		local := str()
		fd.imports[local] = str()
	}
	fd.unnamed, fd.dots = strs(), strs()
	fd.header, fd.cgo = d.Uint(), d.Bool()
	n := d.Len()
	fd.decls = make([]*decl, 0, n)
	slab := make([]decl, n)
	for i := 0; i < n && !d.Bad; i++ {
		dc := &slab[i]
		*dc = decl{key: str(), names: strs(), recv: str(), hash: d.Uint(), init: d.Bool(), fn: d.Bool(), refs: strs()}
		if m := d.Len(); m > 0 {
			dc.qrefs = make([][2]string, m)
			for i := range dc.qrefs {
				dc.qrefs[i] = [2]string{str(), str()}
			}
		}
		dc.sels = strs()
		dc.linknames = strs()
		fd.decls = append(fd.decls, dc)
	}
	if n := len(fd.decls); n == 0 {
		fd.decls = nil
	}
	return fd, d.Done()
}

func encodeLinknames(ls [][2]string) []byte {
	var e lang.Enc
	e.Uint(uint64(len(ls)))
	for _, l := range ls {
		e.Str(l[0])
		e.Str(l[1])
	}
	return e.B
}

func decodeLinknames(data []byte) ([][2]string, bool) {
	d := &lang.Dec{B: data}
	n := d.Len()
	var out [][2]string
	for ; n > 0 && !d.Bad; n-- {
		out = append(out, [2]string{d.Str(), d.Str()})
	}
	return out, d.Done()
}

// encodeHeader keeps what parse found in a file's header; its name and
// test flag come from the folder's listing.
func encodeHeader(g goFile) []byte {
	var e lang.Enc
	e.Bool(g.parsed)
	e.Bool(g.excluded)
	e.Bool(g.external)
	e.Bool(g.cgo)
	e.Strs(g.imports)
	e.Strs(g.embeds)
	return e.B
}

// decodeHeader fills g (named, its test flag set) from data.
func decodeHeader(g goFile, data []byte) (goFile, bool) {
	d := &lang.Dec{B: data}
	g.parsed, g.excluded, g.external, g.cgo = d.Bool(), d.Bool(), d.Bool(), d.Bool()
	g.imports, g.embeds = d.Strs(), d.Strs()
	return g, d.Done()
}

func encodeIfaces(ff ifaceFacts) []byte {
	var e lang.Enc
	e.Bool(ff.kept)
	e.Strs(ff.names)
	e.Strs(ff.imports)
	e.Bool(ff.methodCalls)
	return e.B
}

func decodeIfaces(data []byte) (ifaceFacts, bool) {
	d := &lang.Dec{B: data}
	ff := ifaceFacts{kept: d.Bool(), names: d.Strs(), imports: d.Strs(), methodCalls: d.Bool()}
	return ff, d.Done()
}
