package runfixture

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestPass(t *testing.T) {
	t.Run("sub ok", func(t *testing.T) {})
}

func TestFail(t *testing.T) {
	t.Log("some context")
	t.Errorf("got %d, want %d", 1, 2)
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"good", true}, {"bad", false}} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.ok {
				t.Fatal("row failed")
			}
		})
	}
}

func TestSkip(t *testing.T) { t.Skip("not today") }

// TestHang never ends unless TESTDEX_FIXTURE_HANG is unset.
func TestHang(t *testing.T) {
	if os.Getenv("TESTDEX_FIXTURE_HANG") == "" {
		t.Skip("set TESTDEX_FIXTURE_HANG to hang")
	}
	time.Sleep(time.Hour)
}

// TestLeak starts a child that outlives the test.
func TestLeak(t *testing.T) {
	if os.Getenv("TESTDEX_FIXTURE_LEAK") == "" {
		t.Skip("set TESTDEX_FIXTURE_LEAK to leak a process")
	}
	if err := startRecorded(exec.Command("sleep", "300")); err != nil {
		t.Fatal(err)
	}
}

// TestLoud prints two megabytes.
func TestLoud(t *testing.T) {
	if os.Getenv("TESTDEX_FIXTURE_LOUD") == "" {
		t.Skip("set TESTDEX_FIXTURE_LOUD to print megabytes")
	}
	line := strings.Repeat("x", 1023) + "\n"
	for i := 0; i < 2048; i++ {
		os.Stdout.WriteString(line)
	}
}
