"""JSON files that options name (``--section-map``, ``--deid-rules``): read, or an
:class:`OptionError` that says which option, which file and what was wrong."""

from __future__ import annotations

import json
import os
from typing import Any

from .errors import OptionError

__all__ = ["read_option_json"]


def read_option_json(path: str | os.PathLike, option: str, shape: str) -> Any:
    """The JSON value in ``path``; ``shape`` says what the file should hold."""
    where = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            return json.loads(f.read())
    except OSError as e:
        raise OptionError(option, where, "a readable JSON file", e.strerror or str(e)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise OptionError(option, where, f"a UTF-8 JSON file holding {shape}", str(e)) from None
