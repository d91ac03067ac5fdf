"""Config entries for streamers on loopback, as the config flow creates them.

Helpers for the tests and the benchmarks in scripts/ (testing/: no fixtures, no test imported).
"""

from __future__ import annotations

from typing import Any

from homeassistant.const import CONF_HOST, CONF_PORT
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.const import DOMAIN

UDN = "4c494e4e-0050-c221-71e5-df000003013f"
"""The emulated Living Room streamer of the tests."""
OTHER_UDN = "4c494e4e-0050-c221-71e5-df0000030999"
"""The emulated Kitchen streamer of the tests."""
ENTITY_ID = "media_player.living_room"
"""The Living Room streamer's media player."""


def linn_entry(udn: str, port: int, title: str | None = None) -> MockConfigEntry:
    """The entry for the streamer with this UDN on this loopback port (not yet added)."""
    named: dict[str, Any] = {"title": title} if title else {}
    return MockConfigEntry(
        domain=DOMAIN, unique_id=udn, data={CONF_HOST: "127.0.0.1", CONF_PORT: port}, **named
    )


async def async_setup_linn(
    hass: HomeAssistant, udn: str, port: int, title: str | None = None
) -> MockConfigEntry:
    """The integration set up for that streamer."""
    entry = linn_entry(udn, port, title)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry
