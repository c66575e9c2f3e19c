package lang

import "encoding/binary"

// Enc appends the fields of a scan result for a ScanCache: varints and
// length-prefixed strings, read back by Dec in the same order.
type Enc struct{ B []byte }

// Uint appends v.
func (e *Enc) Uint(v uint64) { e.B = binary.AppendUvarint(e.B, v) }

// Int appends v.
func (e *Enc) Int(v int) { e.B = binary.AppendVarint(e.B, int64(v)) }

// Bool appends v.
func (e *Enc) Bool(v bool) {
	if v {
		e.B = append(e.B, 1)
	} else {
		e.B = append(e.B, 0)
	}
}

// Int64 appends v.
func (e *Enc) Int64(v int64) { e.B = binary.AppendVarint(e.B, v) }

// Raw appends b as it is (a fixed-size field the reader takes with Bytes).
func (e *Enc) Raw(b []byte) { e.B = append(e.B, b...) }

// NilStrs appends ss so that nil and empty read back apart (NilStrs).
func (e *Enc) NilStrs(ss []string) {
	if ss == nil {
		e.Uint(0)
		return
	}
	e.Uint(uint64(len(ss)) + 1)
	for _, s := range ss {
		e.Str(s)
	}
}

// Str appends s.
func (e *Enc) Str(s string) {
	e.Uint(uint64(len(s)))
	e.B = append(e.B, s...)
}

// Strs appends ss; nil and empty read back as nil.
func (e *Enc) Strs(ss []string) {
	e.Uint(uint64(len(ss)))
	for _, s := range ss {
		e.Str(s)
	}
}

// Dec reads what Enc wrote. A read past the end or a malformed varint
// sets Bad and returns zero values from then on.
type Dec struct {
	B   []byte
	Bad bool
}

// Uint reads an unsigned varint.
func (d *Dec) Uint() uint64 {
	if len(d.B) > 0 && d.B[0] < 0x80 { // one byte: most counts and string numbers
		v := uint64(d.B[0])
		d.B = d.B[1:]
		return v
	}
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Int reads a signed varint.
func (d *Dec) Int() int {
	v, n := binary.Varint(d.B)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return int(v)
}

// Int64 reads a signed varint.
func (d *Dec) Int64() int64 {
	v, n := binary.Varint(d.B)
	if n <= 0 {
		d.Fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Bytes reads n bytes as they are, a slice of the input (not a copy).
func (d *Dec) Bytes(n uint64) []byte {
	if n > uint64(len(d.B)) {
		d.Fail()
		return nil
	}
	b := d.B[:n]
	d.B = d.B[n:]
	return b
}

// NilStrs reads what Enc.NilStrs wrote.
func (d *Dec) NilStrs() []string {
	n := d.Uint()
	if n == 0 || d.Bad {
		return nil
	}
	if n-1 > uint64(len(d.B)) { // each string takes at least one byte
		d.Fail()
		return nil
	}
	ss := make([]string, n-1)
	for i := range ss {
		ss[i] = d.Str()
	}
	return ss
}

// Bool reads a boolean.
func (d *Dec) Bool() bool {
	if len(d.B) == 0 || d.B[0] > 1 {
		d.Fail()
		return false
	}
	v := d.B[0] == 1
	d.B = d.B[1:]
	return v
}

// Str reads a string.
func (d *Dec) Str() string {
	n := d.Uint()
	if n > uint64(len(d.B)) {
		d.Fail()
		return ""
	}
	s := string(d.B[:n])
	d.B = d.B[n:]
	return s
}

// Len reads a count of items that take at least one byte each, bounded
// by what is left (damaged data cannot ask for a huge allocation).
func (d *Dec) Len() int {
	n := d.Uint()
	if n > uint64(len(d.B)) {
		d.Fail()
		return 0
	}
	return int(n)
}

// Strs reads a list of strings; nil when empty.
func (d *Dec) Strs() []string {
	n := d.Len()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.Str()
	}
	return ss
}

// Done reports whether everything was read without error.
func (d *Dec) Done() bool { return !d.Bad && len(d.B) == 0 }

// Fail marks the input as damaged: Bad is set, and every read from
// then on returns zero values.
func (d *Dec) Fail() { d.Bad, d.B = true, nil }
