"""A turn does no blocking I/O in the event loop, with Home Assistant's loop protection on.

phacc leaves the protection off, and Home Assistant skips its file checks in tests; it turns all
of them on when it runs. There, anthropic SDK
0.125.0's `client.with_options()` reads its profile file (~/.config/anthropic/active_config),
which Home Assistant reported for every model call (found by the smoke test's log check).
"""

from __future__ import annotations

from homeassistant import block_async_io
from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from tests.fake_anthropic import FakeAnthropic, Reply

from .conftest import converse, speech

pytestmark = pytest.mark.usefixtures("assistant")


@pytest.fixture
def loop_protection(disable_block_async_io: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Home Assistant's protection, as at run time; phacc's fixture takes it off afterwards.

    Under unittest Home Assistant leaves out the file checks (`_IN_TESTS`): keep them here.
    """
    monkeypatch.setattr(block_async_io, "_IN_TESTS", False)
    block_async_io.enable()


@pytest.mark.usefixtures("loop_protection")
async def test_a_model_call_does_no_blocking_io_in_the_event_loop(
    hass: HomeAssistant, hass_admin_user: User, fake: FakeAnthropic
) -> None:
    fake.script(Reply("Hello."))
    result = await converse(hass, "hello", hass_admin_user)
    assert speech(result) == "Hello."
    # The reports themselves fail the test (tests/conftest.py, tests/deprecations.py).
