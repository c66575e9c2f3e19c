package js

import (
	"path/filepath"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// commandArgs builds each framework's command line. files are relative to
// dir; pattern is "" to run the files whole. The user's extra arguments go
// last but before the files, so that they can add flags.
func commandArgs(fw testdex.Framework, reporter, pattern string, files []string, dir string, o lang.RunOptions) []string {
	var args []string
	switch fw {
	case testdex.Jest:
		// --runTestsByPath takes the files as exact paths, not patterns.
		args = []string{"npx", "--no-install", "jest", "--ci", "--reporters=" + reporter}
		if pattern != "" {
			args = append(args, "--testNamePattern="+pattern)
		}
		if o.TestTimeout > 0 {
			args = append(args, "--testTimeout="+millis(o))
		}
		args = append(append(args, o.Extra...), "--runTestsByPath")
	case testdex.Vitest:
		args = []string{"npx", "--no-install", "vitest", "run", "--reporter=" + reporter}
		if pattern != "" {
			args = append(args, "--testNamePattern="+pattern)
		}
		if o.TestTimeout > 0 {
			args = append(args, "--testTimeout="+millis(o))
		}
		args = append(args, o.Extra...)
		// Vitest's file filters are substrings of the path: absolute paths
		// can only match the file itself.
		abs := make([]string, len(files))
		for i, f := range files {
			abs[i] = filepath.Join(dir, f)
		}
		files = abs
	case testdex.Mocha:
		// Mocha loads a reporter by path; it needs titlePath, which
		// --parallel's serialised tests lack.
		args = []string{"npx", "--no-install", "mocha", "--no-parallel", "--reporter=" + reporter}
		if pattern != "" {
			args = append(args, "--grep", pattern)
		}
		if o.TestTimeout > 0 {
			args = append(args, "--timeout", millis(o))
		}
		args = append(args, o.Extra...)
	case testdex.NodeTest:
		args = []string{"node", "--test", "--test-reporter=" + reporter, "--test-reporter-destination=stdout"}
		if pattern != "" {
			args = append(args, "--test-name-pattern="+pattern)
		}
		if o.TestTimeout > 0 {
			args = append(args, "--test-timeout="+millis(o))
		}
		args = append(args, o.Extra...)
	}
	return append(args, files...)
}
