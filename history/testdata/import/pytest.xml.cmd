# testdata/run/python copied to a scratch folder, pytest 8 (Python 3.11):
pytest -q -p no:cacheprovider --junitxml=pytest.xml
