"""A turn does no blocking I/O in the event loop, with Home Assistant's loop protection on.

phacc leaves the protection off, and Home Assistant skips its file checks in tests; it turns all
of them on when it runs. There, anthropic SDK
0.125.0's `client.with_options()` reads its profile file (~/.config/anthropic/active_config),
which Home Assistant reported for every model call (found by the smoke test's log check).
"""

from __future__ import annotations

from homeassistant import block_async_io
from homeassistant.auth.models import User
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.util import loop as loop_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_BASE_URL
from testing.fake_anthropic import FakeAnthropic, Reply

from .chat import converse, speech
from .options_flow import open_assistant_step

pytestmark = pytest.mark.usefixtures("assistant")


@pytest.fixture
def loop_protection(disable_block_async_io: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Home Assistant's protection, as at run time; phacc's fixture takes it off afterwards.

    Under unittest Home Assistant leaves out the file checks (`_IN_TESTS`): keep them here.
    Home Assistant warns of a call site once per process, later only at debug level: each
    test starts with none reported, so a report in an earlier test cannot hide one here.
    """
    monkeypatch.setattr(block_async_io, "_IN_TESTS", False)
    monkeypatch.setattr(loop_util, "_PREVIOUSLY_REPORTED", set())
    block_async_io.enable()


@pytest.mark.usefixtures("loop_protection")
async def test_a_model_call_does_no_blocking_io_in_the_event_loop(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."))
    result = await converse(hass, "hello", hass_admin_user)
    assert speech(result) == "Hello."
    # The reports themselves fail the test (tests/conftest.py, testing/deprecations.py).


@pytest.mark.usefixtures("loop_protection")
async def test_setup_reconfigure_and_options_build_clients_off_the_loop(
    hass: HomeAssistant, assistant: MockConfigEntry, fake: FakeAnthropic
) -> None:
    """Each builds a client (the SDK reads its profile file then), always in the executor."""
    await hass.config_entries.async_reload(assistant.entry_id)  # a new client at setup
    await hass.async_block_till_done()
    assert assistant.state is ConfigEntryState.LOADED

    fake.api_keys.add("sk-next")  # reconfigure checks the key with a new client
    result = await assistant.start_reconfigure_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_KEY: "sk-next", CONF_BASE_URL: fake.base_url}
    )
    assert result["reason"] == "assistant_reconfigured"
    await hass.async_block_till_done()

    fake.revoke("sk-next")  # not loaded: the options list the models with a new client
    await hass.config_entries.async_reload(assistant.entry_id)
    await hass.async_block_till_done()
    assert assistant.state is ConfigEntryState.SETUP_ERROR
    result = await open_assistant_step(hass, assistant)
    assert result["step_id"] == "assistant"
    # The reports themselves fail the test (tests/conftest.py, testing/deprecations.py).
