package markdown

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
)

// IgnoreOutput leaves a report folder (root-relative, slash-separated:
// `testdex run --output`) out of the specs' discovery, as semtest leaves
// its outputDir: it adds the folder to cfg's semtest ignore patterns (the
// defaults when the configuration sets none), since the reports written
// there are markdown too.
func IgnoreOutput(cfg *config.Config, rel string) {
	fw := cfg.Frameworks[string(testdex.Semtest)]
	if fw.TestPathIgnorePatterns == nil {
		fw.TestPathIgnorePatterns = Extractor{}.TestPathIgnorePatterns()
	}
	fw.TestPathIgnorePatterns = append(append([]string{}, fw.TestPathIgnorePatterns...), rel+"/**")
	cfg.Frameworks[string(testdex.Semtest)] = fw
}
