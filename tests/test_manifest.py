"""manifest.json and hacs.json follow Home Assistant's and HACS's rules (tests/manifest_rules.py).

Each rule is checked against the real files, and a broken copy of them proves the check bites.
"""

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

from awesomeversion import AwesomeVersion
from homeassistant.const import __version__ as HA_VERSION
from homeassistant.core import HomeAssistant
from homeassistant.loader import async_get_integration, async_get_ssdp
import probatio as vol
import pytest

from tests.manifest_rules import (
    CUSTOM_INTEGRATION_MANIFEST,
    HACS_INTEGRATION_MANIFEST,
    HACS_JSON,
    keys_in_hassfest_order,
)

ROOT = Path(__file__).parent.parent
MANIFEST_PATH = ROOT / "custom_components" / "linn" / "manifest.json"
HACS_JSON_PATH = ROOT / "hacs.json"


def _manifest() -> dict[str, Any]:
    return dict(json.loads(MANIFEST_PATH.read_text()))


def _hacs_json() -> dict[str, Any]:
    return dict(json.loads(HACS_JSON_PATH.read_text()))


def _edited(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A copy with `key` set to `value`, or removed when `value` is ..."""
    edited = copy.deepcopy(data)
    if value is ...:
        del edited[key]
    else:
        edited[key] = value
    return edited


def test_manifest_meets_hassfests_custom_integration_rules() -> None:
    manifest = _manifest()
    CUSTOM_INTEGRATION_MANIFEST(manifest)
    assert manifest["domain"] == MANIFEST_PATH.parent.name
    assert keys_in_hassfest_order(manifest), list(manifest)
    # hassfest warns when a custom domain shadows a core integration
    assert importlib.util.find_spec(f"homeassistant.components.{manifest['domain']}") is None


def test_manifest_has_what_hacs_needs() -> None:
    HACS_INTEGRATION_MANIFEST(_manifest())


def test_hacs_json_meets_hacs_rules() -> None:
    hacs = _hacs_json()
    HACS_JSON(hacs)
    # The minimum it announces must not be newer than the Home Assistant the tests run on.
    assert AwesomeVersion(hacs["homeassistant"]) <= AwesomeVersion(HA_VERSION)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("version", ...),
        ("version", "first"),
        ("iot_class", ...),
        ("iot_class", "local_pushed"),
        ("integration_type", "virtual"),
        ("documentation", "https://www.home-assistant.io/integrations/linn"),
        ("documentation", "http://example.com/linn"),
        ("issue_tracker", "not a url"),
        ("codeowners", ...),
        ("domain", "Linn"),
        ("ssdp", [{}]),
        ("quality_scale", "diamond"),
        ("homepage", "https://example.com"),
    ],
)
def test_manifest_rules_reject_a_violation(key: str, value: Any) -> None:
    with pytest.raises(vol.Invalid):
        CUSTOM_INTEGRATION_MANIFEST(_edited(_manifest(), key, value))


@pytest.mark.parametrize(("key", "value"), [("issue_tracker", ...), ("version", ...)])
def test_hacs_manifest_rules_reject_a_violation(key: str, value: Any) -> None:
    with pytest.raises(vol.Invalid):
        HACS_INTEGRATION_MANIFEST(_edited(_manifest(), key, value))


@pytest.mark.parametrize(
    ("key", "value"),
    [("name", ...), ("domains", ["media_player"]), ("country", "XX"), ("render_readme", "yes")],
)
def test_hacs_json_rules_reject_a_violation(key: str, value: Any) -> None:
    with pytest.raises(vol.Invalid):
        HACS_JSON(_edited(_hacs_json(), key, value))


def test_manifest_keys_out_of_order_are_caught() -> None:
    manifest = _manifest()
    reordered = {"name": manifest["name"], **manifest}
    assert not keys_in_hassfest_order(reordered)


async def test_home_assistant_loads_the_manifest(hass: HomeAssistant) -> None:
    """The loader blocks a custom integration without a valid version; this one loads."""
    integration = await async_get_integration(hass, "linn")
    assert integration.is_built_in is False
    assert str(integration.version) == _manifest()["version"]


async def test_home_assistant_routes_a_linn_ssdp_announcement_here(hass: HomeAssistant) -> None:
    """Linn DSMs announce the OpenHome Product service, versions 1 to 4."""
    matchers = (await async_get_ssdp(hass))["linn"]
    for version in range(1, 5):
        st = f"urn:av-openhome-org:service:Product:{version}"
        assert any(matcher.items() <= {"st": st}.items() for matcher in matchers), st
