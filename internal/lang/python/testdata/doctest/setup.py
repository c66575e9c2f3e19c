"""Setup.

>>> 1 + 1
2
"""
from setuptools import setup

setup(name="pkg")
