"""The Python half of the run recorded in ../../recorded.jsonl."""
import pytest


def test_pass():
    pass


def test_compare():
    print("some context")
    assert {"a": 1, "b": 2} == {"a": 1, "b": 3}


def test_skip():
    pytest.skip("not today")
