"""Counts in the package's output, singular or plural: "1 deal", "2 deals", "1,000 worlds".

>>> plural(1, "deal"), plural(0, "coin"), plural(1000, "world"), plural(1, "ply", "plies")
('1 deal', '0 coins', '1,000 worlds', '1 ply')
"""
from __future__ import annotations

from typing import Optional


def plural(count: int, word: str, many: Optional[str] = None) -> str:
    """`count` (with thousands separators) and `word`, or its plural `many` (default: word + "s")
    unless the count is exactly one."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
