"""Each model's minimum cacheable prompt length, and whether a request's prefix could be cached.

Anthropic caches a prefix only from a minimum length, which differs per model and is not
monotonic across generations; below it the request is served uncached, without an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .models import model_family
from .usage import Usage

MINIMUMS_SOURCE: Final = (
    "Anthropic's prompt-caching documentation as quoted in anthropic-sdk-python issue 1194 "
    "and a review on affaan-m/ECC pull request 3173 (2026-12-03); Haiku 5.5's 512 from "
    "Apidog's Claude Haiku 5.5 API guide (2026-10-08, citing Anthropic's model page; "
    "Anthropic's own table was not available here); Sonnet 5.5's and Opus 5.5's are unknown"
)

MIN_CACHEABLE_TOKENS: Final[Mapping[str, int | None]] = {
    "claude-haiku-5-5": 512,
    "claude-sonnet-5-5": None,
    "claude-opus-5-5": None,
    "claude-fable-5-1": None,
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
"""Tokens, per model family; None: the model is known but its minimum is not."""


def min_cacheable_tokens(model: str) -> int | None:
    """The model's minimum cacheable prompt length in tokens; None when not known."""
    family = model_family(model, MIN_CACHEABLE_TOKENS)
    return MIN_CACHEABLE_TOKENS[family] if family is not None else None


@dataclass(frozen=True, slots=True)
class CacheReport:
    """What the last model request's usage says about the prompt cache."""

    model: str
    min_cacheable_tokens: int | None
    prompt_tokens: int
    """All prompt tokens of the request, as the API counted them."""
    stable_prefix_tokens: int
    """Tools and system prompt: the API's count, shared out by their share of the bytes."""
    cache_read_tokens: int
    cache_write_tokens: int

    @property
    def cache_used(self) -> bool:
        """The API read or wrote some of this request's prompt from or to its cache."""
        return bool(self.cache_read_tokens or self.cache_write_tokens)

    @property
    def stable_prefix_cacheable(self) -> bool | None:
        """Whether the tools and system prompt reach the model's minimum (None: unknown)."""
        if self.min_cacheable_tokens is None:
            return None
        return self.stable_prefix_tokens >= self.min_cacheable_tokens

    def as_dict(self) -> dict[str, Any]:
        """For diagnostics."""
        return {
            "model": self.model,
            "min_cacheable_tokens": self.min_cacheable_tokens,
            "min_cacheable_tokens_source": MINIMUMS_SOURCE,
            "prompt_tokens": self.prompt_tokens,
            "stable_prefix_tokens_estimate": self.stable_prefix_tokens,
            "stable_prefix_cacheable": self.stable_prefix_cacheable,
            "cache_used": self.cache_used,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
        }


def cache_report(model: str, usage: Usage, prefix_bytes: int, request_bytes: int) -> CacheReport:
    """The report of one request: `prefix_bytes` of its `request_bytes` are tools and system."""
    prompt = usage.prompt_tokens
    share = prefix_bytes / request_bytes if request_bytes else 0.0
    return CacheReport(
        model=model,
        min_cacheable_tokens=min_cacheable_tokens(model),
        prompt_tokens=prompt,
        stable_prefix_tokens=round(prompt * share),
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
    )
