package java

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// Per-test coverage (lang.Coverer) for JUnit through Maven, with JaCoCo:
//
//	javac  TestdexCoverageListener (jacoco/), against stand-ins of the few
//	       JUnit Platform types it uses, into CACHE/java-coverage/KEY/listener
//	       (KEY: the sources, JaCoCo's version and the JDK), once; into
//	       SCRATCH/listener at each run without a cache folder
//	mvn    jacoco-maven-plugin:prepare-agent (the agent on Surefire's
//	       argLine, prepended to the project's own) + dependency:copy of
//	       JaCoCo's CLI jar into SCRATCH + the project's own `test`, with
//	       SCRATCH/listener on the test class path (Surefire's
//	       maven.test.additionalClasspath), where the launcher finds the
//	       listener through ServiceLoader
//	java   TestdexCoverageReader (compiled once into KEY/reader against
//	       the CLI jar's JaCoCo core; source-file mode without a cache
//	       folder): the listener's records (SCRATCH/exec, named to the
//	       listener by a -D property and a variable) and the built
//	       classes to each test's executed lines
//
// The listener takes the agent's data with a reset at every start and
// end of a test or container, so each test gets what ran during it, plus
// what its class ran before it (@BeforeAll, static set-up). Everything
// is fetched through Maven into the local repository, as the project's
// own plugins are; nothing is committed but the Java sources here.
//
// What differs from a plain run: the test JVM runs with JaCoCo's agent
// and testdex's listener, and sees Maven's -D properties of these
// commands as system properties (jacoco.destFile, artifact,
// outputDirectory, maven.test.additionalClasspath), as Surefire hands it
// every -D. Results are Surefire's reports, read as without coverage.
//
// Limits: a class's static initialiser counts for the first test that
// loads the class; a line that throws (an assertion that fails, a
// mutated line that throws) does not count as executed, since JaCoCo's
// probes sit after the instructions they vouch for; tests run in parallel
// in one JVM (JUnit's parallel mode) share their data; a project whose
// pom sets Surefire's <argLine> without @{argLine} drops the agent (the
// reader says so in a note, and the tests run without coverage); Surefire's JUnit 4
// provider (a project with junit:junit and no JUnit Platform) loads no
// launcher listener, so its tests record nothing.
//
// Overhead on commons-cli 1.9.0 (738 tests; docs/coverage.md, "Java"),
// with the listener and the reader compiled once: x1.28 to x1.56 in CPU
// time and x1.27 to x1.49 in wall time against a plain run, by the
// machine's load (x1.54 to x1.63 and x1.43 to x1.77 when javac compiled
// both at each run).

// JacocoVersion is the JaCoCo release whose agent, Maven plugin and CLI
// record and read coverage (the newest Maven Central serves whole here).
const JacocoVersion = "0.8.15"

// DependencyPlugin copies JaCoCo's CLI jar next to the reader.
const DependencyPlugin = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"

//go:embed jacoco
var jacocoSources embed.FS

const (
	listenerClass = "testdex.TestdexCoverageListener"
	readerMarker  = "testdex-covered\t"
	noteMarker    = "testdex-covnote\t" // why coverage is missing: a note (lang.ActionCovered)
)

// CoverageCheck reports, wrapping lang.ErrNotInstalled, a missing mvn,
// javac (the listener is compiled at each run) or java on the
// commands' PATH.
func (Runner) CoverageCheck(p *lang.Project, o lang.RunOptions) error {
	if p.Manifest != "pom.xml" {
		return fmt.Errorf("coverage of %s needs Maven; testdex does not run Gradle projects", p.Dir)
	}
	for _, tool := range []string{"mvn", "javac", "java"} {
		if _, err := lookPath(tool, o.Getenv("PATH")); err != nil {
			return fmt.Errorf("%w: %s (JaCoCo coverage needs a JDK 11 or newer and Maven on PATH)", lang.ErrNotInstalled, tool)
		}
	}
	return nil
}

// Granularity is "test": each test method, each parameterized row on its
// own, with its class's set-up.
func (Runner) Granularity() string { return "test" }

var _ lang.Coverer = Runner{}

