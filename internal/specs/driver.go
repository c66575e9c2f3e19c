package specs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/testdex/testdex/internal/proc"
)

// The driver judges one spec: it runs the agent CLI through internal/proc
// (its own process group, the spec's timeout, SIGTERM then SIGKILL),
// asks again on an empty answer (at most Tries times), does so Judgements
// times (--repeat), and prints one JSON line per judgement with every
// attempt's raw output. The spec Runner (internal/lang/markdown) runs it
// as the batch's command for the spec: testdex itself again, with
// JobEnv naming the job file.
//
// Why a driver and not a hook in the run core: a retry on an empty
// answer and a per-spec timeout that fails that spec (and not the whole
// run, as the run's timeout does) are what an agent CLI needs and no
// test framework does; expressed as a command, they need nothing of the
// core beyond what every runner has (a command, its output, a parser),
// and the core's own timeout, cancellation and leak checks still cover
// the driver and what it started. It starts from package specs' init, as
// internal/proc's shim does, in any program linking it.

// JobEnv names the job file of a driver run: set, the program is the
// driver (init).
const JobEnv = "TESTDEX_SPECS_JOB"

// DefaultTries is how many times an empty answer is asked for, semtest's
// count.
const DefaultTries = 3

// agentCap bounds each captured stream of an agent (a verdict is small;
// a JSON Lines event stream with tool output is not).
const agentCap = 16 << 20

func init() {
	job := os.Getenv(JobEnv)
	if job == "" {
		return
	}
	os.Exit(drive(job))
}

// Job is what one driver run does, written by the Runner to a file in
// the batch's scratch folder. The parser reads it back (the command is
// self-describing: RunCommands and NewParser share no state).
type Job struct {
	Argv       []string      `json:"argv"`
	Dir        string        `json:"dir"`
	Format     string        `json:"format"`
	Timeout    time.Duration `json:"timeout"` // per agent call; 0: none (the run's)
	Tries      int           `json:"tries"`
	Judgements int           `json:"judgements"`
	// Spec is the parser's: what is judged and how the verdicts are kept.
	Spec JobSpec `json:"spec"`
}

// Judgement is one driver line: the attempts of one judgement, the last
// one the answer.
type Judgement struct {
	N        int       `json:"n"`
	Attempts []Attempt `json:"attempts"`
}

// Attempt is one agent call.
type Attempt struct {
	Exit     int     `json:"exit"`
	TimedOut bool    `json:"timed_out,omitempty"`
	Elapsed  float64 `json:"elapsed"`
	Stdout   string  `json:"stdout"`
	Stderr   string  `json:"stderr,omitempty"`
	// Start is why the agent could not be started ("" when it was).
	Start string `json:"start,omitempty"`
	// Stopped is an agent stopped because the run was (its timeout, a
	// Ctrl-C): no further call follows.
	Stopped bool `json:"stopped,omitempty"`
}

// Output unwraps the attempt's stdout in format. Gemini CLI writes its
// JSON error object to stderr, with nothing on stdout (recorded in
// testdata/recorded/gemini-no-auth.stderr.json): that error is the
// answer's.
func (a Attempt) Output(format string) Output {
	o := Unwrap(format, []byte(a.Stdout))
	if o.Empty() && format == FormatGeminiJSON {
		if e, ok := unwrapGemini([]byte(a.Stderr)); ok && e.Error != "" {
			return e
		}
	}
	return o
}

// drive runs the job in file and returns the exit code: 0 once every
// judgement was printed, 2 when the job cannot be read.
func drive(file string) int {
	os.Unsetenv(JobEnv) // the agent is not a driver
	data, err := os.ReadFile(file)
	var job Job
	if err == nil {
		err = json.Unmarshal(data, &job)
	}
	if err != nil || len(job.Argv) == 0 {
		fmt.Fprintf(os.Stderr, "testdex: specs driver: cannot read the job %s: %v\n", file, err)
		return 2
	}
	// The run's timeout or a Ctrl-C reaches the driver as SIGTERM or
	// SIGINT: the agent's group is stopped as proc stops any child (its
	// lifeline would kill it anyway, but as a leftover), and no further
	// call is made.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	enc := json.NewEncoder(os.Stdout)
	for n := range max(job.Judgements, 1) {
		j := Judgement{N: n}
		for range max(job.Tries, 1) {
			if ctx.Err() != nil {
				return 1
			}
			a := call(ctx, job)
			a.Stopped = ctx.Err() != nil
			j.Attempts = append(j.Attempts, a)
			if a.Stopped {
				enc.Encode(j)
				return 0
			}
			if a.TimedOut || a.Start != "" || !a.Output(job.Format).Empty() {
				break // only an empty answer is asked again
			}
		}
		if err := enc.Encode(j); err != nil {
			return 1
		}
	}
	return 0
}

// call runs the agent once.
func call(ctx context.Context, job Job) Attempt {
	res, err := proc.Run(ctx, proc.Spec{Args: job.Argv, Dir: job.Dir, Env: environ(), Timeout: job.Timeout, Cap: agentCap})
	if err != nil {
		return Attempt{Exit: -1, Start: err.Error()}
	}
	return Attempt{Exit: res.ExitCode, TimedOut: res.TimedOut, Elapsed: res.Elapsed.Seconds(),
		Stdout: string(res.Stdout), Stderr: string(res.Stderr)}
}

// environ is the driver's environment without the job variable.
func environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, JobEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}
