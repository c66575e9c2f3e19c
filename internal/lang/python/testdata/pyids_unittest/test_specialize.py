"""Classes made by specutil's factories: named where the factory's names
are known (unittest names a class by the name made, First and Second by
Frozen_Odd and Source_Odd; it finds them by the names bound), dynamic
where the base is indexed by kind."""
import unittest

import specutil


class Mixin:
    def test_one(self):
        pass


class Extra(unittest.TestCase):
    def test_extra(self):
        pass


class Plain:
    def test_plain(self):
        pass


class Indexed:
    def test_indexed(self):
        pass


class Odd:
    def test_odd(self):
        pass


(Frozen_Mixin,
 Source_Mixin
 ) = specutil.test_both(Mixin, machinery={'Frozen': 1, 'Source': 2})

Frozen_Plain, Source_Plain = specutil.split_frozen(Plain, Extra)

(Frozen_Indexed,
 Source_Indexed
 ) = specutil.test_both(Indexed, base={'Frozen': Extra, 'Source': Extra})

First, Second = specutil.test_both(Odd)


class Twice:
    def test_first(self):
        pass


# The first Twice is specialized; the name is bound again below.
Frozen_Twice, Source_Twice = specutil.test_both(Twice)


class Twice:  # noqa: F811
    def test_second(self):
        pass
