"""Options of a streamer entry: how assistants' tools may act on this player."""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigFlowResult, OptionsFlow
from homeassistant.data_entry_flow import section
from homeassistant.helpers import selector
import probatio

from .guard.specs import TOOL_SPECS
from .guard_options import (
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

NOTIFY_DOMAIN = "notify"


def _policy_selector(tool: str) -> selector.SelectSelector:
    return selector.SelectSelector(
        selector.SelectSelectorConfig(
            options=policy_choices(tool),
            mode=selector.SelectSelectorMode.DROPDOWN,
            translation_key="policy",
        )
    )


def _schema(notify_services: list[str]) -> probatio.Schema:
    policies = {
        probatio.Required(tool, default=default_policy(tool)): _policy_selector(tool)
        for tool in TOOL_SPECS
    }
    return probatio.Schema(
        {
            probatio.Required(OPT_SOFT_LIMIT, default=DEFAULT_SOFT_LIMIT): selector.NumberSelector(
                selector.NumberSelectorConfig(
                    min=10,
                    max=100,
                    step=5,
                    unit_of_measurement="%",
                    mode=selector.NumberSelectorMode.SLIDER,
                )
            ),
            probatio.Optional(OPT_QUIET_START): selector.TimeSelector(),
            probatio.Optional(OPT_QUIET_END): selector.TimeSelector(),
            probatio.Required(OPT_EXPIRY, default=DEFAULT_EXPIRY_MINUTES): selector.NumberSelector(
                selector.NumberSelectorConfig(
                    min=1, max=60, step=1, mode=selector.NumberSelectorMode.BOX
                )
            ),
            probatio.Optional(OPT_NOTIFY): selector.SelectSelector(
                selector.SelectSelectorConfig(options=notify_services, custom_value=True)
            ),
            probatio.Required(OPT_POLICIES): section(
                probatio.Schema(policies), {"collapsed": True}
            ),
        }
    )


class LinnOptionsFlow(OptionsFlow):
    """Policies per tool, soft limit, quiet hours, approval expiry, notify target."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One form; bad combinations are refused with a translated error."""
        notify_services = sorted(self.hass.services.async_services_for_domain(NOTIFY_DOMAIN))
        errors: dict[str, str] = {}
        if user_input is not None:
            options = dict(user_input)
            target = str(options.pop(OPT_NOTIFY, "") or "").strip()
            target = target.removeprefix(f"{NOTIFY_DOMAIN}.")
            if target and not self.hass.services.has_service(NOTIFY_DOMAIN, target):
                errors[OPT_NOTIFY] = "unknown_notify_target"
            elif target:
                options[OPT_NOTIFY] = target
            if bool(options.get(OPT_QUIET_START)) != bool(options.get(OPT_QUIET_END)):
                errors["base"] = "quiet_hours_incomplete"
            options[OPT_SOFT_LIMIT] = int(options[OPT_SOFT_LIMIT])
            options[OPT_EXPIRY] = int(options[OPT_EXPIRY])
            if not errors:
                return self.async_create_entry(data=options)
        schema = self.add_suggested_values_to_schema(
            _schema(notify_services), user_input or dict(self.config_entry.options)
        )
        return self.async_show_form(step_id="init", data_schema=schema, errors=errors)
