"""An attribute computed on first read and kept, for the per-text objects of the core; and
a function's answers kept by their argument's identity (``by_identity``).

``functools.cached_property`` does the same, but before Python 3.12 it takes a lock on
every first read, which is a measurable share of chunking a short text. The objects here
belong to one text and one caller: computing a value twice in a race would be harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["lazy", "by_identity"]

T = TypeVar("T")
A = TypeVar("A")


class lazy(Generic[T]):
    """``@lazy`` on a method: its value, computed on the first read and stored in the
    instance (later reads find it there, without calling this descriptor)."""

    def __init__(self, compute: Callable[[Any], T]):
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = self.compute(obj)
        # setattr, not obj.__dict__[...]: asking for the dict makes one of the values Python
        # keeps in the object, and every later attribute read goes through it
        setattr(obj, self.name, value)
        return value


def by_identity(compute: Callable[[A], T], keep: int = 16) -> Callable[[A], T]:
    """``compute(x)``, kept for the last ``keep`` objects ``x`` by identity (each held, so
    that its id is not reused while kept). For a large argument that callers pass as the
    same object again and again (the section labels of every text of a run): an
    ``lru_cache`` hashes it at every call, a tuple of 63 labels in 0.2 µs."""
    kept: dict[int, tuple[A, T]] = {}

    def get(x: A) -> T:
        got = kept.get(id(x))
        if got is not None and got[0] is x:
            return got[1]
        value = compute(x)
        if len(kept) >= keep:
            kept.clear()
        kept[id(x)] = (x, value)
        return value

    get.__doc__ = compute.__doc__
    get.__wrapped__ = compute  # type: ignore[attr-defined]
    return get
