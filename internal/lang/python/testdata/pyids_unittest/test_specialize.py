"""Classes made by specutil's factories: named where the bound names are
the names the factory gives, dynamic otherwise."""
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
