package specs

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestUnwrapRecorded reads what the real agent CLIs printed on this
// machine without a model to reach (testdata/recorded, from claude-code
// 2.1.197, codex-cli 0.169.0, gemini-cli 0.61.0 and opencode 1.18.33
// installed with npm, each run as its preset runs it with the prompt
// "say hi"): each is the CLI's own error, never an empty answer (which
// would be asked again) nor a verdict.
func TestUnwrapRecorded(t *testing.T) {
	for _, c := range []struct {
		file, format, stdout, stderr, err string
	}{
		{file: "claude-not-logged-in.json", format: FormatClaudeJSON, err: "Not logged in · Please run /login"},
		{file: "codex-no-network.jsonl", format: FormatCodexJSONL, err: "Reconnecting... waiting for network"},
		{file: "opencode-bad-model.jsonl", format: FormatOpencodeJSONL, err: "Unexpected server error"},
		{file: "gemini-no-auth.stderr.json", format: FormatGeminiJSON, err: "Please set an Auth method"},
	} {
		data, err := os.ReadFile("testdata/recorded/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		a := Attempt{Stdout: string(data)}
		if strings.HasSuffix(c.file, ".stderr.json") { // gemini writes its error to stderr, stdout empty
			a = Attempt{Stderr: string(data), Exit: 41}
		}
		o := a.Output(c.format)
		if !strings.Contains(o.Error, c.err) || o.Text != "" || o.Empty() {
			t.Errorf("%s: %+v, want the error %q", c.file, o, c.err)
		}
	}
}

// TestUnwrapAnswers reads each format's answer, in the shapes the CLIs'
// documentation gives (no model is reachable here to record one).
func TestUnwrapAnswers(t *testing.T) {
	const answer = `{"scenarios":[]}`
	for _, c := range []struct {
		format, stdout string
		want           Output
	}{
		{FormatClaudeJSON, `{"type":"result","subtype":"success","is_error":false,"result":"{\"scenarios\":[]}","total_cost_usd":0.02}` + "\n",
			Output{Text: answer, CostUSD: 0.02}},
		{FormatClaudeJSON, "warning: something\n" + `{"type":"result","is_error":false,"result":"{\"scenarios\":[]}"}`, Output{Text: answer}},
		{FormatGeminiJSON, "{\n  \"session_id\": \"s\",\n  \"response\": \"{\\\"scenarios\\\":[]}\",\n  \"stats\": {}\n}\n", Output{Text: answer}},
		{FormatCodexJSONL, `{"type":"thread.started","thread_id":"t"}
{"type":"error","message":"Reconnecting... 1/5"}
{"type":"item.completed","item":{"id":"i0","type":"command_execution","command":"bash -lc 'cat a.go'","exit_code":0}}
{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"thinking"}}
{"type":"item.completed","item":{"id":"i2","type":"agent_message","text":"{\"scenarios\":[]}"}}
{"type":"turn.completed","usage":{"input_tokens":1}}
`, Output{Text: answer, Commands: []string{"bash -lc 'cat a.go'"}}},
		{FormatOpencodeJSONL, `{"type":"step_start","part":{}}
{"type":"text","part":{"text":"let me look"}}
{"type":"tool_use","part":{"tool":"read","state":{"input":{"filePath":"src/a.go"}}}}
{"type":"tool_use","part":{"tool":"bash","state":{"input":{"command":"ls"}}}}
{"type":"step_finish","part":{"reason":"tool-calls"}}
{"type":"step_start","part":{}}
{"type":"text","part":{"text":"{\"scenarios\":"}}
{"type":"text","part":{"text":"[]}"}}
{"type":"step_finish","part":{"reason":"stop"}}
`, Output{Text: answer, Read: []string{"src/a.go"}, Commands: []string{"ls"}}},
		{FormatText, "chatter " + answer, Output{Text: "chatter " + answer}},
		{FormatClaudeJSON, "not json at all", Output{Text: "not json at all"}}, // unreadable: the raw text
		{FormatCodexJSONL, "", Output{}},
	} {
		got := Unwrap(c.format, []byte(c.stdout))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q:\n%+v\nwant\n%+v", c.format, c.stdout, got, c.want)
		}
	}
	if !Unwrap(FormatCodexJSONL, nil).Empty() || Unwrap(FormatText, []byte(" \n")).Empty() == false {
		t.Error("an empty answer is empty")
	}
}
