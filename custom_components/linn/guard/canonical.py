"""Canonical JSON and the hash that binds approvals and idempotency keys to exact arguments."""

from __future__ import annotations

from collections.abc import Mapping
import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 kept: equal values give equal text.

    Booleans stay distinct from integers (json writes true/1), and a float equal to an
    integer is written as that integer so 30 and 30.0 hash alike.
    """
    return json.dumps(_normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _normalise(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _normalise(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def args_hash(tool: str, arguments: Mapping[str, Any]) -> str:
    """SHA-256 over the tool name and its canonical arguments."""
    payload = canonical_json({"tool": tool, "args": arguments})
    return hashlib.sha256(payload.encode()).hexdigest()