// lookPath finds a program on the given PATH.
func lookPath(name, pathEnv string) (string, error) {
	for _, dir := range filepath.SplitList(pathEnv) {
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// coverageCommands writes the listener's and the reader's sources to the
// scratch folder and returns the commands around mvn (its arguments
// after "mvn -B"): javac before (none when the compiled listener is in
// the cache folder already), the reader after.
func coverageCommands(p *lang.Project, o lang.RunOptions, mvn []string) ([]*lang.Command, error) {
	if o.Dir == "" {
		return nil, errors.New("no scratch folder for JaCoCo's coverage (set RunOptions.Dir)")
	}
	src := filepath.Join(o.Dir, "jacoco")
	if err := os.CopyFS(src, subFS()); err != nil {
		return nil, fmt.Errorf("write the JaCoCo listener: %w", err)
	}
	compiled := compiledDir(o)
	listener, readerDir := filepath.Join(compiled, "listener"), filepath.Join(compiled, "reader")
	if compiled == "" {
		listener, readerDir = filepath.Join(o.Dir, "listener"), ""
	}
	var cmds []*lang.Command
	if !isFile(filepath.Join(listener, "testdex", "TestdexCoverageListener.class")) {
		javac, err := listenerJavac(p, o, src, listener)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, javac)
	}
	cli := filepath.Join(o.Dir, "org.jacoco.cli-"+JacocoVersion+"-nodeps.jar")
	exec := filepath.Join(o.Dir, "exec")
	run := &lang.Command{Dir: p.Dir, Args: append([]string{"mvn", "-B",
		"org.jacoco:jacoco-maven-plugin:" + JacocoVersion + ":prepare-agent",
		DependencyPlugin + ":copy", "-Dartifact=org.jacoco:org.jacoco.cli:" + JacocoVersion + ":jar:nodeps", "-DoutputDirectory=" + o.Dir,
		"-Djacoco.destFile=" + filepath.Join(o.Dir, "jacoco.exec"), "-Djacoco.dumpOnExit=false",
		"-Dmaven.test.additionalClasspath=" + listener, "-Dtestdex.jacoco.exec=" + exec}, mvn...),
		Env: []string{"TESTDEX_JACOCO_EXEC=" + exec}, Exclusive: reportsLock(p)}
	read := []string{"sh", "-c", readerScript, "sh", cli, filepath.Join(src, "TestdexCoverageReader.java"), readerDir, exec, p.Dir}
	if g, ok := p.Grapher.(Grapher); ok && g.TestDir != defaultTestDir {
		read = append(read, filepath.Join(p.Dir, filepath.FromSlash(g.TestDir)))
	}
	return append(cmds, run, &lang.Command{Dir: p.Dir, Args: read}), nil
}

// listenerJavac is the javac command that compiles the listener into
// dest: straight there without a cache folder, else into a fresh folder
// beside dest that a shell then renames to dest, so that a run never
// sees half a listener and concurrent runs each get a whole one.
func listenerJavac(p *lang.Project, o lang.RunOptions, src, dest string) (*lang.Command, error) {
	out := dest
	if dest != filepath.Join(o.Dir, "listener") {
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return nil, fmt.Errorf("cache folder for the JaCoCo listener: %w", err)
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dest), "listener-")
		if err != nil {
			return nil, fmt.Errorf("cache folder for the JaCoCo listener: %w", err)
		}
		out = tmp
	}
	services := filepath.Join(out, "META-INF", "services")
	if err := os.MkdirAll(services, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(services, "org.junit.platform.launcher.TestExecutionListener"), []byte(listenerClass+"\n"), 0o644); err != nil {
		return nil, err
	}
	// C1 alone (TieredStopAtLevel=1): these short JVMs spend more in
	// C2's compiles than they win (the reader: 2.8 s against 6.4 s on
	// commons-cli's 738 tests).
	javac := []string{"javac", "-J-XX:TieredStopAtLevel=1", "--release", "8", "-implicit:none", "-nowarn", "-Xlint:-options",
		"-sourcepath", filepath.Join(src, "stubs"), "-d", out, filepath.Join(src, "TestdexCoverageListener.java")}
	if out == dest {
		return &lang.Command{Dir: p.Dir, Args: javac}, nil
	}
	script := `t=$1; d=$2; shift 2; "$@" || { rm -rf "$t"; exit 1; }; [ -d "$d" ] || mv "$t" "$d"; rm -rf "$t"`
	return &lang.Command{Dir: p.Dir, Args: append([]string{"sh", "-c", script, javacScriptName, out, dest}, javac...)}, nil
}

// javacScriptName is $0 of the shell around javac that fills the cache.
const javacScriptName = "testdex-javac"

