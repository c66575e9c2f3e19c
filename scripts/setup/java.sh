#!/usr/bin/env bash
# scripts/setup/java.sh prefetches into ~/.m2 what the java package's
# integration tests need: the JUnit Platform console launcher and every
# plugin and dependency of the testdata/shapes/junit Maven fixture
# (compiler, resources, exec plugin, JUnit 5 and 4). Idempotent and quiet;
# a second run only checks the local repository. Without mvn and java it
# does nothing (the integration tests then skip and say why).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
	echo "java.sh: mvn or java not installed; the JUnit integration tests will skip"
	exit 0
fi

console=1.10.2 # keep in step with java.ConsoleVersion
exec_plugin=org.codehaus.mojo:exec-maven-plugin:3.1.1 # java.ExecPlugin
repo="${MAVEN_REPOSITORY:-$HOME/.m2/repository}" # settings.localRepository unless settings.xml moves it
jar="$repo/org/junit/platform/junit-platform-console-standalone/$console/junit-platform-console-standalone-$console.jar"

if [ ! -f "$jar" ]; then
	mvn -q -B -Dstyle.color=never dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$console" -Dtransitive=false
fi

# Build a throwaway copy of the fixture the way the Lister does, so every
# plugin it runs is in the local repository.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r testdata/shapes/junit "$work/fixture"
(cd "$work/fixture" && mvn -q -B -Dstyle.color=never test-compile "$exec_plugin:exec" -Dexec.executable=java -Dexec.args=-version >/dev/null 2>&1) ||
	(cd "$work/fixture" && mvn -q -B -Dstyle.color=never test-compile "$exec_plugin:exec" -Dexec.executable=java -Dexec.args=-version)

# Run the run fixture's tests once the way the Runner does (mvn test with a
# -Dtest selector) on its passing class, so Surefire's JUnit Platform
# provider is in the local repository too.
cp -r testdata/run/junit "$work/run"
(cd "$work/run" && mvn -q -B test -Dtest=LegacyTest -Dsurefire.failIfNoSpecifiedTests=false >/dev/null 2>&1) ||
	(cd "$work/run" && mvn -B test -Dtest=LegacyTest -Dsurefire.failIfNoSpecifiedTests=false | tail -20)
