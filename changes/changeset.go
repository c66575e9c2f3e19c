package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/testdex/testdex/internal/proc"
)

// Status says how a file changed.
type Status string

// The statuses.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// Change is one changed file, root-relative and slash-separated.
type Change struct {
	Path   string `json:"path"`
	Status Status `json:"status"`
	// Old is the path before a rename; "" otherwise.
	Old string `json:"old,omitempty"`
	// Base is the revision holding a modified file's previous content
	// (FromGit sets it), for a Grapher that narrows a change to what
	// changed in the file (lang.Differ); "" when unknown (--files).
	Base string `json:"-"`
	// Prev is a modified file's previous content when the caller holds
	// it (watch keeps what each saved file held at its previous cycle);
	// the file is then narrowed against Prev rather than Base. nil when
	// unknown.
	Prev []byte `json:"-"`
}

// Set is a change: the changed files, sorted by path.
type Set []Change

// FromFiles makes a change set from named files (`--files`), each
// modified, or deleted when missing: no git involved. exists reports
// whether a root-relative path exists.
func FromFiles(files []string, exists func(string) bool) Set {
	var s Set
	seen := map[string]bool{}
	for _, f := range files {
		f = path.Clean(strings.TrimPrefix(f, "./"))
		if f == "" || f == "." || seen[f] {
			continue
		}
		seen[f] = true
		st := Modified
		if !exists(f) {
			st = Deleted
		}
		s = append(s, Change{Path: f, Status: st})
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	return s
}

// OutsideError is a named changed file that lies outside the root.
type OutsideError struct{ File, Root string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s is outside the root %s (name files under it)", e.File, e.Root)
}

// RootFiles turns named changed files (root-relative, or absolute) into
// the root-relative, slash-separated paths FromFiles takes, refusing one
// outside the root with an *OutsideError. A file need not exist: a
// deleted file is a change too.
func RootFiles(root string, files []string) ([]string, error) {
	out := make([]string, 0, len(files))
	for _, f := range files {
		rel := f
		if filepath.IsAbs(f) {
			r, err := filepath.Rel(root, f)
			if err != nil {
				return nil, &OutsideError{File: f, Root: root}
			}
			rel = r
		}
		rel = filepath.ToSlash(filepath.Clean(rel))
		if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			return nil, &OutsideError{File: f, Root: root}
		}
		out = append(out, rel)
	}
	return out, nil
}

// GitOptions configure FromGit.
type GitOptions struct {
	// Root is the absolute root; paths are relative to it (it may be a
	// folder inside the work tree).
	Root string
	// Since is the revision the work tree is compared with; "" means HEAD.
	Since string
	// Env is git's environment (callers pass os.Environ()).
	Env []string
}

// ErrNotGit is returned when the root is not inside a git work tree.
var ErrNotGit = errors.New("not a git work tree")

// ErrBadRevision is returned when Since names no commit of the
// repository (a typo, a branch not fetched): the user's mistake, with the
// next step in its text.
var ErrBadRevision = errors.New("bad revision")

