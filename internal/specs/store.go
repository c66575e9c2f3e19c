package specs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/state"
)

// storeVersion is the verdict store's format; a store of another version
// is read as empty (every spec is judged again, and the store rewritten).
const storeVersion = 1

// StorePath is the verdict store of root under the cache folder dir:
// one per root, through internal/state.
func StorePath(dir, root string) string { return state.Path(dir, "spec-verdicts", root, "json") }

// Key is what a verdict depends on. A stored verdict is reused only while
// its key is unchanged: the scenario's text (the spec without its other
// scenarios, and the prompt's version), the agent and its version, the
// model, and the content of every file it depends on (those its
// frontmatter paths names, and those the agent said it read).
type Key struct {
	Text  string `json:"text"`  // a hash
	Agent string `json:"agent"` // "claude-code (@anthropic-ai/claude-code@2.1.197)"
	Model string `json:"model,omitempty"`
	// Files are root-relative files with their content hash (Hash).
	Files map[string]string `json:"files,omitempty"`
}

// Stored is a verdict with its key.
type Stored struct {
	Key
	Status     string    `json:"status"` // pass or fail: errors are never stored
	Observed   string    `json:"observed,omitempty"`
	Location   string    `json:"location,omitempty"`
	Resolution string    `json:"resolution,omitempty"`
	Read       []string  `json:"read,omitempty"`
	Commands   []string  `json:"commands,omitempty"`
	Judged     time.Time `json:"judged"`
	// Agreement is the share of --repeat judgements that agreed (1 for
	// one judgement), Judgements how many there were.
	Agreement  float64 `json:"agreement,omitempty"`
	Judgements int     `json:"judgements,omitempty"`
}

// storeFile is the store's format.
type storeFile struct {
	Version  int               `json:"version"`
	Verdicts map[string]Stored `json:"verdicts"` // by test ID
}

// LoadStore reads the verdicts kept at path. A missing, odd or foreign
// store is empty; the error says why for a warning (nil when missing).
func LoadStore(path string) (map[string]Stored, error) {
	data, err := state.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return map[string]Stored{}, nil
	case err != nil:
		return map[string]Stored{}, err
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != storeVersion || f.Verdicts == nil {
		return map[string]Stored{}, fmt.Errorf("the spec verdicts in %s are of another format; judging again", path)
	}
	return f.Verdicts, nil
}

// storeMu makes each update of a store in this process whole: read,
// change, write. (Two processes judging specs of one root at once may
// lose each other's latest verdicts, never a file's validity: a lost
// verdict is judged again.)
var storeMu sync.Mutex

// UpdateStore replaces the verdicts of the given IDs (a nil Stored
// removes one) and writes the store.
func UpdateStore(path string, set map[string]*Stored) error {
	storeMu.Lock()
	defer storeMu.Unlock()
	all, _ := LoadStore(path)
	for id, s := range set {
		if s == nil {
			delete(all, id)
		} else {
			all[id] = *s
		}
	}
	data, err := json.MarshalIndent(storeFile{Version: storeVersion, Verdicts: all}, "", " ")
	if err != nil {
		return err
	}
	return state.Write(path, append(data, '\n'))
}

// TextHash hashes a scenario's text for its key, with the prompt's
// version.
func TextHash(text string) string {
	return strconv.FormatUint(xxh3.HashString(PromptVersion+"\x00"+text), 16)
}

// Hash is a file's state for a key: its content's hash, "dir:" and a hash
// of the names in a folder (an agent that read a folder listed it),
// "absent" for a missing file, "unreadable" for one that cannot be read.
func Hash(root, rel string) string {
	p := filepath.Join(root, filepath.FromSlash(rel))
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case err != nil:
		return "unreadable"
	case st.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return "unreadable"
		}
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		sort.Strings(names)
		return "dir:" + strconv.FormatUint(xxh3.HashString(strings.Join(names, "\x00")), 16)
	case !st.Mode().IsRegular():
		return "special"
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "unreadable"
	}
	return strconv.FormatUint(xxh3.Hash(data), 16)
}

// RootRel makes a path an agent reported root-relative and slash-
// separated; ok is false for a path outside the root (not tracked: a
// verdict's key covers the tree testdex was given) and for nothing.
func RootRel(root, p string) (string, bool) {
	p = strings.TrimSpace(p)
	if i := strings.LastIndexByte(p, ':'); i > 0 && isDigits(p[i+1:]) { // path:line
		p = p[:i]
	}
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Changed says why a stored key no longer matches the current one ("" when
// it does): the first difference found, in the order text, agent, model,
// files. cur.Files holds the files the current key knows before the
// agent runs (those paths names); each file of the stored key is hashed
// again.
func Changed(root string, old, cur Key) string {
	switch {
	case old.Text != cur.Text:
		return "its text changed"
	case old.Agent != cur.Agent:
		return fmt.Sprintf("the agent changed (%s, was %s)", cur.Agent, old.Agent)
	case old.Model != cur.Model:
		return fmt.Sprintf("the model changed (%q, was %q)", cur.Model, old.Model)
	}
	for _, f := range sortedKeys(cur.Files) {
		if _, ok := old.Files[f]; !ok {
			return f + " is new among its paths"
		}
	}
	for _, f := range sortedKeys(old.Files) {
		if h := Hash(root, f); h != old.Files[f] {
			return f + " changed"
		}
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