// readerScript runs the reader: $1 is JaCoCo's CLI jar, $2 the reader's
// source, $3 its compiled folder in the cache ("" for none), the rest
// the reader's arguments. The reader is compiled once into $3 (through
// a fresh folder renamed into place), for Java 11 (--release 11: the
// java on PATH may be older than javac); without a cache folder, or when
// javac fails, it runs in source-file mode, which compiles it each time.
const readerScript = `cli=$1; src=$2; rd=$3; shift 3
[ -f "$cli" ] || { printf '` + noteMarker + `%s\n' "mvn did not copy JaCoCo's CLI ($cli), which reads the coverage: see mvn's output"; exit 0; }
if [ -n "$rd" ] && [ ! -f "$rd/TestdexCoverageReader.class" ]; then
  t="$rd.$$"; rm -rf "$t"
  javac -J-XX:TieredStopAtLevel=1 --release 11 -nowarn -encoding UTF-8 -cp "$cli" -d "$t" "$src" >&2 && { [ -d "$rd" ] || mv "$t" "$rd"; }
  rm -rf "$t"
fi
[ -n "$rd" ] && [ -f "$rd/TestdexCoverageReader.class" ] && exec java -XX:TieredStopAtLevel=1 -cp "$rd:$cli" TestdexCoverageReader "$@"
exec java -XX:TieredStopAtLevel=1 -cp "$cli" "$src" "$@"`

// compiledDir is the cache folder of the compiled listener and reader,
// keyed by their sources, JaCoCo's version and the JDK of the javac on
// the commands' PATH; "" without a cache folder.
func compiledDir(o lang.RunOptions) string {
	if o.CacheDir == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "jacoco %s\njdk %s\n", JacocoVersion, jdkIdentity(o))
	_ = fs.WalkDir(subFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(subFS(), path)
		fmt.Fprintf(h, "%s %d\n", path, len(data))
		h.Write(data)
		return err
	})
	return filepath.Join(o.CacheDir, "java-coverage", hex.EncodeToString(h.Sum(nil))[:16])
}

// jdkIdentity names the JDK of the javac on the commands' PATH without
// running it: its release file (JAVA_VERSION and the rest), else the
// real path, size and time of javac itself.
func jdkIdentity(o lang.RunOptions) string {
	javac, err := lookPath("javac", o.Getenv("PATH"))
	if err != nil {
		return "none"
	}
	if real, err := filepath.EvalSymlinks(javac); err == nil {
		javac = real
	}
	if release, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(javac)), "release")); err == nil {
		return string(release)
	}
	st, err := os.Stat(javac)
	if err != nil {
		return javac
	}
	return fmt.Sprintf("%s %d %d", javac, st.Size(), st.ModTime().UnixNano())
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// subFS is the embedded jacoco folder itself.
func subFS() fs.FS {
	sub, err := fs.Sub(jacocoSources, "jacoco")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}

// isReader and isJavac tell the commands of a coverage run apart.
func isReader(cmd *lang.Command) bool {
	return len(cmd.Args) > 3 && cmd.Args[0] == "sh" && cmd.Args[3] == "sh"
}
func isJavac(cmd *lang.Command) bool {
	return len(cmd.Args) > 0 && (cmd.Args[0] == "javac" || len(cmd.Args) > 3 && cmd.Args[0] == "sh" && cmd.Args[3] == javacScriptName)
}

// coverParser reads the reader's (or javac's) output: each
// readerMarker line is one test's coverage, each noteMarker line a note,
// the rest batch output.
type coverParser struct {
	emit func(lang.RunEvent)
	out  lines.Splitter
}

func (cp *coverParser) Write(b []byte) (int, error) {
	cp.out.Line = cp.line // here, so that a coverParser literal works
	return cp.out.Write(b)
}

func (cp *coverParser) Close(int) error {
	cp.out.Line = cp.line
	cp.out.Flush()
	return nil
}

// covered is one line of the reader's.
type covered struct {
	Scope string `json:"scope"`
	Name  string `json:"name"`
	Files []struct {
		File  string   `json:"file"`
		Lines [][2]int `json:"lines"`
	} `json:"files"`
}

// line reads one line, without its newline.
func (cp *coverParser) line(l []byte) {
	if note, ok := bytes.CutPrefix(l, []byte(noteMarker)); ok {
		cp.emit(lang.RunEvent{Action: lang.ActionCovered, Message: string(bytes.TrimSpace(note))})
		return
	}
	rest, ok := bytes.CutPrefix(l, []byte(readerMarker))
	var c covered
	if !ok || json.Unmarshal(rest, &c) != nil {
		cp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
		return
	}
	ev := lang.RunEvent{Action: lang.ActionCovered, Scope: c.Scope, Name: recordName(c.Name), Covered: []lang.CoveredFile{}}
	if ev.Name == "" {
		ev.Scope, ev.Name = splitClass(c.Scope)
	}
	for _, f := range c.Files {
		cf := lang.CoveredFile{File: f.File}
		for _, s := range f.Lines {
			cf.Lines = append(cf.Lines, lang.Span{Start: s[0], End: s[1]})
		}
		ev.Covered = append(ev.Covered, cf)
	}
	cp.emit(ev)
}
