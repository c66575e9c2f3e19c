from setuptools import setup

setup(name="pyids-unittest")
