// Package testenv is what the tests share about their environment: a
// test that needs a toolchain the machine lacks skips with a message
// naming it, or, where every toolchain must be there (CI sets
// TESTDEX_REQUIRE_TOOLS=1), fails, so that a suite cannot pass on a bare
// machine without testing much.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// RequireEnv is the variable that turns a missing toolchain into a
// failure.
const RequireEnv = "TESTDEX_REQUIRE_TOOLS"

// Missing ends the test for a missing toolchain: a skip with the message,
// or a failure when RequireEnv is "1".
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s (%s=1: every toolchain must be installed)", msg, RequireEnv)
	}
	t.Skip(msg)
}
