"""The compiled helpers (``_sentscan.c``), or None where the install had no C compiler.

Every helper has a Python twin that gives the same result (tests compare both), so the
compiled module only makes things faster. ``NORISHIRO_PURE_PYTHON=1`` uses the Python
twins even when the module is there.
"""

from __future__ import annotations

import os

try:
    from . import _sentscan as native
except ImportError:  # pragma: no cover - an install without a C compiler
    native = None

PURE = bool(os.environ.get("NORISHIRO_PURE_PYTHON"))


def active() -> bool:
    """The compiled helpers are there and not switched off."""
    return native is not None and not PURE
