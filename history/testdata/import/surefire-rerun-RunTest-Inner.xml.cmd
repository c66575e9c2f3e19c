# testdata/run/junit copied to a scratch folder, Surefire rerunning failures once:
# the first attempts, written into TEST-run.RunTest$Inner.xml (its reruns are in
# surefire-rerun-RunTest.xml, the same run's TEST-run.RunTest.xml):
mvn -o -q test -Dsurefire.rerunFailingTestsCount=1
