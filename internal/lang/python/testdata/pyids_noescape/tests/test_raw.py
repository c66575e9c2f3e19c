"""With disable_test_id_escaping_and_forfeit_all_rights_to_community_support
pytest keeps str IDs as they are (regular expressions stay escaped)."""
import re

import pytest


@pytest.mark.parametrize("x", ["\u00e9", "\u65e5\u672c", "a\\b", "plain", re.compile("\u00e9")])
def test_raw(x):
    pass


@pytest.mark.parametrize("x", [1, pytest.param(2, id="\u00e4")], ids=["\u00fc", None])
def test_raw_ids(x):
    pass
