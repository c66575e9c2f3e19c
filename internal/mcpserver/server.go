package mcpserver

import (
	"context"
	"io"
	"runtime"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config says what the server serves. Root is required; the other zero
// values are usable.
type Config struct {
	// Root is the absolute, clean folder every tool works in: IDs and
	// paths are relative to it, and paths outside it are refused.
	Root string
	// CacheDir holds the discovery cache and the failures of the last run
	// per root (shared with 'testdex run' and 'testdex failures'); ""
	// disables both, and last_test_failures then says so.
	CacheDir string
	// Environ is the environment of the test processes; nil means an
	// empty one (callers pass os.Environ()).
	Environ []string
	// Jobs is the number of batches run at once; <= 0 means
	// runtime.GOMAXPROCS(0), as 'testdex run' does.
	Jobs int
	// Version is the server version the initialize reply reports; ""
	// means "(devel)".
	Version string
	// Budget bounds every tool result, text and structured content
	// marshalled together, in bytes; 0 means DefaultBudget, and less than
	// 1000 counts as 1000. What a result leaves out is behind the
	// resources (testdex://runs/{id}/..., testdex://answers/{id}).
	Budget int

	stopping context.Context // ends when Serve is stopping; nil never ends
	runs     *store          // the runs kept for their resources (set by New)
	answers  *store          // the other tools' cut answers, kept whole (set by New)
}

// budget is the answer budget in bytes.
func (c Config) budget() int {
	if c.Budget <= 0 {
		return DefaultBudget
	}
	return max(c.Budget, minBudget)
}

const instructions = `testdex finds and runs the tests of every language in the workspace root.
Call discover_tests to see test IDs (FILE::NAME), run_tests with some IDs or paths
(or scope: "affected", "failed", or "all" for the whole suite), then rerun the
failures with the exact call its answer gives ('rerun:'). After an edit,
affected_tests gives the tests the change can affect (run_tests scope: "affected"
runs them); run_tests with coverage: true records what each test executes, and
tests_covering {file, line} then names the tests that ran a line. Answers stay
within a budget; what they leave out is at the testdex:// resources they name.`

// New returns a server with its five tools and its resource templates
// registered; connect it to a transport with its Run or Connect method.
//
// Its tools are Tools, in that order.
func New(c Config) *mcp.Server {
	if c.Version == "" {
		c.Version = "(devel)"
	}
	if c.Jobs <= 0 {
		c.Jobs = runtime.GOMAXPROCS(0) // each batch is a native runner; one per core, as 'testdex run'
	}
	c.runs, c.answers = &store{}, &store{}
	s := mcp.NewServer(&mcp.Implementation{Name: "testdex", Version: c.Version}, &mcp.ServerOptions{Instructions: instructions})
	addResources(s, c.runs, c.answers)
	addDiscover(s, c)
	addRun(s, c)
	addFailures(s, c)
	addAffected(s, c)
	addCovering(s, c)
	return s
}

// Tools names the server's tools, in the order tools/list gives them
// (TestToolsList holds it to what New serves).
var Tools = []string{"discover_tests", "run_tests", "last_test_failures", "affected_tests", "tests_covering"}

// Serve runs the server over r and w (newline-delimited JSON-RPC, as the
// stdio transport speaks) until r ends or ctx ends. A bad line (not JSON,
// not UTF-8, a batch, over 4 MiB) is answered with a JSON-RPC error and
// the server goes on reading (see lineTransport). Neither r nor w is
// closed.
//
// When ctx ends (testdex mcp got SIGTERM or SIGINT), Serve stops as a
// server should: the running tools are cancelled (a run stops its test
// processes and answers with what ran), every request read is answered
// or shutdownGrace passes, and it returns nil.
func Serve(ctx context.Context, c Config, r io.Reader, w io.Writer) error {
	stopping, stop := context.WithCancel(context.Background())
	defer stop()
	c.stopping = stopping
	t := &lineTransport{r: r, w: w}
	serving, end := context.WithCancel(context.Background())
	defer end()
	done := make(chan error, 1)
	go func() { done <- New(c).Run(serving, t) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop()
	t.drain(shutdownGrace)
	end()
	<-done
	return nil
}

// shutdownGrace bounds how long a stopping server waits for its answers:
// a run's test processes get proc's grace (2 s) between SIGTERM and
// SIGKILL, then the answer is written.
const shutdownGrace = 5 * time.Second
