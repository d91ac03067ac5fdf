"""Prompt caching as the API documents it, and the token estimate the fake reports.

The prompt (tools, then system, then messages) up to each `cache_control` marker (at most
four) is a cacheable prefix. A request reads the longest of its prefixes already cached
(cache_read_input_tokens), writes the rest up to its last marker
(cache_creation_input_tokens), and pays the tokens after the last marker as input. A prefix
shorter than the model's minimum cacheable length is not cached at all. Tokens are estimated
at four characters each.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from .canonical import canonical, without_cache_control

CHARS_PER_TOKEN = 4


def estimate_tokens(value: Any) -> int:
    """Tokens of a JSON value, estimated from its canonical size."""
    return math.ceil(len(canonical(value)) / CHARS_PER_TOKEN)


def prompt_tokens(body: dict[str, Any]) -> tuple[int, int]:
    """Estimated tokens of a request's prompt, and of its cacheable prefix.

    The prefix runs (tools, then system, then messages) up to the last `cache_control`
    marker; 0 when nothing is marked.
    """
    items = _prompt_items(body)
    total = estimate_tokens(without_cache_control(items))
    prefix = cache_prefix(body)
    return total, estimate_tokens(prefix) if prefix is not None else 0


def cache_prefix(body: dict[str, Any]) -> list[Any] | None:
    """The prompt items up to the last `cache_control` marker (markers removed), or None."""
    prefixes = cache_prefixes(body)
    return prefixes[-1] if prefixes else None


def cache_prefixes(body: dict[str, Any]) -> list[list[Any]]:
    """The prompt items up to each `cache_control` marker (markers removed), shortest first."""
    items = _prompt_items(body)
    marked = [i for i, item in enumerate(items) if _has_cache_control(item)]
    return [without_cache_control(items[: i + 1]) for i in marked]


def prefix_key(model: Any, prefix: list[Any]) -> str:
    """What the cache is keyed on: the model and the prefix's content."""
    return hashlib.sha256((str(model) + canonical(prefix)).encode()).hexdigest()


LOOKBACK_BLOCKS = 20
"""How many blocks before a marker the API looks for an earlier cached prefix."""


def simulate_cache(body: dict[str, Any], cache: set[str], floor: int) -> tuple[int, int, int]:
    """(uncached input, cache read, cache write) tokens of one request; `cache` is updated.

    The longest prefix already in `cache` is read, found at a marker or up to
    LOOKBACK_BLOCKS blocks before one (so last turn's marked history is found after its
    marker moved on); the rest up to the last marker is written. Prefixes shorter than
    `floor` tokens are not cached.
    """
    items = without_cache_control(_prompt_items(body))
    total = estimate_tokens(items)
    model = body.get("model")
    marked = [i for i, item in enumerate(_prompt_items(body)) if _has_cache_control(item)]
    written = [(prefix_key(model, items[: i + 1]), estimate_tokens(items[: i + 1])) for i in marked]
    written = [(key, n) for key, n in written if n >= floor]
    if not written:
        return total, 0, 0
    looked = {j for i in marked for j in range(max(0, i - LOOKBACK_BLOCKS + 1), i + 1)}
    read = 0
    for j in sorted(looked, reverse=True):
        size = estimate_tokens(items[: j + 1])
        if size >= floor and prefix_key(model, items[: j + 1]) in cache:
            read = size
            break
    last = written[-1][1]
    cache.update(key for key, _n in written)
    return max(0, total - last), read, max(0, last - read)


def _prompt_items(body: dict[str, Any]) -> list[Any]:
    """Tools, system blocks, then each message's content blocks: the cache's order."""
    items: list[Any] = list(body.get("tools") or [])
    system = body.get("system")
    if isinstance(system, str):
        items.append({"type": "text", "text": system})
    elif system:
        items.extend(system)
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            items.append({"role": message["role"], "text": content})
        else:
            items.extend({"role": message["role"], **block} for block in content or [])
    return items


def _has_cache_control(item: Any) -> bool:
    return isinstance(item, dict) and "cache_control" in item


__all__ = [
    "CHARS_PER_TOKEN",
    "LOOKBACK_BLOCKS",
    "cache_prefix",
    "cache_prefixes",
    "estimate_tokens",
    "prefix_key",
    "prompt_tokens",
    "simulate_cache",
]
