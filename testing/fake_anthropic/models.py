"""What GET /v1/models says of each model: its capabilities, as the real API lists them.

The SDK's `ModelInfo.capabilities` (anthropic 0.125): Home Assistant's own anthropic
integration and our agent choose their thinking and effort parameters from it. Families, as
Anthropic's model pages describe them (2026-10): the 5.x models think adaptively and take an
effort; Haiku 4.5 and Sonnet 4.5 take only budgeted ("enabled") thinking and no effort.
"""

from __future__ import annotations

from typing import Any, Final

ADAPTIVE_FAMILIES: Final = (
    "claude-haiku-5-5",
    "claude-sonnet-5-5",
    "claude-opus-5-5",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-fable-5",
)
"""Adaptive thinking, on by default: these think unless told `{"type": "disabled"}`."""

BUDGETED_FAMILIES: Final = ("claude-haiku-4-5", "claude-sonnet-4-5")
"""Only `{"type": "enabled", "budget_tokens": N}` thinking, off by default."""

OMITTED_DISPLAY_FAMILIES: Final = ("claude-haiku-5-5",)
"""Thinking text left out unless `display: "summarized"` (Haiku 5.5's what's-new page)."""


def family(model: str, families: tuple[str, ...]) -> bool:
    """Whether a model id (dated or not) belongs to one of the families."""
    return any(model == name or model.startswith(f"{name}-") for name in families)


def _supported(value: bool) -> dict[str, bool]:
    return {"supported": value}


def capabilities(model: str) -> dict[str, Any]:
    """The capabilities object of a model, in the API's shape."""
    adaptive = family(model, ADAPTIVE_FAMILIES)
    budgeted = family(model, BUDGETED_FAMILIES)
    levels = {level: _supported(adaptive) for level in ("low", "medium", "high", "xhigh", "max")}
    return {
        "batch": _supported(True),
        "citations": _supported(True),
        "code_execution": _supported(True),
        "context_management": {"supported": False},
        "effort": {"supported": adaptive, **levels},
        "image_input": _supported(True),
        "pdf_input": _supported(True),
        "structured_outputs": _supported(True),
        "thinking": {
            "supported": adaptive or budgeted,
            "types": {"adaptive": _supported(adaptive), "enabled": _supported(budgeted)},
        },
    }


def model_info(
    model: str, name: str, *, with_capabilities: bool | dict[str, Any]
) -> dict[str, Any]:
    """One entry of the model list (or GET /v1/models/{id}).

    `with_capabilities`: True gives the model's own, False none; a dict is given as it is
    (a partial or malformed answer, as an Anthropic-compatible server might send).
    """
    info: dict[str, Any] = {
        "type": "model",
        "id": model,
        "display_name": name,
        "created_at": "2025-10-01T00:00:00Z",
    }
    if isinstance(with_capabilities, dict):
        info["capabilities"] = with_capabilities
    elif with_capabilities:
        info["capabilities"] = capabilities(model)
    return info
