"""The package.

>>> 1
1
"""
from pkg.helpers import helper as helper
