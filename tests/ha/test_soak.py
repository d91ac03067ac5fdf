"""The short fault soak (bounded, about 15-30 s): testing/soak/rounds.py's rounds in a real HA.

Random emulator faults (dropped connections, half-open sockets, malformed and oversized
lines, slow responses, reboots, session-limit refusals, and as Linn firmware does them: BYEBYE
alone, bursts of metadata spanning lines, Metatext with bare ampersands) while HA actions
and guarded tools
through the Assist API run at random. Every command completes or raises within its bound;
the entity is unavailable within 5 s of a breaking fault and available, resynced, within
5 s of its end (each extended by the event loop's measured lag: on a loaded machine the loop
runs late); a malformed line never ends the session (a reply missed while the loop lagged
for half the 0.5 s reply timeout may: the session's correct answer to a late reply); every
tool call has its audit record; tasks and traced memory (less what the test harness itself
keeps) do not grow after the warm-up. The long soak is `scripts/bench --soak MINUTES`.
"""

from __future__ import annotations

import asyncio
import logging
import tracemalloc

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.linn as linn_init
from linn_emulator import LinnEmulator
from testing.ha.assist_api import assist_with_unlimited_guard
from testing.ha.streamers import ENTITY_ID
from testing.helpers import wait_for
from testing.soak import BREAKING, FAULTS, Soak, SoakSettings

ACTION_TIMEOUT = 0.5
ROUNDS = 2 * len(FAULTS)  # every fault twice
WARMUP = len(FAULTS)
AUDIT_RECORDS = 8
"""A short ring, full before the warm-up ends, so the audit log's growth is not counted."""
FRAMES = 16
MEMORY_SLACK = 128 * 1024
"""Over four rounds. Bounded buffers that are not full yet (60 s rate windows, the idempotency
cache of up to 1,000 outcomes) still grow during a 20 s soak, so this catches gross leaks
(48 KiB kept per reconnect fails it); the slope once they are full is the long soak's."""
TASK_SLACK = 1


@pytest.fixture(autouse=True)
def _fast_fault_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linn_init, "KEEPALIVE_INTERVAL", 0.3)
    monkeypatch.setattr(linn_init, "ACTION_TIMEOUT", ACTION_TIMEOUT)
    monkeypatch.setattr(linn_init, "RECONNECT_MAX", 0.5)


async def _soak(hass: HomeAssistant, user: User, emulator: LinnEmulator) -> Soak:
    api, guard = await assist_with_unlimited_guard(hass, user.id, audit_max_records=AUDIT_RECORDS)
    return Soak(
        hass,
        emulator,
        entity_id=ENTITY_ID,
        player="Living Room",
        api=api,
        guard=guard,
        seed=11,
        settings=SoakSettings(
            action_bound=ACTION_TIMEOUT + 2.5,
            tool_bound=7.0,
            slow_delay=ACTION_TIMEOUT / 2,
            reply_timeout=ACTION_TIMEOUT,
            hold=(0.2, 0.8),
        ),
    )


async def test_random_faults_while_actions_and_tools_run(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # asyncio debug mode records a traceback for every callback; the soak is about the
    # integration's behaviour, and the other tests keep the loop hygiene checks
    hass.loop.set_debug(False)
    soak = await _soak(hass, hass_admin_user, emulator)
    await wait_for(lambda: soak.available)
    # Warnings are expected by the dozen; pytest would keep every record (memory).
    caplog.set_level(logging.ERROR)
    soak.start()
    tracemalloc.start(FRAMES)
    try:
        for _ in range(WARMUP):
            await soak.round()
        await hass.async_block_till_done()
        tasks_after_warmup = len(asyncio.all_tasks())
        # Traced memory from the middle to the end must not grow: the warm-up fills every
        # bounded buffer (audit ring, rate windows, caches) first.
        for _ in range((ROUNDS - WARMUP) // 2):
            await soak.round()
        await hass.async_block_till_done()
        memory_mid = soak.sample_memory()
        for _ in range(ROUNDS - WARMUP - (ROUNDS - WARMUP) // 2):
            await soak.round()
        await hass.async_block_till_done()
        memory_end = soak.sample_memory()
    finally:
        tracemalloc.stop()
        await soak.stop()
    report = soak.report

    assert report.violations == [], report
    assert report.rounds == ROUNDS
    assert set(report.faults) == set(FAULTS), report.faults
    assert len(report.detect_s) == sum(report.faults[f] for f in BREAKING)
    assert len(report.recover_s) == ROUNDS
    assert report.outcomes["action completed"] > 0
    assert report.outcomes["tool allowed"] > 0
    assert report.outcomes["multiline_burst: the burst's last title shown"] > 0, report.outcomes
    assert report.outcomes["ampersand_flood: the burst's last title shown"] > 0, report.outcomes
    assert report.tool_calls == report.audit_records > 0
    assert max(n for _t, n in report.tasks[WARMUP:]) <= tasks_after_warmup + TASK_SLACK, (
        tasks_after_warmup,
        report.tasks,
    )
    assert memory_end - memory_mid < MEMORY_SLACK, (report.memory, soak.growth_since_last_sample())
