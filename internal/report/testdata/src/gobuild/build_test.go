// Package reportbuild does not compile: its batch is one runner error.
package reportbuild

import "testing"

func TestNeverRuns(t *testing.T) { var unused int }
