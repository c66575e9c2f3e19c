#!/usr/bin/env bash
# regen.sh SCRATCH rewrites the *.golden.txt files beside it from the real
# runners: Jest 29 and 30, Vitest 3 and Mocha 11, installed with npm into
# SCRATCH (never into the repository), and the node on PATH for node:test
# (recorded with Node.js 20). Each golden line is one test: its
# suites' titles and its own joined by " > ", in the runner's order.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="${1:?usage: regen.sh SCRATCH-FOLDER}"
mkdir -p "$scratch"
cd "$scratch"

install() { # folder packages...
	local d="$1"; shift
	mkdir -p "$d"
	[ -f "$d/package.json" ] || (cd "$d" && npm init -y >/dev/null)
	(cd "$d" && npm install --no-audit --no-fund --loglevel=error "$@" >/dev/null)
}

# Jest: run the (empty) tests and read each assertion's ancestors and title.
jest_list() { # version
	local d="jest$1"
	install "$d" "jest@$1"
	cp "$here/jest/literal.test.js" "$d/"
	(cd "$d" && npx jest --ci --json --outputFile=out.json literal.test.js >/dev/null 2>&1 || true)
	node -e '
		const r = require(process.argv[1]);
		for (const f of r.testResults) for (const a of f.assertionResults)
			console.log([...a.ancestorTitles, a.title].join(" > "));
	' "$PWD/$d/out.json"
}

jest_list 29 > "$here/jest.golden.txt"
jest_list 30 > "$here/jest30.golden.txt"
cmp -s "$here/jest.golden.txt" "$here/jest30.golden.txt" && rm "$here/jest30.golden.txt"

install vitest3 vitest@3
cp "$here/vitest/literal.test.js" vitest3/
(cd vitest3 && npx vitest list --json=out.json literal.test.js >/dev/null 2>&1 || true)
node -e '
	for (const t of require(process.argv[1])) console.log(t.name);
' "$PWD/vitest3/out.json" > "$here/vitest.golden.txt"

install mocha11 mocha@11
cp "$here/mocha/literal.spec.js" mocha11/
cat > mocha11/titles.js <<'JS'
// A reporter printing each test's title path, without running it.
const Base = require('mocha/lib/reporters/base');
class Titles extends Base {
  constructor(runner, options) {
    super(runner, options);
    runner.once('start', () => {
      const walk = (s) => {
        for (const t of s.tests) console.log(t.titlePath().join(' > '));
        for (const c of s.suites) walk(c);
      };
      walk(runner.suite);
    });
  }
}
module.exports = Titles;
JS
(cd mocha11 && npx mocha --dry-run --reporter ./titles.js literal.spec.js) > "$here/mocha.golden.txt"

# node:test: the node on PATH runs the file with a reporter printing names.
mkdir -p node
cp "$here/node/literal.test.mjs" "$here/node/names.mjs" node/
(cd node && node --test --test-reporter=./names.mjs literal.test.mjs) > "$here/node.golden.txt"
