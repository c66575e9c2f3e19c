package skilltest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lines"
)

// maxJSONResult bounds the stdout a JSON command's result is read from.
const maxJSONResult = 1 << 20

// jsonParser reports a declared command of format json. Its stdout is the
// protocol's channel: the command prints one {passed, failed, errors}
// object and nothing else there (its logs go to stderr, which the core
// shows as the batch's output), so the whole stream is decoded, never a
// tail fished out of mixed output. The stream is also passed through as
// the test's output.
type jsonParser struct {
	ev  testEvent
	buf bytes.Buffer
	out lines.Splitter
}

func newJSONParser(ev testEvent) *jsonParser {
	ev.run()
	return &jsonParser{ev: ev, out: outputLines(ev)}
}

func (j *jsonParser) Write(b []byte) (int, error) {
	if j.buf.Len() <= maxJSONResult {
		j.buf.Write(b)
	}
	j.out.Write(b)
	return len(b), nil
}

// Close decodes the result. The test fails when failed > 0 or errors
// are reported, when stdout
// is not one JSON object, or when the command exited non-zero; a killed
// command (exit code -1) is left to the core.
func (j *jsonParser) Close(exitCode int) error {
	j.out.Flush()
	if exitCode < 0 {
		return nil
	}
	var r struct {
		Passed, Failed *int
		Errors         []json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(j.buf.Bytes()))
	err := dec.Decode(&r)
	if err == nil && dec.More() {
		err = fmt.Errorf("more than one value")
	}
	if err == nil && r.Passed == nil && r.Failed == nil {
		err = fmt.Errorf("no passed or failed count")
	}
	if err != nil || j.buf.Len() > maxJSONResult {
		j.ev.end(testdex.ActionFail, fmt.Sprintf("stdout is not one JSON object {passed, failed, errors}: %v (print the result alone on stdout; logs go to stderr)", err), 0)
		return nil
	}
	c := counts{Errors: errorTexts(r.Errors)}
	if r.Passed != nil {
		c.Passed = *r.Passed
	}
	if r.Failed != nil {
		c.Failed = *r.Failed
	}
	j.ev.output(c.String())
	switch {
	case c.failing():
		j.ev.endCounted(testdex.ActionFail, c.failMessage(), 0, c.inner())
	case exitCode != 0:
		j.ev.endCounted(testdex.ActionFail, fmt.Sprintf("exited %d", exitCode), 0, c.inner())
	default:
		j.ev.endCounted(testdex.ActionPass, "", 0, c.inner())
	}
	return nil
}
