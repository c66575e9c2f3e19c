# testdata/run/junit copied to a scratch folder, Surefire rerunning failures once
# (the reruns are testcases of their own in TEST-run.RunTest.xml):
mvn -o -q test -Dsurefire.rerunFailingTestsCount=1   # then target/surefire-reports/TEST-run.RunTest.xml
