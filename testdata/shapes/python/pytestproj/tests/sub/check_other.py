def test_in_check_file():
    pass


class TestDeep:
    def test_deep(self):
        pass
