"""Thinking blocks, and the API's rules for sending them back.

What the fake holds a client to, from Anthropic's documentation (2026-10/11):
- A thinking model (the 5.x family unless `thinking.type` is "disabled"; a 4.5 model only
  with `"enabled"`) opens each reply with a thinking block: text (empty when the display is
  "omitted", Haiku 5.5's default) and an opaque signature; a reply can also carry a
  redacted_thinking block.
- "Echo the assistant message exactly as received: rebuilding the message or filtering out
  redacted_thinking blocks triggers a 400 error." A message holding a thinking block must be
  the message the API produced, byte for byte (cache_control aside), and its signature must be
  one the API gave.
- A signature is bound to what came before it: "fails if system, tools, or an earlier message
  changed after Claude produced a block. It also fails if a thinking block between others was
  left out or moved." Removing a completed turn's blocks is allowed.
- The final assistant message of an active tool loop must keep its thinking ("Expected
  `thinking` or `redacted_thinking`, but found `tool_use`").
- The 5.x models refuse sampling parameters, budgeted thinking, disabling thinking above effort
  "high", and an assistant prefill; a model whose capabilities have no effort (Haiku 4.5)
  refuses `output_config.effort`.
- Adaptive thinking decides per reply: a reply may not think at all, and may think again
  between its tool calls (interleaved); a scripted Reply says which (`thinks`,
  `interleaved`).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
import hashlib
import itertools
from typing import Any, Final

from .canonical import canonical, without_cache_control
from .models import (
    ADAPTIVE_FAMILIES,
    BUDGETED_FAMILIES,
    OMITTED_DISPLAY_FAMILIES,
    capabilities,
    family,
)
from .plans import ApiError, Reply

THINKING_TYPES: Final = ("thinking", "redacted_thinking")
DEFAULT_THINKING_TEXT: Final = "The person asked for something; the tools can do it."
SAMPLING_PARAMETERS: Final = ("temperature", "top_p", "top_k")
MIN_THINKING_BUDGET: Final = 1024

MISSING_THINKING: Final = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
    "`{found}`. When `thinking` is enabled, a final `assistant` message must start with a "
    "thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We "
    "recommend you include thinking blocks from previous turns. To avoid this requirement, "
    "disable `thinking`."
)
INVALID_SIGNATURE: Final = "messages.{i}.content.{j}: Invalid `signature` in `thinking` block."
BOUND_ELSEWHERE: Final = (
    "messages.{i}.content.{j}: Invalid `signature` in `thinking` block. The block is bound to "
    "a different conversation. Remove the block, or set "
    '`thinking.block_binding.prefix_mismatch_behavior` to "drop_block".'
)


def _strip(value: Any) -> Any:
    return without_cache_control(value, drop_nulls=True)


def _invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_request_error", message)


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _key(block: dict[str, Any]) -> str:
    """What identifies a thinking block: its signature, or a redacted block's data."""
    return str(block.get("signature") if block.get("type") == "thinking" else block.get("data"))


@dataclass(frozen=True, slots=True)
class _Produced:
    prefix: str
    """Hash of the tools, system and messages the block was produced after."""
    content: str
    """The whole message as produced (canonical JSON)."""
    thought: bool


