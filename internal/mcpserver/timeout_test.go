package mcpserver

import (
	"testing"
	"time"
)

// TestTimeoutClamp checks seed 004's rule: default 300 s, at most 1800 s.
func TestTimeoutClamp(t *testing.T) {
	for in, want := range map[float64]time.Duration{0: 300 * time.Second, -5: 300 * time.Second, 2.5: 2500 * time.Millisecond, 1800: 1800 * time.Second, 99999: 1800 * time.Second} {
		if got := timeout(in); got != want {
			t.Errorf("timeout(%v) = %v, want %v", in, got, want)
		}
	}
}
