def test_ignored_by_addopts():
    pass
