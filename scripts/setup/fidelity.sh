#!/usr/bin/env bash
# scripts/setup/fidelity.sh installs the real projects of the fidelity suite
# (internal/fidelity): one published package per framework, pinned by exact
# version, fetched from its own registry with its tests, and its test
# dependencies installed the way the project installs them. Each lands in
# ${TESTDEX_FIDELITY_DIR:-$HOME/.cache/testdex-fidelity}/NAME; a finished
# one gets the stamp .ok-NAME beside it and is left alone (idempotent), a
# half-done one (no stamp) is removed and installed again. Quiet on
# success; a failing step prints its log. A missing toolchain skips its project (the suite then skips it too).
# Keep the names and versions in step with internal/fidelity/projects.go.
set -euo pipefail

root="${TESTDEX_FIDELITY_DIR:-$HOME/.cache/testdex-fidelity}"
mkdir -p "$root"
# npm resolves dependency ranges as of this date, so a package without a
# lock file installs the same tree on every machine.
npm_before=2026-11-20
stamp_text="fidelity setup 2"

me=fidelity.sh
skipped="; its fidelity test will skip"
# shellcheck source=lib/install.sh
. "$(dirname "$0")/lib/install.sh"

# npm_project SPEC [EXTRA...]: the package's tarball unpacked here, then its
# dependencies and devDependencies (no lock file ships in npm tarballs) and
# EXTRA packages. --ignore-scripts: the packages' prepare scripts build from
# sources the tarball does not hold.
npm_project() {
	local spec=$1
	shift
	local tgz
	step "npm pack $spec" npm pack "$spec" --silent
	tgz=$(ls ./*.tgz)
	tar xzf "$tgz" --strip-components=1
	rm -f "$tgz"
	step "npm install in $spec" npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
		--before="$npm_before" "$@"
}

# pip_sdist SPEC: the sdist unpacked here and a virtualenv in .venv.
pip_sdist() {
	local spec=$1 dl
	dl=$(mktemp -d)
	step "pip download $spec" python3 -m pip download --quiet --disable-pip-version-check \
		--no-deps --no-binary :all: -d "$dl" "$spec"
	tar xzf "$dl"/*.tar.gz --strip-components=1
	rm -rf "$dl"
	step "venv for $spec" python3 -m venv .venv
}

go_cmp() {
	local dir
	dir=$(cd / && GOFLAGS=-mod=mod go mod download -json github.com/google/go-cmp@v0.7.0 |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$dir" ] || { echo "fidelity.sh: go mod download github.com/google/go-cmp@v0.7.0 failed" >&2; return 1; }
	cp -r "$dir"/. .
	chmod -R u+w .
	step "go test -run ^$ (go-cmp)" go test -count=1 -run '^$' ./...
}

go_toml() {
	local dir
	dir=$(cd / && GOFLAGS=-mod=mod go mod download -json github.com/pelletier/go-toml/v2@v2.4.3 |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$dir" ] || { echo "fidelity.sh: go mod download github.com/pelletier/go-toml/v2@v2.4.3 failed" >&2; return 1; }
	cp -r "$dir"/. .
	chmod -R u+w .
	step "go test -run ^$ (go-toml)" go test -count=1 -run '^$' ./...
}

itsdangerous() {
	pip_sdist itsdangerous==2.2.0
	# The project's own pinned test requirements, then the package itself.
	step "pip install itsdangerous tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		-r requirements/tests.txt -e .
}

pyasn1() {
	pip_sdist pyasn1==0.6.1
	step "pip install pyasn1" .venv/bin/pip install --quiet --disable-pip-version-check -e .
}

# The listing's accuracy projects (internal/lang/python's TestAccuracy):
# pytest and unittest sdists that ship their tests, compared by name only
# with pytest's own collection, so TestFidelity does not run them.
acc_click() {
	pip_sdist click==8.5.1
	step "pip install click tests" .venv/bin/pip install --quiet --disable-pip-version-check pytest==9.2.0 -e .
}

acc_jinja2() {
	pip_sdist jinja2==3.1.6
	# Its own pinned test requirements (pytest 8.3.4, trio).
	step "pip install jinja2 tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		-r requirements/tests.txt -e .
}

acc_attrs() {
	pip_sdist attrs==26.1.0
	step "pip install attrs tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		pytest==9.2.0 hypothesis==6.170.17 pympler==1.1 cloudpickle==3.1.3 -e .
}

acc_dateutil() {
	pip_sdist python-dateutil==4.0.0
	step "pip install dateutil tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		pytest==9.2.0 hypothesis==6.170.17 freezegun==1.5.5 attrs==26.1.0 -e .
}

acc_packaging() {
	pip_sdist packaging==26.3
	step "pip install packaging tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		pytest==9.2.0 hypothesis==6.170.17 pretend==1.0.9 tomli_w==1.2.0 -e .
}

acc_marshmallow() {
	pip_sdist marshmallow==4.4.0
	step "pip install marshmallow tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		pytest==9.2.0 simplejson==4.3.0 -e .
}

acc_cachetools() {
	pip_sdist cachetools==8.0.2
	step "pip install cachetools tests" .venv/bin/pip install --quiet --disable-pip-version-check pytest==9.2.0 -e .
}

acc_pyparsing() {
	pip_sdist pyparsing==3.3.3
	# tests/test_diagram.py imports the [diagrams] extra.
	step "pip install pyparsing tests" .venv/bin/pip install --quiet --disable-pip-version-check \
		pytest==9.2.0 railroad-diagrams==3.0.1 jinja2==3.1.6 -e .
}

acc_tomlkit() {
	pip_sdist tomlkit==0.15.2
	step "pip install tomlkit tests" .venv/bin/pip install --quiet --disable-pip-version-check pytest==9.2.0 -e .
}

jest_mock_extended() { npm_project jest-mock-extended@4.0.1; }

json_schema_traverse() { npm_project json-schema-traverse@1.0.0; }

light_my_request() { npm_project light-my-request@6.8.1; }

# zod's tarball ships its 196 test files but no vitest (the monorepo root
# holds it) and takes 159 s to run here; the suite keeps three of them (a
# test.each table, describe and test titles built from a data table,
# nested describes) and removes the rest, and installs vitest 3.2.4, the
# version docs/accuracy.md's listing measurements used.
zod() {
	npm_project zod@4.6.7 --no-save vitest@3.2.4
	local keep=" src/v4/core/tests/polyfill-collision.test.ts src/v4/core/tests/locales/parity.test.ts src/v4/core/tests/locales/ru.test.ts "
	local f
	while IFS= read -r f; do
		case "$keep" in *" ${f#./} "*) ;; *) rm -f "$f" ;; esac
	done < <(find ./src -name '*.test.ts')
}

semver() {
	# cargo has no download command: resolve the exact version in a
	# throwaway package and copy the unpacked crate from cargo's registry.
	local dl
	dl=$(mktemp -d)
	mkdir -p "$dl/src"
	: >"$dl/src/lib.rs"
	printf '[package]\nname = "dl"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nsemver = "=1.0.28"\n' >"$dl/Cargo.toml"
	step "cargo fetch semver" cargo fetch --manifest-path "$dl/Cargo.toml"
	rm -rf "$dl"
	local src
	src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/semver-1.0.28 | head -1)
	cp -r "$src"/. .
	# The crate ships its Cargo.lock; build the tests once so a run only runs.
	step "cargo fetch (semver)" cargo fetch --locked
	step "cargo test --no-run (semver)" cargo test --locked --no-run
}

# commons-cli's published pom, sources jar and test-sources jar, laid out as
# its repository: Maven-generated META-INF left out (RAT rejects them), test
# resources (non-Java files of the test jar) under src/test/resources.
commons_cli() {
	local v=1.9.0 m="mvn -q -B -Dstyle.color=never"
	step "fetch commons-cli $v" $m dependency:copy -Dartifact=commons-cli:commons-cli:$v:pom -DoutputDirectory=.
	step "fetch commons-cli $v sources" $m dependency:copy -Dartifact=commons-cli:commons-cli:$v:jar:sources -DoutputDirectory=.
	step "fetch commons-cli $v test sources" $m dependency:copy -Dartifact=commons-cli:commons-cli:$v:jar:test-sources -DoutputDirectory=.
	mv "commons-cli-$v.pom" pom.xml
	mkdir -p src/main/java src/test/java src/test/resources
	(cd src/main/java && unzip -q "../../../commons-cli-$v-sources.jar" && rm -rf META-INF)
	(cd src/test/java && unzip -q "../../../commons-cli-$v-test-sources.jar" && rm -rf META-INF)
	rm -f ./*.jar
	(cd src/test/java && find . -type f ! -name '*.java' | while IFS= read -r f; do
		mkdir -p "../resources/$(dirname "$f")"
		mv "$f" "../resources/$f"
	done)
	# One full run puts every plugin (and Surefire's JUnit Platform provider)
	# in the local repository.
	step "mvn test (commons-cli)" $m test
}

# venv_coverage NAME: coverage.py in the Python project's virtualenv, for
# `testdex run --coverage` on it (per-test coverage, the mutation
# benchmark's `covering`); outside the stamp, so an installed project gets
# it without a reinstall. coverage registers no pytest plugin: the
# project's own runs are unchanged.
venv_coverage() {
	local py="$root/$1/.venv/bin/python"
	[ -x "$py" ] || return 0
	"$py" -c 'import coverage' 2>/dev/null && return 0
	step "pip install coverage ($1)" "$py" -m pip install --quiet --disable-pip-version-check coverage==7.17.3
}

status=0
if have go; then
	install go-cmp go_cmp || status=1
	install go-toml go_toml || status=1
fi
if have python3; then
	install itsdangerous itsdangerous || status=1
	install pyasn1 pyasn1 || status=1
	venv_coverage itsdangerous || status=1
	venv_coverage pyasn1 || status=1
	if [ "${TESTDEX_ACCURACY:-1}" != 0 ]; then
		install acc-click acc_click || status=1
		install acc-jinja2 acc_jinja2 || status=1
		install acc-attrs acc_attrs || status=1
		install acc-dateutil acc_dateutil || status=1
		install acc-packaging acc_packaging || status=1
		install acc-marshmallow acc_marshmallow || status=1
		install acc-cachetools acc_cachetools || status=1
		install acc-pyparsing acc_pyparsing || status=1
		install acc-tomlkit acc_tomlkit || status=1
		venv_coverage acc-click || status=1 # scripts/pycovbench.py's click and jinja2 rows
		venv_coverage acc-jinja2 || status=1
	fi
fi
if have npm; then
	install jest-mock-extended jest_mock_extended || status=1
	install zod zod || status=1
	install json-schema-traverse json_schema_traverse || status=1
	install light-my-request light_my_request || status=1
fi
if have cargo; then install semver semver || status=1; fi
if have mvn && have java && have unzip; then install commons-cli commons_cli || status=1; fi
exit $status
