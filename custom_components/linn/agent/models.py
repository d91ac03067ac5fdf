"""Model ids to the families of the tables in code (prices, cache minimums)."""

from __future__ import annotations

from collections.abc import Iterable


def model_family(model: str, families: Iterable[str]) -> str | None:
    """The longest family a model id belongs to, or None.

    A dated or suffixed id (claude-haiku-4-5-20251001) matches its family; the longest
    match wins, so claude-opus-5-5 is never taken for claude-opus-5.
    """
    matches = [name for name in families if model == name or model.startswith(f"{name}-")]
    return max(matches, key=len, default=None)
