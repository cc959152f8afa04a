"""Reading JSON Lines files with errors that name the line."""
from __future__ import annotations

import json
import os
from typing import Any, Iterator


def iter_jsonl(path: str | os.PathLike) -> Iterator[tuple[int, Any]]:
    """``(line_number, object)`` for every non-blank line; a bad line raises ValueError
    naming the file and line."""
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield line_no, json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: line {line_no}: invalid JSON ({e.msg})") from None
