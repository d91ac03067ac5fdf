"""An assistant entry's diagnostics: its options, settings, memory, cache and thinking.

Home Assistant asks the integration's diagnostics platform (diagnostics.py at the root), which
hands an assistant entry over to this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant

from .caching import min_cacheable_tokens
from .const import CONF_INSTRUCTIONS, CONF_MODEL, CONF_THINKING_EFFORT, option
from .effective_settings import async_effective_settings
from .memory import async_get_memory
from .runtime import AssistantConfigEntry
from .thinking_params import option_not_applied

TYPED_OPTIONS = {CONF_INSTRUCTIONS}
"""Assistant options that hold a user's own words."""


async def async_get_assistant_diagnostics(
    hass: HomeAssistant, entry: AssistantConfigEntry, guard: dict[str, Any]
) -> dict[str, Any]:
    """An assistant entry's diagnostics, with `guard` (the guard's, in every entry's) in them."""
    return {
        "entry": async_redact_data(dict(entry.data), {CONF_API_KEY}),
        "options": _options_diagnostics(entry.options),
        "effective_guard_settings": async_effective_settings(hass, entry),
        "guard": guard,
        "memory": await _memory_diagnostics(hass),
        "prompt_cache": _prompt_cache_diagnostics(entry),
        "thinking": _thinking_diagnostics(entry),
        "planner": _planner_diagnostics(entry),
    }


def _prompt_cache_diagnostics(entry: AssistantConfigEntry) -> dict[str, Any]:
    """The model's minimum cacheable length and what the last request's usage showed."""
    model = option(entry.options, CONF_MODEL)
    runtime = getattr(entry, "runtime_data", None)
    last = runtime.last_cache if runtime is not None else None
    return {
        "model": model,
        "min_cacheable_tokens": min_cacheable_tokens(model),
        "last_request": last.as_dict() if last is not None else None,
    }


def _planner_diagnostics(entry: AssistantConfigEntry) -> dict[str, int]:
    """The planner's turns since the entry loaded: planned, or why there was no plan."""
    runtime = getattr(entry, "runtime_data", None)
    return dict(runtime.plan_outcomes) if runtime is not None else {}


def _thinking_diagnostics(entry: AssistantConfigEntry) -> dict[str, Any]:
    """The model's capabilities the parameters came from, and those the last request sent."""
    runtime = getattr(entry, "runtime_data", None)
    capabilities = runtime.capabilities if runtime is not None else None
    return {
        "effort_option": option(entry.options, CONF_THINKING_EFFORT),
        "capabilities": capabilities.as_dict() if capabilities is not None else None,
        "last_request_params": runtime.thinking_params if runtime is not None else None,
        "option_not_applied": option_not_applied(capabilities),
    }


def _options_diagnostics(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options, with the text a user typed given by its size only."""
    return {
        key: {"characters": len(str(value))} if key in TYPED_OPTIONS else value
        for key, value in options.items()
    }


async def _memory_diagnostics(hass: HomeAssistant) -> dict[str, Any]:
    """How many facts each user remembered, and their sizes.

    Never their text: a diagnostics file is attached to public bug reports, and a fact is
    a person's words about their household. Users by number, not by id.
    """
    memory = await async_get_memory(hass)
    return {
        f"user {number}": {"facts": len(facts), "characters": [len(fact.text) for fact in facts]}
        for number, facts in enumerate(memory.all_facts().values(), start=1)
    }
