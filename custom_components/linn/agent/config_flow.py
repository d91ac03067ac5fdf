"""The assistant's config steps (key checked with a real request, reauth) and its options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

import anthropic
from homeassistant.config_entries import (
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlow,
)
from homeassistant.const import CONF_API_KEY
from homeassistant.helpers import llm
from homeassistant.helpers.selector import (
    NumberSelector,
    NumberSelectorConfig,
    NumberSelectorMode,
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)
import probatio

from ..const import DOMAIN
from ..options_flow import checked_guard_input, guard_schema, notify_services
from ..tools.guard_options import GUARD_OPTIONS
from .client import async_check_key, async_create_client, async_list_models
from .const import (
    CONF_BASE_URL,
    CONF_BUDGET_CONVERSATION_COST,
    CONF_BUDGET_CONVERSATION_TOKENS,
    CONF_BUDGET_DAY_COST,
    CONF_BUDGET_DAY_SHARE,
    CONF_BUDGET_DAY_TOKENS,
    CONF_INSTRUCTIONS,
    CONF_LLM_APIS,
    CONF_MAX_STEPS,
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    DEFAULT_MODEL,
    DEFAULT_OPTIONS,
    option,
)
from .runtime import AssistantConfigEntry
from .thinking_params import EFFORT_CHOICES, too_few_tokens_for_thinking

ASSISTANT_TITLE = "Claude assistant"


def _key_schema(base_url: str = "") -> probatio.Schema:
    return probatio.Schema(
        {
            probatio.Required(CONF_API_KEY): TextSelector(
                TextSelectorConfig(type=TextSelectorType.PASSWORD)
            ),
            probatio.Optional(CONF_BASE_URL, description={"suggested_value": base_url}): str,
        }
    )


def _reconfigure_schema(base_url: str) -> probatio.Schema:
    """An empty key keeps the current one (it is never sent back to the form)."""
    return probatio.Schema(
        {
            probatio.Optional(CONF_API_KEY): TextSelector(
                TextSelectorConfig(type=TextSelectorType.PASSWORD)
            ),
            probatio.Optional(CONF_BASE_URL, description={"suggested_value": base_url}): str,
        }
    )


def _entered_base_url(user_input: Mapping[str, Any]) -> str | None:
    """The server URL as stored: None for Anthropic's own."""
    return (user_input.get(CONF_BASE_URL) or "").strip().rstrip("/") or None


def _valid_base_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in ("http", "https") and bool(parsed.hostname)


