package index

import (
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
)

// TestFrameworkOptions: --all-platforms reaches the frameworks whose
// listing depends on the platform (Go, cargo) and no other, and [specs]
// reaches the framework it configures (semtest) as "specs.*" extras,
// beside the framework's own table.
func TestFrameworkOptions(t *testing.T) {
	cfg := &config.Config{
		Frameworks: map[string]config.Framework{"semtest": {OutputDir: "out"}},
		Specs:      config.Specs{Agent: "claude", AgentArgv: []string{"claude", "-p"}, SkipPermissionsIfPossible: true},
	}
	out := frameworkOptions(cfg, &Options{AllPlatforms: true})
	for _, fw := range []testdex.Framework{testdex.Go, testdex.Cargo} {
		if got := out[fw].Extra["all_platforms"]; !slices.Equal(got, []string{"true"}) {
			t.Errorf("%s: all_platforms = %v, want [true]", fw, got)
		}
	}
	if _, ok := out[testdex.Pytest]; ok {
		t.Errorf("pytest got options %+v from --all-platforms", out[testdex.Pytest])
	}
	sem := out[testdex.Semtest].Extra
	if !slices.Equal(sem["specs.agent"], []string{"claude"}) || !slices.Equal(sem["specs.agent_argv"], []string{"claude", "-p"}) ||
		!slices.Equal(sem["specs.skipPermissionsIfPossible"], []string{"true"}) || !slices.Equal(sem["outputDir"], []string{"out"}) {
		t.Errorf("semtest extras = %v", sem)
	}
	if _, ok := out[testdex.Go].Extra["specs.agent"]; ok {
		t.Errorf("go got [specs]: %v", out[testdex.Go].Extra)
	}
	if out := frameworkOptions(&config.Config{}, &Options{}); len(out) != 0 {
		t.Errorf("no configuration gave options %+v", out)
	}
}