class ThinkingRules:
    """Opens thinking replies with their blocks and checks each request's echo of them."""

    def __init__(self) -> None:
        self._by_key: dict[str, _Produced] = {}
        self._by_tool_use: dict[str, _Produced] = {}
        self._ids = itertools.count(1)

    @staticmethod
    def thinks(body: dict[str, Any]) -> bool:
        """Whether this request's reply thinks."""
        model = str(body.get("model", ""))
        kind = (body.get("thinking") or {}).get("type")
        if family(model, ADAPTIVE_FAMILIES):
            return kind != "disabled"
        if family(model, BUDGETED_FAMILIES):
            return kind == "enabled"
        return False

    def check(self, body: dict[str, Any]) -> ApiError | None:
        """The 400 the API would answer this request with, if any."""
        return self._check_parameters(body) or self._check_echo(body)

    def opening_blocks(self, body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
        """The thinking blocks a reply to this request starts with."""
        if not self.thinks(body) or not reply.thinks:
            return []
        blocks = self._thinking_block(body, reply)
        if reply.redacted_thinking:
            blocks.append({"type": "redacted_thinking", "data": self._opaque("redacted")})
        return blocks

    def between_tools(self, body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
        """The thinking block an interleaving reply puts before each further tool call."""
        if not self.thinks(body) or not reply.thinks or not reply.interleaved:
            return []
        return self._thinking_block(body, reply)

    def _thinking_block(self, body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
        model = str(body.get("model", ""))
        display = (body.get("thinking") or {}).get("display")
        omitted = display == "omitted" or (
            display is None and family(model, OMITTED_DISPLAY_FAMILIES)
        )
        text = "" if omitted else (reply.thinking or DEFAULT_THINKING_TEXT)
        return [{"type": "thinking", "thinking": text, "signature": self._opaque("sig")}]

    def record(self, body: dict[str, Any], content: list[dict[str, Any]]) -> None:
        """Remember a produced message, so its echo can be checked later."""
        thought = any(block["type"] in THINKING_TYPES for block in content)
        messages = len(body.get("messages", []))
        produced = _Produced(_prefix(body, messages), canonical(_strip(content)), thought)
        for block in content:
            if block["type"] in THINKING_TYPES:
                self._by_key[_key(block)] = produced
            elif block["type"] == "tool_use":
                self._by_tool_use[str(block["id"])] = produced

    # --- the checks ------------------------------------------------------------------------

    @staticmethod
    def _check_parameters(body: dict[str, Any]) -> ApiError | None:
        model = str(body.get("model", ""))
        thinking = body.get("thinking") or {}
        kind = thinking.get("type")
        effort = (body.get("output_config") or {}).get("effort")
        if effort is not None and not capabilities(model)["effort"]["supported"]:
            return _invalid("output_config.effort: This model does not support effort.")
        if family(model, ADAPTIVE_FAMILIES):
            for name in SAMPLING_PARAMETERS:
                if name in body:
                    return _invalid(f"`{name}` is not supported for this model; remove it.")
            if kind == "enabled":
                return _invalid(
                    '"thinking.type.enabled" is not supported for this model. Use '
                    '"thinking.type.adaptive" and "output_config.effort" to control thinking.'
                )
            if kind == "disabled" and effort in ("xhigh", "max"):
                return _invalid("thinking can be disabled only at effort high or below.")
            messages = body.get("messages") or []
            if messages and messages[-1].get("role") == "assistant":
                return _invalid(
                    "This model does not support assistant message prefill. The "
                    "conversation must end with a user message."
                )
        elif kind == "adaptive":
            return _invalid('"thinking.type.adaptive" is not supported for this model.')
        elif kind == "enabled":
            budget = thinking.get("budget_tokens", 0)
            if not MIN_THINKING_BUDGET <= budget < int(body.get("max_tokens", 0)):
                return _invalid(
                    "thinking.budget_tokens: must be at least 1024 and less than max_tokens."
                )
        return None

    def _check_echo(self, body: dict[str, Any]) -> ApiError | None:
        messages = body.get("messages") or []
        for i, message in enumerate(messages):
            if message.get("role") != "assistant":
                continue
            blocks = _blocks(message)
            for j, block in enumerate(blocks):
                if block.get("type") not in THINKING_TYPES:
                    continue
                produced = self._by_key.get(_key(block))
                if produced is None or canonical(_strip(blocks)) != produced.content:
                    return _invalid(INVALID_SIGNATURE.format(i=i, j=j))
                if _prefix(body, i) != produced.prefix:
                    return _invalid(BOUND_ELSEWHERE.format(i=i, j=j))
        return self._check_active_loop(messages)

    def _check_active_loop(self, messages: list[dict[str, Any]]) -> ApiError | None:
        """The last assistant message, answered by tool results, keeps the thinking it had."""
        if len(messages) < 2 or messages[-2].get("role") != "assistant":
            return None
        if not any(b.get("type") == "tool_result" for b in _blocks(messages[-1])):
            return None
        blocks = _blocks(messages[-2])
        produced = [
            self._by_tool_use[str(b.get("id"))]
            for b in blocks
            if b.get("type") == "tool_use" and str(b.get("id")) in self._by_tool_use
        ]
        starts_thinking = bool(blocks) and blocks[0].get("type") in THINKING_TYPES
        if any(p.thought for p in produced) and not starts_thinking:
            found = blocks[0].get("type") if blocks else "nothing"
            return _invalid(MISSING_THINKING.format(i=len(messages) - 2, found=found))
        return None

    def _opaque(self, kind: str) -> str:
        digest = hashlib.sha256(f"{kind}-{next(self._ids)}".encode()).digest()
        return base64.b64encode(digest * 2).decode()


def _prefix(body: dict[str, Any], messages_before: int) -> str:
    """Hash of what a block at this message index was produced after."""
    before = [
        body.get("tools") or [],
        body.get("system") or [],
        (body.get("messages") or [])[:messages_before],
    ]
    return hashlib.sha256(canonical(_strip(before)).encode()).hexdigest()
