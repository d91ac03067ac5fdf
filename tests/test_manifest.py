"""The manifest and hacs.json are what HACS and Home Assistant's loader accept."""

import json
from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.loader import async_get_integration

ROOT = Path(__file__).parent.parent
MANIFEST = ROOT / "custom_components" / "linn" / "manifest.json"

# hassfest's CUSTOM_INTEGRATION_MANIFEST_SCHEMA rejects unknown keys.
ALLOWED_KEYS = {
    "domain",
    "name",
    "codeowners",
    "config_flow",
    "dependencies",
    "after_dependencies",
    "documentation",
    "integration_type",
    "iot_class",
    "issue_tracker",
    "loggers",
    "quality_scale",
    "requirements",
    "ssdp",
    "version",
    "single_config_entry",
}


def test_manifest_is_valid_for_hacs() -> None:
    manifest = json.loads(MANIFEST.read_text())
    assert set(manifest) <= ALLOWED_KEYS
    assert manifest["domain"] == "linn"
    assert manifest["iot_class"] == "local_push"
    assert manifest["integration_type"] == "device"
    assert manifest["config_flow"] is True
    assert manifest["version"].count(".") == 2
    assert manifest["issue_tracker"].startswith("https://")
    assert "home-assistant.io" not in manifest["documentation"]
    # domain and name first, then alphabetical (hassfest's ordering rule)
    keys = list(manifest)
    assert keys[:2] == ["domain", "name"]
    assert keys[2:] == sorted(keys[2:])
    sts = {matcher["st"] for matcher in manifest["ssdp"]}
    assert sts == {f"urn:av-openhome-org:service:Product:{n}" for n in range(1, 5)}


def test_hacs_json_names_minimum_home_assistant() -> None:
    hacs = json.loads((ROOT / "hacs.json").read_text())
    assert hacs["name"]
    assert hacs["homeassistant"] == "2026.10.0"


async def test_home_assistant_loads_the_manifest(hass: HomeAssistant) -> None:
    integration = await async_get_integration(hass, "linn")
    assert integration.is_built_in is False
    assert integration.version is not None
    assert str(integration.version) == json.loads(MANIFEST.read_text())["version"]
    assert integration.iot_class == "local_push"