class AssistantSteps(ConfigFlow):
    """The assistant's half of the integration's config flow."""

    async def async_step_assistant(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """API key and, for a compatible server, its base URL."""
        errors: dict[str, str] = {}
        if user_input is not None:
            api_key = user_input[CONF_API_KEY].strip()
            base_url = _entered_base_url(user_input)
            if base_url is not None and not _valid_base_url(base_url):
                errors[CONF_BASE_URL] = "invalid_url"
            else:
                self._async_abort_entries_match({CONF_API_KEY: api_key, CONF_BASE_URL: base_url})
                error = await async_check_key(self.hass, api_key, base_url)
                if error is None:
                    return self.async_create_entry(
                        title=ASSISTANT_TITLE,
                        data={CONF_API_KEY: api_key, CONF_BASE_URL: base_url},
                        options=dict(DEFAULT_OPTIONS),
                    )
                errors["base"] = error
        return self.async_show_form(
            step_id="assistant",
            data_schema=_key_schema((user_input or {}).get(CONF_BASE_URL) or ""),
            errors=errors,
        )

    async def async_step_reconfigure_assistant(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """A new key or server URL for an assistant, checked with a real request as at setup.

        Nothing changes until the check passes; then the entry reloads with a new client.
        """
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            api_key = (user_input.get(CONF_API_KEY) or "").strip() or entry.data[CONF_API_KEY]
            base_url = _entered_base_url(user_input)
            if base_url is not None and not _valid_base_url(base_url):
                errors[CONF_BASE_URL] = "invalid_url"
            elif any(
                other.entry_id != entry.entry_id
                and other.data.get(CONF_API_KEY) == api_key
                and other.data.get(CONF_BASE_URL) == base_url
                for other in self._async_current_entries(include_ignore=False)
            ):
                errors["base"] = "assistant_exists"
            else:
                error = await async_check_key(self.hass, api_key, base_url)
                if error is None:
                    return self.async_update_reload_and_abort(
                        entry,
                        data_updates={CONF_API_KEY: api_key, CONF_BASE_URL: base_url},
                        reason="assistant_reconfigured",
                    )
                errors["base"] = error
            shown_url = user_input.get(CONF_BASE_URL) or ""
        else:
            shown_url = entry.data.get(CONF_BASE_URL) or ""
        return self.async_show_form(
            step_id="reconfigure_assistant",
            data_schema=_reconfigure_schema(shown_url),
            description_placeholders={"title": entry.title},
            errors=errors,
        )

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """The API rejected the key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """A new key for the same server."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            api_key = user_input[CONF_API_KEY].strip()
            error = await async_check_key(self.hass, api_key, entry.data.get(CONF_BASE_URL))
            if error is None:
                return self.async_update_reload_and_abort(
                    entry, data_updates={CONF_API_KEY: api_key}
                )
            errors["base"] = error
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=probatio.Schema(
                {
                    probatio.Required(CONF_API_KEY): TextSelector(
                        TextSelectorConfig(type=TextSelectorType.PASSWORD)
                    )
                }
            ),
            description_placeholders={"title": entry.title},
            errors=errors,
        )


def _number(low: float, high: float, step: float, unit: str | None = None) -> NumberSelector:
    config = NumberSelectorConfig(min=low, max=high, step=step, mode=NumberSelectorMode.BOX)
    if unit is not None:
        config["unit_of_measurement"] = unit
    return NumberSelector(config)


def _whole(low: int, high: int) -> Any:
    return probatio.All(_number(low, high, 1), probatio.Coerce(int))


class AssistantOptionsFlow(OptionsFlow):
    """A menu: the model and budgets, or the guard's policies for this assistant's calls."""

    async def _async_client(self) -> anthropic.AsyncAnthropic:
        """The loaded entry's client, or a new one (built off the loop) for an entry not loaded.

        After a rejected key the entry is not loaded; its options must stay reachable.
        """
        entry: AssistantConfigEntry = self.config_entry
        if entry.state is ConfigEntryState.LOADED:
            return entry.runtime_data.client
        return await async_create_client(
            self.hass, entry.data[CONF_API_KEY], entry.data.get(CONF_BASE_URL)
        )

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The menu (its own step id: the streamers' options own the `init` translations)."""
        return await self.async_step_assistant_menu()

    async def async_step_assistant_menu(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """The menu: the model and budgets, or the guard policies."""
        return self.async_show_menu(
            step_id="assistant_menu", menu_options=["assistant", "assistant_guard"]
        )

    async def async_step_assistant_guard(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """The guard's settings for the calls this assistant makes.

        The same form as a streamer's; they only tighten: a call follows the strictest of
        these and the players' settings. The model options stay as they are.
        """
        entry: AssistantConfigEntry = self.config_entry
        errors: dict[str, str] = {}
        if user_input is not None:
            guard_options, errors = checked_guard_input(self.hass, user_input)
            if not errors:
                kept = {k: v for k, v in entry.options.items() if k not in GUARD_OPTIONS}
                return self.async_create_entry(data={**kept, **guard_options})
        schema = self.add_suggested_values_to_schema(
            guard_schema(notify_services(self.hass), for_assistant=True),
            user_input or dict(entry.options),
        )
        return self.async_show_form(step_id="assistant_guard", data_schema=schema, errors=errors)

    async def async_step_assistant(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """One form for the assistant's own options."""
        entry: AssistantConfigEntry = self.config_entry
        errors: dict[str, str] = {}
        if user_input is not None:
            if not str(user_input.get(CONF_MODEL, "")).strip():
                errors[CONF_MODEL] = "model_required"
            elif too_few_tokens_for_thinking(
                option(user_input, CONF_THINKING_EFFORT), option(user_input, CONF_MAX_TOKENS)
            ):
                errors[CONF_MAX_TOKENS] = "max_tokens_thinking"
            else:
                return self.async_create_entry(data={**entry.options, **user_input})
        options = {**entry.options, **(user_input or {})}
        models = await async_list_models(await self._async_client())
        current = option(options, CONF_MODEL)
        choices = list(dict.fromkeys([*models, current, DEFAULT_MODEL]))
        apis = [
            SelectOptionDict(value=api.id, label=api.name)
            for api in llm.async_get_apis(self.hass)
            if api.id != f"{DOMAIN}_assistant"
        ]
        schema = probatio.Schema(
            {
                probatio.Required(CONF_MODEL, default=current): SelectSelector(
                    SelectSelectorConfig(
                        options=choices, custom_value=True, mode=SelectSelectorMode.DROPDOWN
                    )
                ),
                probatio.Optional(
                    CONF_INSTRUCTIONS, default=option(options, CONF_INSTRUCTIONS)
                ): TextSelector(TextSelectorConfig(multiline=True)),
                probatio.Required(
                    CONF_MAX_TOKENS, default=option(options, CONF_MAX_TOKENS)
                ): _whole(64, 8192),
                probatio.Required(CONF_MAX_STEPS, default=option(options, CONF_MAX_STEPS)): _whole(
                    1, 20
                ),
                probatio.Required(
                    CONF_THINKING_EFFORT, default=option(options, CONF_THINKING_EFFORT)
                ): SelectSelector(
                    SelectSelectorConfig(
                        options=list(EFFORT_CHOICES),
                        translation_key=CONF_THINKING_EFFORT,
                        mode=SelectSelectorMode.DROPDOWN,
                    )
                ),
                probatio.Optional(
                    CONF_LLM_APIS, default=option(options, CONF_LLM_APIS)
                ): SelectSelector(SelectSelectorConfig(options=apis, multiple=True)),
                probatio.Required(
                    CONF_BUDGET_CONVERSATION_TOKENS,
                    default=option(options, CONF_BUDGET_CONVERSATION_TOKENS),
                ): _whole(0, 100_000_000),
                probatio.Required(
                    CONF_BUDGET_CONVERSATION_COST,
                    default=option(options, CONF_BUDGET_CONVERSATION_COST),
                ): _number(0, 1000, 0.01, "USD"),
                probatio.Required(
                    CONF_BUDGET_DAY_TOKENS, default=option(options, CONF_BUDGET_DAY_TOKENS)
                ): _whole(0, 1_000_000_000),
                probatio.Required(
                    CONF_BUDGET_DAY_COST, default=option(options, CONF_BUDGET_DAY_COST)
                ): _number(0, 10_000, 0.01, "USD"),
                probatio.Required(
                    CONF_BUDGET_DAY_SHARE, default=option(options, CONF_BUDGET_DAY_SHARE)
                ): probatio.All(_number(0, 100, 1, "%"), probatio.Coerce(int)),
            }
        )
        return self.async_show_form(step_id="assistant", data_schema=schema, errors=errors)
