"""Requests as the fake compares them: canonical JSON, without cache markers."""

from __future__ import annotations

import json
from typing import Any


def canonical(value: Any) -> str:
    """One JSON text per value, whatever the key order or spacing."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def without_cache_control(value: Any, *, drop_nulls: bool = False) -> Any:
    """The value without `cache_control` keys (and null fields with drop_nulls: a client's
    SDK may send its defaults as null).
    """
    if isinstance(value, dict):
        return {
            k: without_cache_control(v, drop_nulls=drop_nulls)
            for k, v in value.items()
            if k != "cache_control" and not (drop_nulls and v is None)
        }
    if isinstance(value, list):
        return [without_cache_control(v, drop_nulls=drop_nulls) for v in value]
    return value
