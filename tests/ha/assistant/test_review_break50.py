"""Break-it review 50 (branch break50): quiet hours, a jump split into steps.

Each test asserts the safe outcome. One broke and is fixed: at 3 a.m. a model split one
jump into steps of 20 in one turn ("a bit louder": 10 -> 30 -> 50 -> 60), each step no
jump from the volume before it (guard/steps.py now measures a jump from the lowest volume
the turn's changes saw).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import homeassistant.util.dt as dt_util
import pytest

from custom_components.linn.agent.const import DEFAULT_OPTIONS
from custom_components.linn.guard import Outcome
from custom_components.linn.tools.guard_options import OPT_QUIET_END, OPT_QUIET_START
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse, planned, planned_change
from testing.helpers import wait_for

from .audit_views import outcomes_of
from .chat import PLAYER, converse, panel_volume

pytestmark = pytest.mark.usefixtures("assistant")

LOUDER = "a bit louder"


@pytest.fixture
def assistant_options(hass: HomeAssistant) -> dict[str, Any]:
    """The assistant's quiet hours hold now (an hour either side, in Home Assistant's zone)."""
    now = dt_util.now()
    return dict(DEFAULT_OPTIONS) | {
        OPT_QUIET_START: (now - timedelta(hours=1)).strftime("%H:%M:%S"),
        OPT_QUIET_END: (now + timedelta(hours=1)).strftime("%H:%M:%S"),
    }


def _step(change: int) -> ToolUse:
    return ToolUse("linn__change_volume", {"player": PLAYER, "change": change})


async def test_steps_of_twenty_in_quiet_hours_stop_after_the_first(
    hass: HomeAssistant, hass_admin_user: User, emulator: LinnEmulator, fake: FakeAnthropic
) -> None:
    """BROKE, fixed: "a bit louder" in quiet hours, planned as up; the model steps +20, +15
    and +3 in one turn. Before: 10 -> 30 -> 45 -> 48, all run (each step measured from the
    volume before it: quiet hours alone, one signal; 48 is the soft limit, 60 % of the
    emulator's 80). Now the first step runs and the second is a jump of 35 from the turn's
    10 in quiet hours, two signals: refused (the user said no level to ask about)."""
    await panel_volume(hass, emulator, 10)
    fake.plan(planned(planned_change("volume", volume="up")))
    fake.script(
        Reply(tool_uses=(_step(20),)),
        Reply(tool_uses=(_step(15),)),
        Reply(tool_uses=(_step(3),)),
        Reply("Turned it up."),
    )
    await converse(hass, LOUDER, hass_admin_user, "night")
    await hass.async_block_till_done()
    assert outcomes_of(hass, "change_volume") == [
        Outcome.ALLOWED,
        Outcome.DENIED,
        Outcome.DENIED,
    ]
    await wait_for(lambda: emulator.state.volume == 30)