// FromGit returns what changed in the work tree against Since: staged,
// unstaged and untracked (not ignored) files, deleted and renamed ones,
// under the root. It runs git (never repository code) through proc.
func FromGit(ctx context.Context, o GitOptions) (Set, error) {
	since := o.Since
	if since == "" {
		since = "HEAD"
	}
	if strings.HasPrefix(since, "-") {
		return nil, fmt.Errorf("%w %q: a revision cannot start with '-'", ErrBadRevision, since)
	}
	if _, err := git(ctx, o, "rev-parse", "--is-inside-work-tree"); err != nil {
		return nil, err
	}
	if _, err := git(ctx, o, "rev-parse", "--verify", "--quiet", since+"^{commit}"); err != nil {
		if o.Since == "" {
			return nil, fmt.Errorf("%w HEAD: the repository has no commit yet (commit once, name the changed files with --files, or use 'testdex run --changed')", ErrBadRevision)
		}
		if out, _ := git(ctx, o, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(out)) == "true" {
			return nil, fmt.Errorf("%w %q: not in this shallow clone's history (fetch more history: 'git fetch --deepen=50', or 'git fetch --unshallow')", ErrBadRevision, since)
		}
		return nil, fmt.Errorf("%w %q: no such commit in this repository (fetch it first, e.g. 'git fetch origin main', or name another: HEAD~1, a tag, a commit hash)", ErrBadRevision, since)
	}
	diff, err := git(ctx, o, "diff", "--name-status", "-z", "-M", "--relative", since, "--", ".")
	if err != nil {
		return nil, err
	}
	untracked, err := git(ctx, o, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	s := parseNameStatus(diff)
	for i := range s {
		if s[i].Status == Modified {
			s[i].Base = since
		}
	}
	for _, f := range bytes.Split(untracked, []byte{0}) {
		if len(f) > 0 {
			s = append(s, Change{Path: string(f), Status: Added})
		}
	}
	if s, err = submoduleChanges(ctx, o, since, s); err != nil {
		return nil, err
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	return s, nil
}

// submoduleChanges replaces each changed submodule of s (a gitlink, which
// git's diff reports as one changed path) by the changes inside it: its
// files against the commit the superproject recorded at since (every
// file, added, for a submodule that was not there), its own submodules
// included. The listing lists a submodule's tests as the root's, so a
// change there affects them like any other. Changes inside a submodule
// carry no Base (the superproject cannot show their old content): they
// count whole, never narrowed.
func submoduleChanges(ctx context.Context, o GitOptions, since string, s Set) (Set, error) {
	links, err := git(ctx, o, "ls-files", "-z", "--stage", "--", ".")
	if err != nil {
		return nil, err
	}
	subs := map[string]bool{}
	for _, e := range bytes.Split(links, []byte{0}) { // "MODE OID STAGE\tPATH"
		if meta, p, ok := bytes.Cut(e, []byte{'\t'}); ok && bytes.HasPrefix(meta, []byte("160000 ")) {
			subs[string(p)] = true
		}
	}
	if len(subs) == 0 {
		return s, nil
	}
	var out Set
	for _, c := range s {
		if !subs[c.Path] || c.Status == Deleted {
			out = append(out, c)
			continue
		}
		inner := GitOptions{Root: filepath.Join(o.Root, filepath.FromSlash(c.Path)), Env: o.Env}
		if _, err := os.Stat(filepath.Join(inner.Root, ".git")); err != nil {
			out = append(out, c) // not checked out: the gitlink is all there is
			continue
		}
		var in Set
		if base, err := git(ctx, o, "rev-parse", since+":./"+c.Path); err == nil {
			inner.Since = strings.TrimSpace(string(base))
			if in, err = FromGit(ctx, inner); err != nil {
				return nil, fmt.Errorf("submodule %s: %w", c.Path, err)
			}
		} else { // added since: every file of it is new
			files, err := git(ctx, inner, "ls-files", "-z", "--", ".")
			if err != nil {
				return nil, fmt.Errorf("submodule %s: %w", c.Path, err)
			}
			for _, f := range bytes.Split(files, []byte{0}) {
				if len(f) > 0 {
					in = append(in, Change{Path: string(f), Status: Added})
				}
			}
		}
		for _, ic := range in {
			ic.Path, ic.Base = c.Path+"/"+ic.Path, ""
			if ic.Old != "" {
				ic.Old = c.Path + "/" + ic.Old
			}
			out = append(out, ic)
		}
	}
	return out, nil
}

// parseNameStatus reads `git diff --name-status -z`: a status (M, A, D,
// T, R100, C75) then one path, or two for renames and copies.
func parseNameStatus(out []byte) Set {
	fields := bytes.Split(out, []byte{0})
	var s Set
	for i := 0; i < len(fields); i++ {
		st := string(fields[i])
		if st == "" {
			continue
		}
		next := func() string {
			i++
			if i < len(fields) {
				return string(fields[i])
			}
			return ""
		}
		switch st[0] {
		case 'A':
			s = append(s, Change{Path: next(), Status: Added})
		case 'D':
			s = append(s, Change{Path: next(), Status: Deleted})
		case 'R':
			old := next()
			s = append(s, Change{Path: next(), Status: Renamed, Old: old})
		case 'C':
			next()
			s = append(s, Change{Path: next(), Status: Added})
		default: // M, T (type change), U (unmerged), X
			s = append(s, Change{Path: next(), Status: Modified})
		}
	}
	return s
}

// git runs one git command in the root and returns its standard output.
func git(ctx context.Context, o GitOptions, args ...string) ([]byte, error) {
	res, err := proc.Run(ctx, proc.Spec{Args: append([]string{"git"}, args...), Dir: o.Root, Env: o.Env, Timeout: time.Minute, Cap: 64 << 20})
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	if res.ExitCode != 0 {
		msg := strings.TrimSpace(string(res.Stderr))
		if strings.Contains(msg, "not a git repository") {
			return nil, fmt.Errorf("%w: %s (name the changed files with --files)", ErrNotGit, o.Root)
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return res.Stdout, nil
}

// showFiles returns the content at rev of each root-relative file that
// exists there, through one `git cat-file --batch` for all of them (one
// `git show` a file cost 90 s for 10,000 changed files). A file absent at
// rev is absent from the map; a path git's batch protocol cannot carry
// (a newline in it) is asked for alone.
func showFiles(ctx context.Context, root, rev string, files []string) (map[string][]byte, error) {
	prefix, err := git(ctx, GitOptions{Root: root}, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	top := strings.TrimSuffix(string(prefix), "\n")
	var in bytes.Buffer
	var asked []string
	out := map[string][]byte{}
	for _, f := range files {
		if strings.ContainsAny(f, "\n\r") {
			if data, err := showFile(ctx, root, rev, f); err == nil {
				out[f] = data
			}
			continue
		}
		asked = append(asked, f)
		in.WriteString(rev + ":" + top + f + "\n")
	}
	if len(asked) == 0 {
		return out, nil
	}
	var stdout bytes.Buffer
	res, err := proc.Run(ctx, proc.Spec{Args: []string{"git", "cat-file", "--batch"}, Dir: root, Timeout: 10 * time.Minute,
		Cap: 4 << 10, Stdin: &in, Stdout: &stdout})
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, fmt.Errorf("git cat-file --batch: %s", strings.TrimSpace(string(res.Stderr)))
	}
	return out, parseBatch(stdout.Bytes(), asked, out)
}

// parseBatch reads `git cat-file --batch`'s answers to asked, in order:
// "OID TYPE SIZE\n" then SIZE bytes and "\n", or "NAME missing\n" (also
// "ambiguous"), and puts each blob's content in out.
func parseBatch(data []byte, asked []string, out map[string][]byte) error {
	for _, f := range asked {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return fmt.Errorf("git cat-file --batch: the answer for %s is cut short", f)
		}
		head := strings.Fields(string(data[:nl]))
		data = data[nl+1:]
		if len(head) != 3 {
			continue // missing or ambiguous
		}
		size, err := strconv.Atoi(head[2])
		if err != nil || size < 0 || size+1 > len(data) {
			return fmt.Errorf("git cat-file --batch: bad answer for %s", f)
		}
		if head[1] == "blob" {
			out[f] = data[:size:size]
		}
		data = data[size+1:]
	}
	return nil
}

// showFile returns a root-relative file's content at a revision, through
// git (never repository code).
func showFile(ctx context.Context, root, rev, file string) ([]byte, error) {
	return git(ctx, GitOptions{Root: root}, "show", rev+":./"+file)
}

// Head returns the commit HEAD names in the work tree of o.Root; an
// error outside git or in a repository without commits.
func Head(ctx context.Context, o GitOptions) (string, error) {
	out, err := git(ctx, o, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
