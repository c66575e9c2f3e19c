package specs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Statuses of a scenario's verdict.
const (
	StatusPass  = "pass"
	StatusFail  = "fail"
	StatusError = "error" // no usable verdict: testdex fails the scenario, never passes it
)

// Answer is the agent's verdict on one scenario, as the prompt asks for
// it.
type Answer struct {
	ID         string
	Status     string // StatusPass, StatusFail or StatusError
	Observed   string
	Location   string
	Resolution string
	Read       []string // files it read
	Commands   []string // commands it ran
}

// ErrNoVerdict is an answer holding no verdict JSON.
var ErrNoVerdict = errors.New("no parsable verdict")

// maxCandidates bounds the places ParseAnswers tries to decode JSON at,
// so that a long answer full of braces costs little.
const maxCandidates = 400

// fenced finds fenced code blocks.
var fenced = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*\\n(.*?)```")

// ParseAnswers finds the verdict in an agent's answer text and returns
// its answers in order. The JSON may stand alone, sit in a fenced block
// or in the middle of chatter; of several, the last that holds answers
// wins (an agent thinks aloud before it answers). The accepted shapes
// are {"scenarios": [...]}, a bare array, {"tests": [...]} or
// {"results": [...]} (semtest's), and one answer object.
func ParseAnswers(text string) ([]Answer, error) {
	var cands []string
	cands = append(cands, strings.TrimSpace(text))
	for _, m := range fenced.FindAllStringSubmatch(text, -1) {
		cands = append(cands, m[1])
	}
	var best []Answer
	for _, c := range cands {
		if as := decodeAnswers([]byte(c)); as != nil {
			best = as
		}
	}
	if best != nil {
		return best, nil
	}
	n := 0
	for i := 0; i < len(text) && n < maxCandidates; i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		n++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		if as := decodeAnswers(raw); as != nil {
			best = as
			i += int(dec.InputOffset()) - 1 // an answer's inner objects are not answers of their own
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w in the agent's answer (%s)", ErrNoVerdict, excerpt(text))
	}
	return best, nil
}

// excerpt quotes the start of a text for a message.
func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "it was empty"
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return fmt.Sprintf("it began %q", s)
}

// decodeAnswers decodes one JSON value in any accepted shape; nil when
// it holds no answer with an ID.
func decodeAnswers(data []byte) []Answer {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	var list []rawAnswer
	if data[0] == '[' {
		if json.Unmarshal(data, &list) != nil {
			return nil
		}
	} else {
		var obj struct {
			Scenarios, Tests, Results []rawAnswer
			rawAnswer
		}
		if json.Unmarshal(data, &obj) != nil {
			return nil
		}
		switch {
		case obj.Scenarios != nil:
			list = obj.Scenarios
		case obj.Tests != nil:
			list = obj.Tests
		case obj.Results != nil:
			list = obj.Results
		case strings.TrimSpace(obj.ID) != "":
			list = []rawAnswer{obj.rawAnswer}
		}
	}
	var out []Answer
	for _, r := range list {
		if strings.TrimSpace(r.ID) != "" {
			out = append(out, r.answer())
		}
	}
	return out
}

// rawAnswer is an answer as agents write it, with the field names the
// prompt asks for and the variants they drift to.
type rawAnswer struct {
	ID          string   `json:"id"`
	Status      string   `json:"status"`
	Observed    string   `json:"observed"`
	Actual      string   `json:"actual"`
	Location    string   `json:"location"`
	Resolution  string   `json:"resolution"`
	FilesRead   []string `json:"files_read"`
	FilesRead2  []string `json:"filesRead"`
	Files       []string `json:"files"`
	Commands    []string `json:"commands_run"`
	Commands2   []string `json:"commandsRun"`
	Commands3   []string `json:"commands"`
	ErrorDetail string   `json:"error"`
}

func (r rawAnswer) answer() Answer {
	a := Answer{ID: strings.TrimSpace(r.ID), Observed: firstNonEmpty(r.Observed, r.Actual, r.ErrorDetail),
		Location: strings.TrimSpace(r.Location), Resolution: r.Resolution,
		Read:     append(append(append([]string{}, r.FilesRead...), r.FilesRead2...), r.Files...),
		Commands: append(append(append([]string{}, r.Commands...), r.Commands2...), r.Commands3...)}
	switch strings.ToLower(strings.TrimSpace(r.Status)) {
	case "pass", "passed", "ok", "success":
		a.Status = StatusPass
	case "fail", "failed", "failure":
		a.Status = StatusFail
	case "error", "errored":
		a.Status = StatusError
		a.Observed = "the agent could not judge it: " + firstNonEmpty(a.Observed, "it gave no reason")
	default:
		a.Status = StatusError
		a.Observed = fmt.Sprintf("the agent answered status %q, not \"pass\" or \"fail\"", r.Status)
	}
	return a
}
