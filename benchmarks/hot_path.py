"""Our code's CPU per pushed event without the wake-up, against a bare state write (issue 31).

The scale benchmark's CPU per event holds what this VM charges for waking an idle event loop
(0.1-0.3 ms at one streamer, more than ten bare state writes). This measures the part that is
our code: volume EVENT lines fed straight to a connected streamer's receiver (as if its socket
had just been read), each followed by one turn of the event loop, in which the state write it
scheduled runs. The floor is measured in the same harness: a minimal media player entity
(`sides.floor_entities`, our attributes) whose volume is set and state written, then the same
one loop turn. Thread CPU, so nothing else in the process is counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import time
from typing import Any

from benchmarks.sides import floor_entities


async def _thread_cpu_per_step(step: Callable[[int], Awaitable[None]], steps: int) -> float:
    """Mean thread CPU of `step(i)` in microseconds (a warm-up of a tenth first, not counted)."""
    for index in range(steps // 10):
        await step(index)
    total = 0.0
    for index in range(steps):
        start = time.thread_time()
        await step(index)
        total += time.thread_time() - start
    return total / steps * 1e6


async def hot_path(hass: Any, entry: Any, entity_id: str, events: int = 4000) -> dict[str, Any]:
    """Our CPU per volume event (µs), a bare write's in the same harness, and their ratio."""
    from pytest_homeassistant_custom_component.common import (  # noqa: PLC0415
        MockEntityPlatform,
    )

    # No public way in: the receiver is what the socket's bytes are handed to.
    connection = entry.runtime_data._session._conn  # noqa: SLF001
    receiver = connection._receiver  # noqa: SLF001
    volume = next(sid for sid, path in connection.subscriptions.items() if path.endswith("Volume"))
    sequence = 10**6  # above any the emulator has sent

    async def ours(index: int) -> None:
        line = f'EVENT {volume} {sequence + index} Volume "{20 + index % 40}"\n'
        receiver.data_received(line.encode())
        await asyncio.sleep(0)  # the write it scheduled runs in this turn

    written_before = hass.states.get(entity_id).last_updated
    ours_us = await _thread_cpu_per_step(ours, events)
    if hass.states.get(entity_id).last_updated == written_before:
        raise RuntimeError("the fed events wrote no state: not measuring our path")

    floor = floor_entities(hass.states.get(entity_id), 1)[0]
    platform = MockEntityPlatform(hass, domain="media_player", platform_name="bench_hot_floor")
    await platform.async_add_entities([floor])

    async def bare(index: int) -> None:
        floor.set_volume((20 + index % 40) / 100)
        floor.async_write_ha_state()
        await asyncio.sleep(0)

    try:
        floor_us = await _thread_cpu_per_step(bare, events)
    finally:
        await platform.async_reset()
    return {
        "events": events,
        "cpu_us_per_event": ours_us,
        "floor_cpu_us_per_write": floor_us,
        "vs_floor": ours_us / floor_us,
    }
