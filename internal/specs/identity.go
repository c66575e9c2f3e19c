package specs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"
)

// ErrNoAgent is a program that is not in PATH.
var ErrNoAgent = errors.New("not in PATH")

// LookPath finds program as the child's environment would: in env's PATH
// when it sets one, else in testdex's own (as internal/proc does).
func LookPath(program string, env []string) (string, error) {
	if strings.Contains(program, "/") {
		if isExec(program) {
			return filepath.Abs(program)
		}
		return "", ErrNoAgent
	}
	path, set := "", false
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "PATH="); ok {
			path, set = v, true
			break
		}
	}
	if !set {
		p, err := exec.LookPath(program)
		if err != nil {
			return "", ErrNoAgent
		}
		return filepath.Abs(p)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if p := filepath.Join(dir, program); isExec(p) {
			return filepath.Abs(p)
		}
	}
	return "", ErrNoAgent
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// Version identifies the installed agent program at path, for a verdict's
// key: an upgrade judges again. It is the npm package's name@version
// when the program is a package's bin (the agent CLIs are npm packages),
// else a hash of the program file (of its size and time when it is
// larger than 16 MiB). Results are kept per path, size and time.
func Version(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "unknown"
	}
	st, err := os.Stat(real)
	if err != nil {
		return "unknown"
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", real, st.Size(), st.ModTime().UnixNano())
	if v, ok := versions.Load(key); ok {
		return v.(string)
	}
	v := packageVersion(real)
	if v == "" {
		v = fileHash(real, st.Size(), st.ModTime().UnixNano())
	}
	versions.Store(key, v)
	return v
}

var versions sync.Map

// packageVersion walks up from a program file to the package.json whose
// bin names it, at most four folders up; "" when there is none.
func packageVersion(real string) string {
	dir := filepath.Dir(real)
	for range 4 {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pkg struct {
				Name, Version string
				Bin           json.RawMessage
			}
			if json.Unmarshal(data, &pkg) == nil && pkg.Version != "" && binNames(dir, pkg.Bin, real) {
				return pkg.Name + "@" + pkg.Version
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// binNames reports whether a package.json bin field (a path, or a map of
// names to paths) names the file real.
func binNames(dir string, bin json.RawMessage, real string) bool {
	var paths []string
	var one string
	var many map[string]string
	switch {
	case json.Unmarshal(bin, &one) == nil:
		paths = []string{one}
	case json.Unmarshal(bin, &many) == nil:
		for _, p := range many {
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(filepath.Join(dir, p)); err == nil && r == real {
			return true
		}
	}
	return false
}

// fileHash hashes a program file (its size and time past 16 MiB).
func fileHash(real string, size, mtime int64) string {
	if size > 16<<20 {
		return "file:" + strconv.FormatInt(size, 10) + "@" + strconv.FormatInt(mtime, 10)
	}
	f, err := os.Open(real)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := xxh3.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return "xxh3:" + strconv.FormatUint(h.Sum64(), 16)
}
