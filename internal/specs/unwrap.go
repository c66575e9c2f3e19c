package specs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
)

// Output is what an agent CLI's stdout says, once its own format is
// taken off: the answer text (where the verdict JSON is), an error the
// CLI itself reported (not logged in, no network), and what its event
// stream shows it did (the files it read, the commands it ran), where the
// format has events. CostUSD is the cost the CLI reported, 0 when it
// reports none.
type Output struct {
	Text     string
	Error    string
	Read     []string
	Commands []string
	CostUSD  float64
}

// Empty reports an answer with nothing to read: no text and no error of
// the CLI's (a crash before it wrote, an empty response). Only an empty
// answer is asked again.
func (o Output) Empty() bool { return strings.TrimSpace(o.Text) == "" && o.Error == "" }

// Unwrap reads an agent's stdout in its format. Output it cannot read in
// that format (a warning line before the JSON, a version that changed its
// shape) falls back to the raw text: the verdict parser finds the JSON in
// chatter anyway.
func Unwrap(format string, stdout []byte) Output {
	var o Output
	ok := false
	switch format {
	case FormatClaudeJSON:
		o, ok = unwrapClaude(stdout)
	case FormatGeminiJSON:
		o, ok = unwrapGemini(stdout)
	case FormatCodexJSONL:
		o, ok = unwrapCodex(stdout)
	case FormatOpencodeJSONL:
		o, ok = unwrapOpencode(stdout)
	}
	if !ok {
		return Output{Text: string(stdout)}
	}
	return o
}

// unwrapClaude reads the result object: {"type":"result","is_error":
// false,"result":"...","total_cost_usd":0.01}, the last line that is one.
func unwrapClaude(stdout []byte) (Output, bool) {
	var found bool
	var o Output
	eachJSONLine(stdout, func(line []byte) {
		var r struct {
			Type    string  `json:"type"`
			IsError bool    `json:"is_error"`
			Result  *string `json:"result"`
			Cost    float64 `json:"total_cost_usd"`
		}
		if json.Unmarshal(line, &r) != nil || r.Type != "result" || r.Result == nil {
			return
		}
		found, o = true, Output{Text: *r.Result, CostUSD: r.Cost}
		if r.IsError {
			o = Output{Error: firstNonEmpty(*r.Result, "the agent reported an error"), CostUSD: r.Cost}
		}
	})
	return o, found
}

// unwrapGemini reads {"response": "...", "error": {"message": ...}}, a
// pretty-printed object (the whole output, or from its first "{").
func unwrapGemini(stdout []byte) (Output, bool) {
	var r struct {
		Response *string `json:"response"`
		Error    *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	data := bytes.TrimSpace(stdout)
	if json.Unmarshal(data, &r) != nil {
		i := bytes.IndexByte(data, '{')
		if i < 0 || json.Unmarshal(data[i:], &r) != nil {
			return Output{}, false
		}
	}
	switch {
	case r.Error != nil:
		return Output{Error: firstNonEmpty(r.Error.Message, "the agent reported an error")}, true
	case r.Response != nil:
		return Output{Text: *r.Response}, true
	}
	return Output{}, false
}

// unwrapCodex reads codex exec --json's events: the answer is the last
// agent_message item, the commands are its command_execution items, and
// a turn.failed (or an error event with no answer after it) is the
// CLI's error. Transient error events ("Reconnecting...") followed by an
// answer are not.
func unwrapCodex(stdout []byte) (Output, bool) {
	var o Output
	found, lastErr := false, ""
	eachJSONLine(stdout, func(line []byte) {
		var e struct {
			Type  string `json:"type"`
			Msg   string `json:"message"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
			Item *struct {
				Type    string `json:"type"`
				Text    string `json:"text"`
				Command string `json:"command"`
			} `json:"item"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type == "" {
			return
		}
		found = true
		switch {
		case e.Type == "item.completed" && e.Item != nil && e.Item.Type == "agent_message":
			o.Text, lastErr = e.Item.Text, ""
		case e.Type == "item.completed" && e.Item != nil && e.Item.Type == "command_execution" && e.Item.Command != "":
			o.Commands = append(o.Commands, e.Item.Command)
		case e.Type == "turn.failed" && e.Error != nil:
			lastErr = e.Error.Message
		case e.Type == "error":
			lastErr = e.Msg
		}
	})
	if lastErr != "" && strings.TrimSpace(o.Text) == "" {
		o.Error = lastErr
	}
	return o, found
}

// unwrapOpencode reads opencode run --format json's events: the answer is
// the text parts of the last step that wrote any, the files read and the
// commands run come from its read and bash tool_use parts, and an error
// event is the CLI's error.
func unwrapOpencode(stdout []byte) (Output, bool) {
	var o Output
	found := false
	var step strings.Builder
	eachJSONLine(stdout, func(line []byte) {
		var e struct {
			Type  string `json:"type"`
			Error *struct {
				Name string `json:"name"`
				Data struct {
					Message string `json:"message"`
				} `json:"data"`
			} `json:"error"`
			Part struct {
				Text  string `json:"text"`
				Tool  string `json:"tool"`
				State struct {
					Input struct {
						FilePath string `json:"filePath"`
						Command  string `json:"command"`
					} `json:"input"`
				} `json:"state"`
			} `json:"part"`
		}
		if json.Unmarshal(line, &e) != nil || e.Type == "" {
			return
		}
		found = true
		switch e.Type {
		case "step_start":
			if step.Len() > 0 {
				o.Text = step.String()
			}
			step.Reset()
		case "text":
			step.WriteString(e.Part.Text)
		case "tool_use":
			if e.Part.State.Input.FilePath != "" && e.Part.Tool == "read" {
				o.Read = append(o.Read, e.Part.State.Input.FilePath)
			}
			if e.Part.State.Input.Command != "" {
				o.Commands = append(o.Commands, e.Part.State.Input.Command)
			}
		case "error":
			if e.Error != nil {
				o.Error = firstNonEmpty(e.Error.Data.Message, e.Error.Name, "the agent reported an error")
			}
		}
	})
	if step.Len() > 0 {
		o.Text = step.String()
	}
	if strings.TrimSpace(o.Text) != "" {
		o.Error = ""
	}
	return o, found
}

// eachJSONLine calls f with each line of data that looks like a JSON
// object.
func eachJSONLine(data []byte, f func([]byte)) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 && line[0] == '{' {
			f(line)
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
