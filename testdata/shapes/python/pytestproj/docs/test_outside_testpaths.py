def test_not_collected():
    pass
