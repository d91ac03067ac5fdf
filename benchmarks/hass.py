"""The benchmarks' Home Assistant: phacc's test core, in a throw-away configuration directory.

Without a config_dir, pytest-homeassistant-custom-component's async_test_home_assistant() uses the
testing_config directory inside the installed package: a benchmark run there writes its
registries, auth, HTTP settings and guard storage into the toolchain's environment, where the next
run finds them. Every benchmark starts Home Assistant through home_assistant() instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import tempfile

from homeassistant import loader
from homeassistant.components.http.config import async_get_and_load_store
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import async_test_home_assistant

from testing.helpers import closed_port


@asynccontextmanager
async def home_assistant() -> AsyncIterator[HomeAssistant]:
    """A running core that can load custom_components/linn; stopped, its directory removed."""
    with tempfile.TemporaryDirectory(prefix="linn-bench-ha-") as config_dir:
        async with async_test_home_assistant(config_dir=config_dir) as hass:
            # phacc empties the custom integrations cache: let the loader find ours again
            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            try:
                yield hass
            finally:
                await hass.async_stop(force=True)


async def async_setup_http(hass: HomeAssistant) -> None:
    """The http component (media_player needs it) on a free loopback port, not 8123.

    A YAML http config is a trial that Home Assistant reverts (with a restart) unless it is
    confirmed within 5 minutes: confirm it, as a user whose frontend works would.
    """
    http = {"server_host": ["127.0.0.1"], "server_port": closed_port()}
    assert await async_setup_component(hass, "http", {"http": http})
    store = await async_get_and_load_store(hass)
    if store.pending is not None:
        await store.async_promote_pending()
