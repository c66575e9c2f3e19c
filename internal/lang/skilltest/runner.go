package skilltest

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

// wrapper is the node program that runs one module and writes its result
// file; RunCommands writes it to the batch's scratch folder.
//
//go:embed wrapper.mjs
var wrapper []byte

// The environment a command carries. The parser reads them back from the
// command, so a command is self-describing (no state kept between
// RunCommands and NewParser); a declared command also sees its own name.
const (
	envResult  = "TESTDEX_SKILLTEST_RESULT"  // module: the result file
	envCommand = "TESTDEX_SKILLTEST_COMMAND" // command: its name
)

// DefaultTestTimeout is a module's limit when the run sets none: the
// seed's 30 s. The core enforces it from outside (lang.Command.Timeout):
// past it the module's process group is stopped, so a module that blocks
// the event loop (a busy loop) costs its limit and no more, and the next
// module runs.
const DefaultTestTimeout = 30 * time.Second

// runner runs each module and command in its own process, one after the
// other (modules at the same time with [skilltest] parallel), as the seed
// does: a module cannot crash or pollute another, and a hang costs only
// its per-test limit.
type runner struct {
	commands map[string]config.Command // by name
	// parallel gives each module a lane of its own, so the core runs
	// them at the same time, up to -j ([skilltest] parallel = true).
	parallel bool
}

// RunCommands returns one command per test: node on the wrapper for a
// module (run in the module's folder, as the seed does), the declared argv
// for a command (run from the root; a relative first word with a slash is
// made absolute). Extra arguments are appended to declared commands' argv
// and passed to node before the wrapper for modules. A module's command
// carries its per-test limit (DefaultTestTimeout unless the run sets
// one), a declared command the run's alone; with [skilltest] parallel
// each module has a lane of its own.
func (r *runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	wrapperPath := filepath.Join(o.Dir, "skilltest-wrapper.mjs")
	var cmds []*lang.Command
	wrote := false
	for i, t := range tests {
		if t.File == config.FileName {
			c, err := r.command(p, t, o)
			if err != nil {
				return nil, err
			}
			cmds = append(cmds, c)
			continue
		}
		if !wrote {
			if err := os.WriteFile(wrapperPath, wrapper, 0o644); err != nil {
				return nil, fmt.Errorf("write the skilltest wrapper: %w (check the temporary folder)", err)
			}
			wrote = true
		}
		c := moduleCommand(filepath.Join(p.Dir, filepath.FromSlash(t.File)), wrapperPath,
			filepath.Join(o.Dir, "result-"+strconv.Itoa(i)+".json"), o)
		if r.parallel {
			c.Lane = t.File
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// moduleCommand runs the module at abs through the wrapper.
func moduleCommand(abs, wrapperPath, result string, o lang.RunOptions) *lang.Command {
	limit := o.TestTimeout
	if limit <= 0 {
		limit = DefaultTestTimeout
	}
	args := append(append([]string{"node"}, o.Extra...), wrapperPath, abs)
	return &lang.Command{Args: args, Dir: filepath.Dir(abs), Env: []string{envResult + "=" + result}, Timeout: limit}
}

// command builds a declared command.
func (r *runner) command(p *lang.Project, t *testdex.Test, o lang.RunOptions) (*lang.Command, error) {
	c, ok := r.commands[t.Name]
	if !ok {
		return nil, fmt.Errorf("no command %q in %s [skilltest] (run 'testdex list' again)", t.Name, config.FileName)
	}
	args := append(append([]string{}, c.Run...), o.Extra...)
	if strings.Contains(args[0], "/") && !filepath.IsAbs(args[0]) {
		args[0] = filepath.Join(p.Dir, filepath.FromSlash(args[0]))
	}
	return &lang.Command{Args: args, Dir: p.Dir, Env: []string{envCommand + "=" + c.Name}, Timeout: o.TestTimeout}, nil
}

// NewParser returns the parser that suits the command: a module's reads
// its result file on Close; a declared command's parses its stdout as
// JSON or TAP.
func (r *runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	if name, ok := envOf(cmd, envCommand); ok {
		ev := testEvent{scope: CommandScope, name: name, emit: emit, start: time.Now()}
		if r.commands[name].Format == FormatTAP {
			return newTAPParser(ev)
		}
		return newJSONParser(ev)
	}
	result, _ := envOf(cmd, envResult)
	module := cmd.Args[len(cmd.Args)-1]
	rel, err := filepath.Rel(p.Dir, module)
	if err != nil {
		rel = module
	}
	rel = filepath.ToSlash(rel)
	return newModuleParser(testEvent{scope: filepath.ToSlash(filepath.Dir(rel)), name: filepath.Base(rel), emit: emit, start: time.Now()}, result)
}

// envOf returns the value of a variable a command sets.
func envOf(cmd *lang.Command, key string) (string, bool) {
	if cmd == nil {
		return "", false
	}
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v, true
		}
	}
	return "", false
}
