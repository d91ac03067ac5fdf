"""Minimum cacheable prompt lengths per model, as the fake simulates them.

The table of custom_components/linn/agent/caching.py, written here by floor (the fake
imports nothing from the integration): Anthropic's prompt-caching documentation as quoted in
anthropic-sdk-python issue 1194 and affaan-m/ECC pull request 3173; Haiku 5.5's from
Apidog's Haiku 5.5 API guide (2026-10-08). Models whose minimum is not known (Sonnet 5.5,
Opus 5.5, Fable 5.1) and unknown models get UNKNOWN_FLOOR.
"""

from __future__ import annotations

from typing import Final

_FAMILIES_BY_FLOOR: Final = {
    512: ("claude-haiku-5-5", "claude-opus-5", "claude-fable-5"),
    1024: (
        "claude-opus-4-8",
        "claude-sonnet-5",
        "claude-sonnet-4-6",
        "claude-sonnet-4-5",
        "claude-opus-4-1",
    ),
    2048: ("claude-opus-4-7", "claude-3-5-haiku"),
    4096: ("claude-opus-4-6", "claude-opus-4-5", "claude-haiku-4-5"),
}
MIN_CACHEABLE_TOKENS: Final[dict[str, int]] = {
    family: floor for floor, families in _FAMILIES_BY_FLOOR.items() for family in families
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
