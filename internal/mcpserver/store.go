package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

// keptAnswers is how many answers a server keeps for its resources: the
// last ones, older ones are forgotten (their URIs then say so).
const keptAnswers = 16

// maxKept caps each stream a kept run holds (its events, the runners'
// raw lines), as maxStream caps its text.
const maxKept = 2 << 20

// kept is one tool answer kept whole behind the resources: a run's
// output, results, events and raw lines, or another tool's full
// structured content.
type kept struct {
	id      int
	run     bool
	text    string
	full    []byte // the whole structured content, JSON
	events  *capped
	raw     *capped
	partsMu sync.Mutex // events and raw are written while the run goes on
}

// store keeps a server's last keptAnswers answers of one kind (runs, or
// the other tools' cut answers), safe for concurrent use: each tool call
// that may need its whole answer later takes a number from it.
type store struct {
	mu   sync.Mutex
	next int
	all  []*kept
}

// reserve returns the next number, for an answer that may be kept.
func (s *store) reserve() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	return s.next
}

// add keeps k under its number, reserved; the oldest answer beyond
// keptAnswers is dropped.
func (s *store) add(k *kept) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all = append(s.all, k)
	if len(s.all) > keptAnswers {
		s.all = s.all[len(s.all)-keptAnswers:]
	}
}

// get returns the kept answer numbered id, or nil.
func (s *store) get(id int) *kept {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.all {
		if k.id == id {
			return k
		}
	}
	return nil
}

// The resources' URIs: a run's parts, another answer's whole content.
const (
	runURI    = "testdex://runs/%d/%s"
	answerURI = "testdex://answers/%d"
)

// runParts are the parts of a run a resource gives, and what each is.
var runParts = map[string]string{
	"output":  "the run's whole text: testdex's report of every failure with its output, the counts, stderr",
	"results": "every test's result as JSON: the run_tests structured content uncut",
	"events":  "testdex's event stream of the run, one JSON event a line (as 'testdex run --json' writes it), each runner output line included; cut at 2 MiB",
	"raw":     "the native runners' own standard output, line by line as testdex read it (go test -json's events, pytest's or jest's report), batches interleaved by line; cut at 2 MiB",
}

// addResources registers the resource templates that give the kept
// answers whole.
func addResources(s *mcp.Server, runs, answers *store) {
	for _, part := range []string{"output", "results", "events", "raw"} {
		mime := "text/plain"
		if part == "results" {
			mime = "application/json"
		}
		s.AddResourceTemplate(&mcp.ResourceTemplate{
			Name: "run " + part, URITemplate: "testdex://runs/{id}/" + part, MIMEType: mime,
			Description: "A run_tests call's " + runParts[part] + ". The id is the run's number in the run_tests answer; the server keeps its last 16 answers.",
		}, runs.read)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "answer", URITemplate: "testdex://answers/{id}", MIMEType: "application/json",
		Description: "A tool answer cut to the budget, whole: its structured content uncut. The id is in the cut answer; the server keeps its last 16 answers.",
	}, answers.read)
}

// read answers a resources/read of a kept answer.
func (st *store) read(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "testdex://")
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 2 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	id, err := strconv.Atoi(parts[1])
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	k := st.get(id)
	if k == nil {
		return nil, fmt.Errorf("%s: answer %d is not kept (the server keeps its last %d answers; call the tool again)", uri, id, keptAnswers)
	}
	var text, mime string
	switch {
	case parts[0] == "answers" && len(parts) == 2 && !k.run:
		text, mime = string(k.full), "application/json"
	case parts[0] == "runs" && len(parts) == 3 && k.run:
		k.partsMu.Lock()
		switch parts[2] {
		case "output":
			text, mime = k.text, "text/plain"
		case "results":
			text, mime = string(k.full), "application/json"
		case "events":
			text, mime = k.events.String(), "application/x-ndjson"
		case "raw":
			text, mime = k.raw.String(), "text/plain"
		}
		k.partsMu.Unlock()
	}
	if mime == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
}

// addRaw keeps a line of a native runner's standard output (a
// RunOptions.Raw callback: called from several goroutines at once).
func (k *kept) addRaw(_ string, line []byte) {
	k.partsMu.Lock()
	defer k.partsMu.Unlock()
	k.raw.Write(line)
	k.raw.Write([]byte{'\n'})
}

// eventSink is a handler that keeps the run's events as JSON lines, as
// 'testdex run --json' writes them.
func (k *kept) eventSink() workspace.Handler { return report.NewJSON(keptEvents{k}) }

// keptEvents writes into a kept run's event stream.
type keptEvents struct{ k *kept }

func (w keptEvents) Write(p []byte) (int, error) {
	w.k.partsMu.Lock()
	defer w.k.partsMu.Unlock()
	return w.k.events.Write(p)
}
