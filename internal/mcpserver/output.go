package mcpserver

import "strings"

// maxStream caps each stream of run_tests' whole text (the resource
// testdex://runs/{id}/output), as seed 004 capped the runner's stdout and
// stderr.
const maxStream = 500 << 10

// capped is a buffer that keeps the first max bytes and then marks
// the cut once.
type capped struct {
	b   strings.Builder
	cut bool
	max int // 0 means maxStream
}

func (c *capped) Write(p []byte) (int, error) {
	limit := c.max
	if limit == 0 {
		limit = maxStream
	}
	if room := limit - c.b.Len(); room < len(p) {
		c.b.Write(p[:max(room, 0)])
		c.cut = true
		return len(p), nil
	}
	c.b.Write(p)
	return len(p), nil
}

func (c *capped) String() string {
	if c.cut {
		return c.b.String() + "\n[TRUNCATED]\n"
	}
	return c.b.String()
}
