package js

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// TestVitestTypecheckFiles checks that Vitest's type tests (*.test-d.ts)
// are test files exactly when the project's test run checks types, as
// ufo's `vitest run --typecheck` does, so list and run agree.
func TestVitestTypecheckFiles(t *testing.T) {
	for _, c := range []struct {
		name, pkg, config  string
		typeFile, testFile bool
	}{
		{"ufo's script", `{"scripts": {"test": "pnpm lint && vitest run --typecheck"}, "devDependencies": {"vitest": "4"}}`, "", true, true},
		{"through npm run", `{"scripts": {"test": "npm run unit", "unit": "vitest --typecheck.enabled=true"}, "devDependencies": {"vitest": "4"}}`, "", true, true},
		{"no flag", `{"scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "4"}}`, "", false, true},
		{"flag off", `{"scripts": {"test": "vitest run --typecheck=false"}, "devDependencies": {"vitest": "4"}}`,
			`export default { test: { typecheck: { enabled: true } } }`, false, true},
		{"config", `{"scripts": {"test": "vitest run"}, "devDependencies": {"vitest": "4"}}`,
			`export default { test: { typecheck: { enabled: true } } }`, true, true},
		{"config include", `{"devDependencies": {"vitest": "4"}}`,
			`export default { test: { typecheck: { enabled: true, include: ['types/**/*.ts'] } } }`, false, true},
		{"only", `{"scripts": {"test": "vitest --typecheck.only"}, "devDependencies": {"vitest": "4"}}`, "", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(c.pkg), 0o644)
			if c.config != "" {
				os.WriteFile(filepath.Join(dir, "vitest.config.ts"), []byte(c.config), 0o644)
			}
			p, probs := Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"package.json"})
			if p == nil || len(p.Frameworks) != 1 || len(probs) > 0 {
				t.Fatalf("want one Vitest setup and no problem, got %+v %v", p, probs)
			}
			s := p.Frameworks[0]
			if got := s.Match("test/types.test-d.ts"); got != c.typeFile {
				t.Errorf("test/types.test-d.ts matched %v, want %v (patterns %v)", got, c.typeFile, s.Patterns)
			}
			if got := s.Match("test/url.test.ts"); got != c.testFile {
				t.Errorf("test/url.test.ts matched %v, want %v (patterns %v)", got, c.testFile, s.Patterns)
			}
			if c.name == "config include" && !s.Match("types/a.ts") {
				t.Errorf("typecheck.include not applied: %v", s.Patterns)
			}
			if s.Match("node_modules/x/a.test-d.ts") {
				t.Error("a type test under node_modules matched")
			}
		})
	}
}
