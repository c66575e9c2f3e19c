package index

import (
	"fmt"
	"go/build"
	"slices"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/golang"
	"github.com/testdex/testdex/internal/lang/markdown"
)

// plugin is one active extractor with its compiled candidate globs.
type plugin struct {
	ex       lang.Extractor
	fw       testdex.Framework
	key      string
	match    *globSet
	ignore   *globSet
	patterns []string // testMatch as configured, for messages
	// lenientExt is the file extension of explicitly named files that are
	// listed even when they break the naming convention (semtest lists them
	// with a warning); "" means such files are skipped with a warning.
	lenientExt string
}

// goIgnored are folders and files go build never looks at: testdata, and
// names starting with "_" or ".". They are part of Go's semantics, not of
// the configurable defaults.
var goIgnored = []string{"testdata", "_*", ".*"}

// plugins builds the active extractors from the configuration.
func plugins(cfg *config.Config, opts *Options) ([]*plugin, error) {
	goCtx := opts.GoContext
	if goCtx == nil {
		c := build.Default
		goCtx = &c
	}
	if len(cfg.Go.Tags) > 0 {
		c := *goCtx
		c.BuildTags = append(slices.Clone(c.BuildTags), cfg.Go.Tags...)
		goCtx = &c
	}
	all := []struct {
		ex      lang.Extractor
		fc      config.Framework
		extra   []string
		lenient string
	}{
		{&golang.Extractor{Context: goCtx, AllPlatforms: opts.AllPlatforms || cfg.Go.AllPlatforms}, cfg.Go, goIgnored, ""},
		{markdown.Extractor{}, cfg.Semtest, semtestIgnores(cfg.Semtest), ".md"},
	}
	var out []*plugin
	for _, a := range all {
		fw := a.ex.Framework()
		if a.fc.Disabled || (opts.Frameworks != nil && !slices.Contains(opts.Frameworks, fw)) {
			continue
		}
		p, err := newPlugin(a.ex, a.fc, a.extra)
		if err != nil {
			return nil, fmt.Errorf("config [%s]: %w", fw, err)
		}
		p.lenientExt = a.lenient
		out = append(out, p)
	}
	return out, nil
}

func newPlugin(ex lang.Extractor, fc config.Framework, extra []string) (*plugin, error) {
	match := fc.TestMatch
	if match == nil {
		match = ex.TestMatch()
	}
	ignore := fc.TestPathIgnorePatterns
	if ignore == nil {
		ignore = ex.TestPathIgnorePatterns()
	}
	ignore = append(slices.Clone(ignore), extra...)
	m, err := compileGlobs(match, false)
	if err != nil {
		return nil, fmt.Errorf("testMatch: %w", err)
	}
	ig, err := compileGlobs(ignore, true)
	if err != nil {
		return nil, fmt.Errorf("testPathIgnorePatterns: %w", err)
	}
	return &plugin{ex: ex, fw: ex.Framework(), key: ex.CacheKey(), match: m, ignore: ig, patterns: match}, nil
}

// semtestIgnores adds semtest's output folder, which it always excludes.
func semtestIgnores(fc config.Framework) []string {
	if fc.OutputDir == "" {
		return nil
	}
	return []string{fc.OutputDir + "/**"}
}

// wants reports whether a walked file is a candidate of the plugin.
func (p *plugin) wants(rel string) bool {
	return p.match.match(rel) && !p.ignore.match(rel)
}
