package lang

// A ScanCache keeps what Graphers learn from each file (its imports, its
// declarations), so that a later run re-reads only the files that
// changed. Entries are keyed by file and kind: a Grapher names its kinds
// ("go.decls", "py.imports") and encodes their data itself, and changes
// a kind's name when its encoding or its scanner's output changes.
//
// Trust follows the listing's cache (internal/cache): an entry serves
// while the file's size and modification time are those it was stored
// with and that time is safely older than the store (git's racily clean
// rule); otherwise the file's content decides, by hash. Implementations
// are safe for concurrent use.
type ScanCache interface {
	// Get returns the data stored for kind of the file abs when the file
	// is unchanged since. content returns the file's content; Get calls
	// it only when size and time cannot decide, and the caller's content
	// should remember what it read for the scan that follows a miss.
	Get(abs, kind string, content func() ([]byte, error)) ([]byte, bool)
	// Put stores data for kind of the file abs, computed from src, its
	// content when the scan read it. A nil src (the scan read only the
	// file's head) leaves the entry to size and time alone: a changed
	// time is then a miss.
	Put(abs, kind string, src, data []byte)
}

// A Codec turns one kind of scan result into bytes and back, for a
// ScanCache. Decode reports false for data it cannot read (an entry of
// an older encoding, damage), which counts as a miss.
type Codec[T any] struct {
	Kind   string
	Encode func(T) []byte
	Decode func([]byte) (T, bool)
}

// Scan returns what scan makes of the file abs: from in.Cache when the
// file is unchanged since it was stored, otherwise from its content read
// through in.ReadFile, which is then stored. A read error is returned as
// is and stores nothing. With no Cache it reads and scans.
func Scan[T any](in *GraphInput, abs string, c Codec[T], scan func(src []byte) T) (T, error) {
	var src []byte
	var readErr error
	read := false
	content := func() ([]byte, error) {
		if !read {
			src, readErr = in.ReadFile(abs)
			read = true
		}
		return src, readErr
	}
	if in.Cache != nil {
		if data, ok := in.Cache.Get(abs, c.Kind, content); ok {
			if v, ok := c.Decode(data); ok {
				return v, nil
			}
		}
	}
	if _, err := content(); err != nil {
		var zero T
		return zero, err
	}
	v := scan(src)
	if in.Cache != nil {
		in.Cache.Put(abs, c.Kind, src, c.Encode(v))
	}
	return v, nil
}
