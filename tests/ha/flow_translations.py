"""Every config and options flow result a test sees is translated (strings.json).

Home Assistant's own tests check this for core integrations (tests/components/conftest.py);
phacc does not. Without it a reason Home Assistant produces on our behalf (`already_in_progress`
from `async_set_unique_id`, say) reaches the user as a raw key. The check wraps the real flow
manager's step handler, so it sees every result, whichever code made it.
"""

from __future__ import annotations

from collections.abc import Iterator
import json
from pathlib import Path
from typing import Any

from homeassistant.config_entries import ConfigEntriesFlowManager, OptionsFlowManager
from homeassistant.data_entry_flow import FlowManager, FlowResultType, section
import pytest

from custom_components.linn.const import DOMAIN

STRINGS = Path(__file__).parent.parent.parent / "custom_components" / DOMAIN / "strings.json"


def _fields(schema: Any) -> Iterator[tuple[str, Any]]:
    for key, value in getattr(schema, "schema", {}).items():
        yield str(key), value


def untranslated(strings: dict[str, Any], category: str, result: dict[str, Any]) -> list[str]:
    """What this flow result shows the user that strings.json lacks (as translation paths)."""
    flow = strings.get(category, {})
    missing: list[str] = []
    kind = result["type"]
    if kind is FlowResultType.ABORT:
        if result["reason"] not in flow.get("abort", {}):
            missing.append(f"{category}.abort.{result['reason']}")
        return missing
    if kind not in (FlowResultType.FORM, FlowResultType.MENU):
        return missing
    step_id = result["step_id"]
    step = flow.get("step", {}).get(step_id)
    if step is None:
        return [f"{category}.step.{step_id}"]
    missing.extend(
        f"{category}.error.{error}"
        for error in (result.get("errors") or {}).values()
        if error not in flow.get("error", {})
    )
    if kind is FlowResultType.MENU:
        options = result["menu_options"]
        names = options if isinstance(options, list) else list(options)
        missing += [
            f"{category}.step.{step_id}.menu_options.{name}"
            for name in names
            if name not in step.get("menu_options", {})
        ]
        return missing
    for key, value in _fields(result.get("data_schema")):
        if isinstance(value, section):
            labels = step.get("sections", {}).get(key, {})
            if key not in step.get("sections", {}):
                missing.append(f"{category}.step.{step_id}.sections.{key}")
            missing += [
                f"{category}.step.{step_id}.sections.{key}.data.{inner}"
                for inner, _ in _fields(value.schema)
                if inner not in labels.get("data", {})
            ]
        elif key not in step.get("data", {}):
            missing.append(f"{category}.step.{step_id}.data.{key}")
    return missing


@pytest.fixture(autouse=True)
def check_flow_translations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test when one of our flows showed something strings.json does not translate."""
    strings = json.loads(STRINGS.read_text())
    found: list[str] = []
    original = FlowManager._async_handle_step

    async def _handle_step(self: FlowManager, flow: Any, *args: Any, **kwargs: Any) -> Any:
        result = await original(self, flow, *args, **kwargs)
        if isinstance(self, ConfigEntriesFlowManager) and flow.handler == DOMAIN:
            found.extend(untranslated(strings, "config", result))
        elif isinstance(self, OptionsFlowManager):
            entry = self.hass.config_entries.async_get_entry(flow.handler)
            if entry is not None and entry.domain == DOMAIN:
                found.extend(untranslated(strings, "options", result))
        return result

    monkeypatch.setattr(FlowManager, "_async_handle_step", _handle_step)
    yield
    assert not found, f"flow results without a translation in strings.json: {sorted(set(found))}"
