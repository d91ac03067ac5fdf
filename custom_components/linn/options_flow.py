"""Options of a streamer entry: how assistants' tools may act on this player.

The form and its checks are shared with the assistant entry's "Guard policies" step
(agent/config_flow.py), where the same settings apply to the calls that assistant makes.
"""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigFlowResult, OptionsFlow
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import section
from homeassistant.helpers import selector
import probatio

from .guard import OTHER_API_TOOLS
from .tools.guard_options import (
    DEFAULT_EXPIRY_MINUTES,
    DEFAULT_SOFT_LIMIT,
    OPT_EXPIRY,
    OPT_NOTIFY,
    OPT_POLICIES,
    OPT_QUIET_END,
    OPT_QUIET_START,
    OPT_SOFT_LIMIT,
    default_policy,
    policy_choices,
)
from .tools.linn_tools import TOOL_SPECS

NOTIFY_DOMAIN = "notify"


def _policy_selector(tool: str) -> selector.SelectSelector:
    return selector.SelectSelector(
        selector.SelectSelectorConfig(
            options=policy_choices(tool),
            mode=selector.SelectSelectorMode.DROPDOWN,
            translation_key="policy",
        )
    )


def notify_services(hass: HomeAssistant) -> list[str]:
    """The notify actions to offer for approval notifications."""
    return sorted(hass.services.async_services_for_domain(NOTIFY_DOMAIN))


def guard_schema(notify: list[str], *, for_assistant: bool = False) -> probatio.Schema:
    """The guard's settings form.

    `for_assistant` (an assistant's form): the soft limit and the expiry may be left
    empty, which keeps the players' own, and one more policy governs the tools of the
    other LLM APIs the assistant may call (a streamer's form has none: those calls
    target no Linn player).
    """
    tools = [*TOOL_SPECS, OTHER_API_TOOLS] if for_assistant else list(TOOL_SPECS)
    policies = {
        probatio.Required(tool, default=default_policy(tool)): _policy_selector(tool)
        for tool in tools
    }
    if for_assistant:
        soft_limit_key: Any = probatio.Optional(OPT_SOFT_LIMIT)
        expiry_key: Any = probatio.Optional(OPT_EXPIRY)
        soft_limit_mode = selector.NumberSelectorMode.BOX
    else:
        soft_limit_key = probatio.Required(OPT_SOFT_LIMIT, default=DEFAULT_SOFT_LIMIT)
        expiry_key = probatio.Required(OPT_EXPIRY, default=DEFAULT_EXPIRY_MINUTES)
        soft_limit_mode = selector.NumberSelectorMode.SLIDER
    return probatio.Schema(
        {
            soft_limit_key: selector.NumberSelector(
                selector.NumberSelectorConfig(
                    min=10, max=100, step=5, unit_of_measurement="%", mode=soft_limit_mode
                )
            ),
            probatio.Optional(OPT_QUIET_START): selector.TimeSelector(),
            probatio.Optional(OPT_QUIET_END): selector.TimeSelector(),
            expiry_key: selector.NumberSelector(
                selector.NumberSelectorConfig(
                    min=1, max=60, step=1, mode=selector.NumberSelectorMode.BOX
                )
            ),
            probatio.Optional(OPT_NOTIFY): selector.SelectSelector(
                selector.SelectSelectorConfig(options=notify, custom_value=True)
            ),
            probatio.Required(OPT_POLICIES): section(
                probatio.Schema(policies), {"collapsed": True}
            ),
        }
    )


def checked_guard_input(
    hass: HomeAssistant, user_input: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The options to store, and the translated errors that refuse them (if any)."""
    errors: dict[str, str] = {}
    options = dict(user_input)
    target = str(options.pop(OPT_NOTIFY, "") or "").strip()
    target = target.removeprefix(f"{NOTIFY_DOMAIN}.")
    if target and not hass.services.has_service(NOTIFY_DOMAIN, target):
        errors[OPT_NOTIFY] = "unknown_notify_target"
    elif target:
        options[OPT_NOTIFY] = target
    if bool(options.get(OPT_QUIET_START)) != bool(options.get(OPT_QUIET_END)):
        errors["base"] = "quiet_hours_incomplete"
    for key in (OPT_SOFT_LIMIT, OPT_EXPIRY):
        if options.get(key) is not None:
            options[key] = int(options[key])
        else:
            options.pop(key, None)
    return options, errors


class LinnOptionsFlow(OptionsFlow):
    """Policies per tool, soft limit, quiet hours, approval expiry, notify target."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One form; bad combinations are refused with a translated error."""
        errors: dict[str, str] = {}
        if user_input is not None:
            options, errors = checked_guard_input(self.hass, user_input)
            if not errors:
                return self.async_create_entry(data=options)
        schema = self.add_suggested_values_to_schema(
            guard_schema(notify_services(self.hass)), user_input or dict(self.config_entry.options)
        )
        return self.async_show_form(step_id="init", data_schema=schema, errors=errors)
