"""The compiled sentence scanner is optional: without a C compiler the install goes on and
norishiro uses the same loop in Python (``norishiro.core.sentences._scan``)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("norishiro.core._sentscan", ["src/norishiro/core/_sentscan.c"], optional=True)])
