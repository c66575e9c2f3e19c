//go:build !unix

package flock

import (
	"context"
	"os"
	"path/filepath"
)

// Lock opens the lock file path and takes no lock: off Unix, two testdex
// processes are not kept apart.
func Lock(ctx context.Context, path string, waiting func()) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
