rootProject.name = "kdemo"
include(":api")
include(":impl:inner") // impl has a build file, impl/inner none
project(":api").buildFileName = "api.gradle.kts"
