package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// install is a framework package as the project has it installed.
type install struct {
	Pkg string // the package's folder (…/node_modules/jest)
	// Bin is what the framework's command is to node when the project's
	// test command runs it: node_modules/.bin/<name> beside the package
	// (npm puts that folder on PATH), else the package's bin script.
	Bin string
}

// frameworkPackages are the npm packages of the frameworks run through
// the wrapper, with their command's name.
var frameworkPackages = map[testdex.Framework]struct{ pkg, bin string }{
	testdex.Jest:   {"jest", "jest"},
	testdex.Vitest: {"vitest", "vitest"},
	testdex.Mocha:  {"mocha", "mocha"},
}

// findInstall finds fw's package as node resolves it from the project
// folder: in node_modules of dir or of its nearest ancestor that has it.
// Nothing is downloaded and no other version is picked: a package that is
// not there is an error wrapping lang.ErrNotInstalled, with the command
// that installs the project's dependencies.
func findInstall(dir string, fw testdex.Framework) (install, error) {
	fp := frameworkPackages[fw]
	for d := dir; ; {
		modules := filepath.Join(d, "node_modules")
		pkg := filepath.Join(modules, fp.pkg)
		if data, err := os.ReadFile(filepath.Join(pkg, "package.json")); err == nil {
			in := install{Pkg: pkg, Bin: filepath.Join(modules, ".bin", fp.bin)}
			if _, err := os.Stat(in.Bin); err != nil {
				in.Bin = binScript(pkg, fp.bin, data)
			}
			return in, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return install{}, notInstalled(dir, fp.pkg)
}

// binScript is the script a package's "bin" field names for a command.
func binScript(pkg, name string, manifest []byte) string {
	var m struct {
		Bin json.RawMessage `json:"bin"`
	}
	_ = json.Unmarshal(manifest, &m)
	var one string
	if json.Unmarshal(m.Bin, &one) == nil && one != "" {
		return filepath.Join(pkg, one)
	}
	var many map[string]string
	if json.Unmarshal(m.Bin, &many) == nil && many[name] != "" {
		return filepath.Join(pkg, many[name])
	}
	return filepath.Join(pkg, "bin", name+".js")
}

// notInstalled is the error of a framework missing from the project, with
// the install command of the package manager whose lock file is nearest.
func notInstalled(dir, pkg string) error {
	install := lockedInstall(dir)
	if install == "" {
		return fmt.Errorf("%w: %s (no node_modules/%s in %s or a parent folder, and Yarn Plug'n'Play installs are not supported; set nodeLinker: node-modules in .yarnrc.yml and run yarn install in %s)",
			lang.ErrNotInstalled, pkg, pkg, dir, dir)
	}
	return fmt.Errorf("%w: %s (no node_modules/%s in %s or a parent folder; run %s in %s)", lang.ErrNotInstalled, pkg, pkg, dir, install, dir)
}

// lockFiles are the package managers' lock files and install commands;
// "" is Yarn Plug'n'Play, which has no node_modules.
var lockFiles = []struct{ file, install string }{
	{".pnp.cjs", ""}, {"pnpm-lock.yaml", "pnpm install"}, {"yarn.lock", "yarn install"},
	{"bun.lock", "bun install"}, {"bun.lockb", "bun install"}, {"package-lock.json", "npm install"},
}

// lockedInstall is the install command of the lock file nearest to dir
// (in it or an ancestor), npm install when there is none.
func lockedInstall(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, l := range lockFiles {
			if _, err := os.Stat(filepath.Join(d, l.file)); err == nil {
				return l.install
			}
		}
		if filepath.Dir(d) == d {
			return "npm install"
		}
	}
}
