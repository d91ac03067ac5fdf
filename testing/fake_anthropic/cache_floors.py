"""Minimum cacheable prompt lengths per model, as the fake simulates them.

A copy of the table in custom_components/linn/agent/caching.py (the fake imports nothing
from the integration): Anthropic's prompt-caching documentation as quoted in
anthropic-sdk-python issue 1194 and affaan-m/ECC pull request 3173; Haiku 5.5's from
Apidog's Haiku 5.5 API guide (2026-10-08). Models whose minimum is not known (Sonnet 5.5,
Opus 5.5, Fable 5.1) and unknown models get UNKNOWN_FLOOR.
"""

from __future__ import annotations

from typing import Final

MIN_CACHEABLE_TOKENS: Final[dict[str, int]] = {
    "claude-haiku-5-5": 512,
    "claude-opus-5": 512,
    "claude-fable-5": 512,
    "claude-opus-4-8": 1024,
    "claude-sonnet-5": 1024,
    "claude-sonnet-4-6": 1024,
    "claude-sonnet-4-5": 1024,
    "claude-opus-4-1": 1024,
    "claude-opus-4-7": 2048,
    "claude-opus-4-6": 4096,
    "claude-opus-4-5": 4096,
    "claude-haiku-4-5": 4096,
    "claude-3-5-haiku": 2048,
}
UNKNOWN_FLOOR: Final = 0
NOT_LISTED: Final = ("claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1")
"""Families whose minimum is unknown: never taken for a shorter listed family."""


def min_cacheable_tokens(model: str) -> int:
    """The floor the fake applies to a model id (the longest matching family)."""
    families = [*MIN_CACHEABLE_TOKENS, *NOT_LISTED]
    matches = [name for name in families if model == name or model.startswith(f"{name}-")]
    if not matches:
        return UNKNOWN_FLOOR
    return MIN_CACHEABLE_TOKENS.get(max(matches, key=len), UNKNOWN_FLOOR)
