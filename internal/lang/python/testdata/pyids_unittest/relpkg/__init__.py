"""A package whose own module holds a mixin of tests: test_rel imports it
with `from . import CacheMixin` (cachetools's layout)."""


class CacheMixin:
    def test_shared(self):
        pass
