# testdata/run/python copied to a scratch folder (xunit1 writes file and line):
pytest -q -p no:cacheprovider -o junit_family=xunit1 --junitxml=pytest-xunit1.xml
