from setuptools import setup

setup(name="unittest-shapes")
