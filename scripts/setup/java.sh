#!/usr/bin/env bash
# scripts/setup/java.sh prefetches into ~/.m2 what the java package's
# integration tests need: the JUnit Platform console launcher and every
# plugin and dependency of the testdata/shapes/junit Maven fixture
# (compiler, resources, exec plugin, JUnit 5 and 4), and what `testdex run
# --coverage` fetches through Maven (JaCoCo's Maven plugin and agent, its
# CLI jar, the dependency plugin that copies it). Idempotent and quiet;
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
jacoco=0.8.15 # java.JacocoVersion
dependency_plugin=org.apache.maven.plugins:maven-dependency-plugin:3.6.1 # java.DependencyPlugin
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

# Run the coverage fixture's Maven goals the way a coverage run does
# (prepare-agent, the copy of JaCoCo's CLI), without its tests.
cp -r internal/lang/java/testdata/cover "$work/cover"
cover=(mvn -q -B "org.jacoco:jacoco-maven-plugin:$jacoco:prepare-agent" "$dependency_plugin:copy"
	"-Dartifact=org.jacoco:org.jacoco.cli:$jacoco:jar:nodeps" "-DoutputDirectory=$work/cli" test -DskipTests)
(cd "$work/cover" && "${cover[@]}" >/dev/null 2>&1) || (cd "$work/cover" && "${cover[@]}" | tail -20)
