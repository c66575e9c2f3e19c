package report

import (
	"encoding/json"
	"io"

	"github.com/testdex/testdex"
)

// JSON writes every event as one JSON object a line (the wire form of
// testdex.Event). Such a stream can be read back with ReadJSON and replayed
// into any handler.
type JSON struct {
	enc *json.Encoder
}

// NewJSON returns a JSON Lines handler writing to w.
func NewJSON(w io.Writer) *JSON {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSON{enc: enc}
}

// Event implements run.Handler.
func (j *JSON) Event(e testdex.Event) error { return j.enc.Encode(&e) }

// ReadJSON replays a saved JSON Lines stream into handle.
func ReadJSON(r io.Reader, handle func(testdex.Event) error) error {
	dec := json.NewDecoder(r)
	for dec.More() {
		var e testdex.Event
		if err := dec.Decode(&e); err != nil {
			return err
		}
		if err := handle(e); err != nil {
			return err
		}
	}
	return nil
}
