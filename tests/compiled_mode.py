"""Switching the compiled helpers off and on inside a test (``NORISHIRO_PURE_PYTHON`` for a
block): the tests that compare the compiled code with its Python twin share it."""

import contextlib


@contextlib.contextmanager
def compiled_helpers(on: bool):
    """Run with the compiled helpers on or off."""
    from norishiro.core import compiled

    saved = compiled.PURE
    compiled.PURE = not on
    try:
        yield
    finally:
        compiled.PURE = saved
