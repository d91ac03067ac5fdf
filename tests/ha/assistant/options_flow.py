"""An assistant entry's options as the tests open them: the menu, then "Model and budgets"."""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigFlowResult
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_MODEL


async def open_assistant_step(hass: HomeAssistant, entry: MockConfigEntry) -> ConfigFlowResult:
    """The entry's options flow past its menu, at the form of the assistant step."""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.MENU  # "Model and budgets" / "Guard policies"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"next_step_id": "assistant"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "assistant"
    return result


def model_selector(result: ConfigFlowResult) -> Any:
    """The selector of the model field in the assistant step's form."""
    schema = result["data_schema"].schema
    return next(value for key, value in schema.items() if key == CONF_MODEL)
