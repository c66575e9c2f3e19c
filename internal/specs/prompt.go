package specs

import (
	"fmt"
	"strings"
)

// PromptVersion names the prompt's wording; it is part of every verdict's
// key, so a change of the prompt judges again.
const PromptVersion = "specs-prompt/1"

// Prompt is the text an agent is asked: the spec's body (frontmatter
// stripped), the scenarios it must answer (IDs; for a spec without
// scenarios the file's name stands for the one test), and the answer's
// format: per scenario status, observed, location, resolution, and the
// files read and commands run, which testdex keeps as the verdict's
// inputs.
func Prompt(file, body string, ids []string, whole bool) string {
	var b strings.Builder
	b.WriteString("You are judging whether the code in the current folder meets a specification written in prose.\n")
	b.WriteString("Read the code with your own tools. Do not change any file.\n\n")
	fmt.Fprintf(&b, "## Spec file: %s\n\n", file)
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteString("\n\n## What to answer\n\n")
	if whole {
		fmt.Fprintf(&b, "The whole spec above is one scenario; answer it with the ID %q.\n", ids[0])
	} else {
		b.WriteString("Judge these scenarios of the spec, each the section under a heading ending in \"- id: ID\", and only these:\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "- %s\n", id)
		}
	}
	b.WriteString(`
A scenario passes only when the code meets all of it. Answer with one JSON object and nothing else, of this shape:

{"scenarios": [
  {"id": "the scenario's ID",
   "status": "pass" or "fail",
   "observed": "what the code does, in a sentence or two; for a failure, how it departs from the spec",
   "location": "the file that decides it, relative to the current folder, as path or path:line",
   "resolution": "for a failure, what would make the code meet the spec; empty for a pass",
   "files_read": ["every file you read to decide, relative to the current folder"],
   "commands_run": ["every command you ran"]}
]}

Answer every scenario listed, once each.
`)
	return b.String()
}
