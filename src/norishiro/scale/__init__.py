"""Chunking many documents: a process pool on one machine, or Ray Data on a cluster.

Both run the same chunkers as ``norishiro chunk`` with the same :class:`ChunkConfig` and
give the same rows in the same order (document order, then chunk index). Ray is an
optional extra (``norishiro[ray]``): ``norishiro.scale.ray`` imports it only when used.
"""

from __future__ import annotations

from .pool import FileJob, chunk_rows, parallel_chunk_rows

__all__ = ["FileJob", "chunk_rows", "parallel_chunk_rows"]
