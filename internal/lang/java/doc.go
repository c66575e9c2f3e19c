// Package java discovers JUnit 4 and JUnit 5 tests in Maven and Gradle
// projects by parsing Java sources with tree-sitter; it never compiles or
// runs them. Its Lister asks the JUnit Platform console launcher to
// discover the compiled tests (the runtime method).
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	ID rules       naming.go (Surefire's names to IDs and back)
//	detection      detect.go maven.go gradle.go gradle_settings.go
//	               gradle_children.go gradle_lex.go surefire.go
//	extraction     extract.go walker.go method.go annotations.go types.go
//	linking        facts.go link.go (inherited test methods, final names)
//	listing        lister.go (the JUnit Platform console launcher)
//	running        runner.go (mvn) gradle_runner.go (gradle)
//	parsing        runreport.go (Surefire's and Gradle's XML reports)
//	coverage       coverage.go jacoco/ (JaCoCo listener and reader)
//	impact graph   impact.go impact_modules.go impact_nodes.go impact_scan.go
//	               lex.go impact_check.go
//	spans          spanner.go
package java
