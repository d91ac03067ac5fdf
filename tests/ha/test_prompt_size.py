"""Prompt size per task: our agent against Home Assistant's own Claude agent (issue 10).

A small version of `scripts/bench prompt`: the same home (40 other exposed entities), the
same two players and the same tasks through both agents, both on the fake Messages API. It
fails when our requests for a task grow past half the bytes of theirs, or when our agent
fails a task theirs completes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from linn_emulator import LinnEmulator
from tests.fake_anthropic import FakeAnthropic
from tests.promptcmp.harness import (
    OURS,
    THEIRS,
    Comparison,
    async_setup_comparison,
    async_unload_all,
)
from tests.promptcmp.home import OTHER_ENTITY_COUNT
from tests.promptcmp.tasks import KITCHEN, LIVING, SMALL, TASKS

from .conftest import OTHER_UDN

API_KEY = "sk-ant-promptcmp"
GOAL = 0.5
"""Ours / theirs, request bytes per task (issue 10)."""


@pytest.fixture
async def kitchen() -> AsyncIterator[LinnEmulator]:
    """A second streamer, in the kitchen."""
    async with LinnEmulator(port=0, udn=OTHER_UDN, room=KITCHEN, tick_interval=0.05) as emu:
        yield emu


@pytest.fixture
async def comparison(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    kitchen: LinnEmulator,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Comparison]:
    """Both agents set up on one Home Assistant, core anthropic through ANTHROPIC_BASE_URL."""
    async with FakeAnthropic(api_key=API_KEY) as fake:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        players = {LIVING: emulator, KITCHEN: kitchen}
        yield await async_setup_comparison(hass, fake, players, hass_admin_user.id, API_KEY)
        await async_unload_all(hass)


async def test_our_requests_are_at_most_half_of_theirs_with_equal_success(
    comparison: Comparison,
) -> None:
    assert len(comparison.home_entities) == OTHER_ENTITY_COUNT >= 40
    for task in (task for task in TASKS if task.id in SMALL):
        theirs = await comparison.run(THEIRS, task)
        ours = await comparison.run(OURS, task)
        # Core anthropic really ran with the Assist API, the home in its prompt.
        assert "homeassistant__GetLiveContext" in theirs["offered_tools"]
        assert "Living Room Thermostat" in theirs["system_prompt"]
        assert theirs["success"], theirs
        assert ours["success"], ours
        assert ours["model_calls"] == theirs["model_calls"]
        ratio = ours["request_bytes"] / theirs["request_bytes"]
        assert ratio <= GOAL, f"{task.id}: ours / theirs = {ratio:.2f} of the request bytes"
