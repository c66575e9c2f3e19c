package watch

import (
	"path"
	"strings"
)

// junk reports whether a file name is an editor's scratch file rather
// than a save: Emacs's lock (.#x) and auto-save (#x#) files, backups (x~),
// Vim's swap files (.x.swp, .x.swo, ...) and the file named 4913 it
// creates to test a folder's permissions, JetBrains' safe-write files and
// temporary files that editors rename over the real one (x.tmp).
// Such files come and go on every save; the save itself arrives as the
// write, create or rename of the real file.
func junk(rel string) bool {
	name := path.Base(rel)
	switch {
	case name == "4913", strings.HasPrefix(name, ".#"),
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.HasSuffix(name, "~"),
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"),
		strings.HasSuffix(name, ".tmp"):
		return true
	case strings.HasPrefix(name, "."):
		ext := path.Ext(name)
		return len(ext) == 4 && len(name) > 5 && strings.HasPrefix(ext, ".sw") // .x.swp, .x.swo, .x.swx ...
	}
	return false
}
