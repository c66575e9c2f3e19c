package mcpserver

import (
	"math"
	"testing"
	"time"
)

// TestTimeoutBounds checks run_tests' timeout: 0 is the default 300 s,
// up to 1800 s is taken as given, and anything else is refused with the
// allowed range (not clamped).
func TestTimeoutBounds(t *testing.T) {
	for in, want := range map[float64]time.Duration{0: 300 * time.Second, 2.5: 2500 * time.Millisecond, 1800: 1800 * time.Second} {
		if err := checkTimeout(in); err != nil {
			t.Errorf("checkTimeout(%v): %v", in, err)
		}
		if got := timeout(in); got != want {
			t.Errorf("timeout(%v) = %v, want %v", in, got, want)
		}
	}
	for in, want := range map[float64]string{
		-5:           "timeout -5 is out of range: give seconds from 0 to 1800 (0 or none means the default 300)",
		1800.5:       "timeout 1800.5 is out of range: give seconds from 0 to 1800 (0 or none means the default 300)",
		math.NaN():   "timeout NaN is out of range: give seconds from 0 to 1800 (0 or none means the default 300)",
		math.Inf(1):  "timeout +Inf is out of range: give seconds from 0 to 1800 (0 or none means the default 300)",
		math.Inf(-1): "timeout -Inf is out of range: give seconds from 0 to 1800 (0 or none means the default 300)",
	} {
		if err := checkTimeout(in); err == nil || err.Error() != want {
			t.Errorf("checkTimeout(%v) = %v, want %q", in, err, want)
		}
	}
}
