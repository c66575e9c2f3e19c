# testdata/run/junit copied to a scratch folder, Maven 3 with Surefire 3.2.5 and JUnit 5.10
# (Surefire writes RunTest's results into TEST-run.RunTest$Inner.xml, its nested class's):
mvn -o -q test   # then target/surefire-reports/TEST-run.*.xml
