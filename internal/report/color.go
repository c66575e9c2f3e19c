package report

// palette paints the text view's words with ANSI SGR colours, or leaves
// them alone when off (the zero value). Only testdex's own words are
// painted, after escaping: a test's output never reaches the terminal as
// colour codes.
type palette struct{ on bool }

// The SGR codes the view uses.
const (
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrDim    = "2"
	sgrBold   = "1"
)

func (p palette) paint(sgr, s string) string {
	if !p.on || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

func (p palette) fail(s string) string  { return p.paint(sgrBold+";"+sgrRed, s) }
func (p palette) pass(s string) string  { return p.paint(sgrGreen, s) }
func (p palette) skip(s string) string  { return p.paint(sgrYellow, s) }
func (p palette) quiet(s string) string { return p.paint(sgrDim, s) }
