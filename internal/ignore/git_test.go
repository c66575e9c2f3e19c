package ignore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// The differential test: random trees with random ignore files drawn from a
// grammar of every gitignore feature, judged by the git binary and by this
// package; every path must get the same verdict from the same rule.

// names is the pool of file and folder names; it includes names that need
// escapes in patterns ("#h", "!n", "t ") and names the wildcards hit.
var names = []string{"a", "b", "ab", "a.log", "b.txt", "x1", "x9", "#h", "!n", "d d", "t ", "foo", "bar.go", ".hid", "Ab", "-q"}

// pieces are the pattern segments besides plain names.
var pieces = []string{"*", "?", "a*", "*.log", "[ab]", "[!a]*", "[a-c]", "x[0-9]", "**", "*.txt", "b*", "[[:alpha:]]*",
	"*b", "?b", "[^x]?", "x[[:digit:]]", "a**", "[]a]*", "[a-]*", "\\a*", "*[.]go"}

const seeds = 200

var gitPaths atomic.Int64

// negated marks the verdict of a negation rule.
const negated = " (negated)"

func TestAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not on PATH; the differential test against git needs it")
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			checkSeed(t, seed)
		})
	}
	t.Cleanup(func() { t.Logf("%d paths agreed with git over %d trees", gitPaths.Load(), seeds) })
}

// checkSeed builds the tree of one seed and compares every path's verdict.
func checkSeed(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	root := t.TempDir()
	git(t, root, nil, "init", "-q")
	var paths []string
	genDir(t, rng, root, "", 0, &paths)
	if rng.IntN(2) == 0 {
		writeIgnore(t, rng, filepath.Join(root, ".git", "info", "exclude"))
	}
	ours := ourVerdicts(t, root)
	theirs := gitVerdicts(t, root, paths)
	for _, p := range paths {
		if ours[p] != theirs[p] {
			t.Errorf("%q: ours %q, git %q\n%s", p, ours[p], theirs[p], dumpIgnores(root))
		}
	}
	gitPaths.Add(int64(len(paths)))
	checkListing(t, root, ours)
}

// genDir fills folder rel with random entries and maybe a .gitignore.
func genDir(t *testing.T, rng *rand.Rand, root, rel string, depth int, paths *[]string) {
	abs := filepath.Join(root, rel)
	n := 2 + rng.IntN(4)
	for _, i := range rng.Perm(len(names))[:n] {
		p := path.Join(rel, names[i])
		*paths = append(*paths, p)
		if depth < 3 && rng.IntN(3) == 0 {
			must(t, os.Mkdir(filepath.Join(abs, names[i]), 0o755))
			genDir(t, rng, root, p, depth+1, paths)
			continue
		}
		must(t, os.WriteFile(filepath.Join(abs, names[i]), nil, 0o644))
	}
	if rng.IntN(3) != 0 {
		writeIgnore(t, rng, filepath.Join(abs, ".gitignore"))
		*paths = append(*paths, path.Join(rel, ".gitignore"))
	}
}

// writeIgnore writes 1 to 8 random lines to file.
func writeIgnore(t *testing.T, rng *rand.Rand, file string) {
	var b strings.Builder
	for range 1 + rng.IntN(8) {
		b.WriteString(randomLine(rng))
		if rng.IntN(10) == 0 {
			b.WriteString("\r")
		}
		b.WriteString("\n")
	}
	must(t, os.WriteFile(file, []byte(b.String()), 0o644))
}

// randomLine draws one ignore-file line from the grammar.
func randomLine(rng *rand.Rand) string {
	switch rng.IntN(20) {
	case 0:
		return "# comment"
	case 1:
		return ""
	case 2:
		return []string{"[ab", "a\\", "[[:nope:]]", "!", "/", "x[z-"}[rng.IntN(6)]
	}
	segs := make([]string, 1+rng.IntN(3))
	for i := range segs {
		if rng.IntN(2) == 0 {
			segs[i] = escapeName(names[rng.IntN(len(names))])
		} else {
			segs[i] = pieces[rng.IntN(len(pieces))]
		}
	}
	p := strings.Join(segs, "/")
	p = []string{"", "", "/", "**/"}[rng.IntN(4)] + p
	p += []string{"", "", "/", "/**", "/*"}[rng.IntN(5)]
	if rng.IntN(5) == 0 {
		p = "!" + p
	}
	if rng.IntN(8) == 0 {
		p += "  "
	}
	return p
}

