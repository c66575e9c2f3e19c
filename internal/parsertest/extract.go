package parsertest

import "github.com/testdex/testdex/internal/lang"

// Besides the runners' parsers, the extractors' unit tests share two
// helpers: Extract reads a source text as one file, Names lists what it
// found.

// Extract runs ex over src as the file rel (root-relative), with no
// framework or settings.
func Extract(ex lang.Extractor, rel, src string) lang.Result {
	return ex.Extract(&lang.File{Rel: rel, Data: []byte(src)})
}

// Names lists the records' names, or their keys when key is set, in
// order.
func Names(r lang.Result, key bool) []string {
	var out []string
	for _, t := range r.Tests {
		if key {
			out = append(out, t.Key())
		} else {
			out = append(out, t.Name)
		}
	}
	return out
}
