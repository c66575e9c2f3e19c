package markdown

import (
	"fmt"
	"strings"

	"github.com/testdex/testdex"
)

// section is a spec's text (Framework.Section): its body, frontmatter
// stripped, or its scenario's section.
func section(t testdex.Test, data []byte) (start, end int, text string, err error) {
	_, doc := Read(data)
	first := 1 + strings.Count(string(data), "\n") - strings.Count(doc.Body, "\n")
	_, id := testdex.SplitID(t.ID)
	start, text = first, doc.Body
	if id != "" {
		sc := doc.Find(id)
		if sc == nil {
			return 0, 0, "", fmt.Errorf("%s has no scenario %q any more (list again)", t.File, id)
		}
		start, text = sc.Line, doc.Text(*sc)
	}
	end = start + strings.Count(strings.TrimSuffix(text, "\n"), "\n")
	return start, end, text, nil
}