// escapeName turns a name into a pattern matching exactly it.
func escapeName(n string) string {
	if n[0] == '#' || n[0] == '!' {
		n = "\\" + n
	}
	if strings.HasSuffix(n, " ") {
		n = n[:len(n)-1] + "\\ "
	}
	return n
}

// ourVerdicts walks root as package walk does and returns, for every path
// (files and folders, .git excluded), "" when not ignored or
// "SOURCE:LINE" of the deciding rule, followed by [negated] for a negation.
// Paths inside an ignored folder get that folder's rule, as git reports.
func ourVerdicts(t *testing.T, root string) map[string]string {
	exclude := loadRules(t, root, ".git/info/exclude")
	out := map[string]string{}
	var walk func(rel string, m *Matcher, inherited string)
	walk = func(rel string, m *Matcher, inherited string) {
		if inherited == "" {
			rules := loadRules(t, root, path.Join(rel, ".gitignore"))
			if rel == "" {
				m = New("", exclude, rules)
			} else {
				m = m.Child(rel, rules)
			}
		}
		ents, err := os.ReadDir(filepath.Join(root, rel))
		must(t, err)
		for _, e := range ents {
			p := path.Join(rel, e.Name())
			if p == ".git" {
				continue
			}
			v := inherited
			if v == "" {
				v = verdict(m.Match(p, e.IsDir()))
			}
			out[p] = v
			if e.IsDir() {
				if strings.HasSuffix(v, negated) {
					v = ""
				}
				walk(p, m, v)
			}
		}
	}
	walk("", nil, "")
	return out
}

func verdict(d Decision) string {
	if d.Rule == nil {
		return ""
	}
	v := fmt.Sprintf("%s:%d", d.Rule.Source, d.Rule.Line)
	if d.Rule.Negate {
		v += negated
	}
	return v
}

// loadRules parses root/rel if it exists.
func loadRules(t *testing.T, root, rel string) []Rule {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if os.IsNotExist(err) {
		return nil
	}
	must(t, err)
	rules, _ := Parse(rel, data)
	return rules
}

// gitVerdicts asks `git check-ignore -v -n --no-index` about every path.
func gitVerdicts(t *testing.T, root string, paths []string) map[string]string {
	in := strings.Join(paths, "\x00") + "\x00"
	out := git(t, root, []byte(in), "check-ignore", "-v", "-n", "-z", "--no-index", "--stdin")
	f := strings.Split(string(out), "\x00")
	v := map[string]string{}
	for i := 0; i+3 < len(f); i += 4 {
		src, line, pat, p := f[i], f[i+1], f[i+2], f[i+3]
		switch {
		case src == "":
			v[p] = ""
		case strings.HasPrefix(pat, "!"):
			v[p] = src + ":" + line + negated
		default:
			v[p] = src + ":" + line
		}
	}
	return v
}

// checkListing compares the files git lists as untracked and not ignored
// with those our verdicts keep.
func checkListing(t *testing.T, root string, ours map[string]string) {
	out := git(t, root, nil, "ls-files", "-z", "--others", "--exclude-standard")
	theirs := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(out) == 0 {
		theirs = nil
	}
	var kept []string
	for p, v := range ours {
		fi, err := os.Lstat(filepath.Join(root, p))
		must(t, err)
		if !fi.IsDir() && (v == "" || strings.HasSuffix(v, negated)) {
			kept = append(kept, p)
		}
	}
	slices.Sort(kept)
	slices.Sort(theirs)
	if !slices.Equal(kept, theirs) {
		t.Errorf("listing differs:\nours %q\ngit  %q\n%s", kept, theirs, dumpIgnores(root))
	}
}

// git runs git in dir with a configuration isolated from the machine's.
func git(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"HOME="+dir, "XDG_CONFIG_HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
	}
	return out
}

// dumpIgnores lists every ignore file under root with its content.
func dumpIgnores(root string) string {
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && (d.Name() == ".gitignore" || d.Name() == "exclude") {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			fmt.Fprintf(&b, "--- %s\n%s", rel, data)
		}
		return nil
	})
	return b.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
