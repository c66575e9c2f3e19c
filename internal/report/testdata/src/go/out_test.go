// Package reportfixture is the Go half of the run recorded in
// ../../recorded.jsonl (see ../../../golden_test.go for the command): each
// test shows one thing the text view must render well.
package reportfixture

import (
	"fmt"
	"strings"
	"testing"
)

func TestPass(t *testing.T) {
	t.Run("sub ok", func(t *testing.T) {})
}

// TestMultiline fails with a message of several lines.
func TestMultiline(t *testing.T) {
	t.Errorf("totals differ:\n  got:  1\n  want: 2")
}

// TestNoisy prints 300 lines and one of 50 KB before failing: the view
// shows its last lines, each cut.
func TestNoisy(t *testing.T) {
	for i := 1; i <= 300; i++ {
		fmt.Printf("line %d of the noise\n", i)
	}
	fmt.Println(strings.Repeat("z", 50<<10))
	t.Fatal("too noisy")
}

// TestControl prints terminal escapes, a carriage return and invalid
// UTF-8: the view escapes them.
func TestControl(t *testing.T) {
	fmt.Print("\x1b[31mred\x1b[0m\n")
	fmt.Print("50%\r100%\n")
	fmt.Print("bytes \xff\xfe end\n")
	t.Error("bell \a in the message")
}

func TestTable(t *testing.T) {
	for _, ok := range []bool{true, false} {
		t.Run(fmt.Sprint(ok), func(t *testing.T) {
			if !ok {
				t.Fatal("row failed")
			}
		})
	}
}

func TestSkip(t *testing.T) { t.Skip("not today") }
