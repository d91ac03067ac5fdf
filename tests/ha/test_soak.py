"""A short fault soak: random emulator faults while HA actions run (bounded, about 15 s).

Every command completes or raises HomeAssistantError within its bound; connection faults make
the entity unavailable within 5 s and recovery brings it back, resynced, within 5 s; the task
count does not grow. The long soak (scripts/bench --soak) is not built yet.
"""

from __future__ import annotations

import asyncio
from collections import Counter
import random

from homeassistant.components.media_player import ATTR_MEDIA_VOLUME_LEVEL, DOMAIN as MP_DOMAIN
from homeassistant.const import ATTR_ENTITY_ID, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.linn as linn_init
from linn_emulator import LinnEmulator
from tests.helpers import wait_for

from .conftest import ENTITY_ID

ROUNDS = 12
COMMAND_BOUND = 3.0  # ACTION_TIMEOUT below, plus reconnect and HA overhead
BREAKING = ("drop", "half_open", "reboot")
HARMLESS = ("malformed", "oversized", "slow")


@pytest.fixture(autouse=True)
def _fast_fault_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linn_init, "KEEPALIVE_INTERVAL", 0.3)
    monkeypatch.setattr(linn_init, "ACTION_TIMEOUT", 0.5)
    monkeypatch.setattr(linn_init, "RECONNECT_MAX", 0.5)


def available(hass: HomeAssistant) -> bool:
    return hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE


async def command(hass: HomeAssistant, rng: random.Random, outcomes: Counter[str]) -> None:
    """One random action; it must finish or raise HomeAssistantError within the bound."""
    service, data = rng.choice(
        [
            ("volume_set", {ATTR_MEDIA_VOLUME_LEVEL: rng.randint(5, 60) / 100}),
            ("media_play", {}),
            ("media_pause", {}),
            ("volume_mute", {"is_volume_muted": rng.random() < 0.5}),
        ]
    )
    try:
        async with asyncio.timeout(COMMAND_BOUND):
            await hass.services.async_call(
                MP_DOMAIN, service, {ATTR_ENTITY_ID: ENTITY_ID, **data}, blocking=True
            )
    except HomeAssistantError:
        outcomes["raised"] += 1
    except TimeoutError:
        outcomes["hung"] += 1
    else:
        outcomes["completed"] += 1


async def test_random_faults_never_lose_or_hang_a_command(
    hass: HomeAssistant, emulator: LinnEmulator, loaded_entry: MockConfigEntry
) -> None:
    rng = random.Random(11)
    outcomes: Counter[str] = Counter()
    faults: Counter[str] = Counter()
    await wait_for(lambda: available(hass))
    tasks_before = len(asyncio.all_tasks())

    for _round in range(ROUNDS):
        fault = rng.choice(BREAKING + HARMLESS)
        faults[fault] += 1
        reboot: asyncio.Task[None] | None = None
        match fault:
            case "drop":
                emulator.faults.drop_connections()
            case "half_open":
                emulator.faults.half_open(True)
            case "reboot":
                reboot = asyncio.create_task(emulator.faults.reboot(downtime=0.5))
            case "malformed":
                emulator.faults.send_raw(b'EVENT 99 "unterminated\r\n')
            case "oversized":
                emulator.faults.send_oversized(2 * 1024 * 1024)
            case "slow":
                emulator.faults.response_delay = 0.2
        await asyncio.gather(*(command(hass, rng, outcomes) for _ in range(3)))
        if fault in ("drop", "half_open", "reboot"):
            await wait_for(lambda: not available(hass), timeout=5)
        emulator.faults.half_open(False)
        emulator.faults.response_delay = 0.0
        if reboot is not None:
            await reboot
        # Recovery: back within 5 s, showing a change made while it was away or just now.
        emulator.panel.set_volume(rng.randint(1, 70))
        await wait_for(lambda: available(hass), timeout=5)
        await wait_for(
            lambda: (
                hass.states.get(ENTITY_ID).attributes.get(ATTR_MEDIA_VOLUME_LEVEL)
                == emulator.state.volume / emulator.state.volume_max
            ),
            timeout=5,
        )

    assert outcomes["hung"] == 0, outcomes
    assert sum(outcomes.values()) == 3 * ROUNDS
    assert outcomes["completed"] > 0
    await hass.async_block_till_done()
    assert len(asyncio.all_tasks()) <= tasks_before + 2, (faults, outcomes)
