"""Home Assistant's floor for a pushed event (issue 31): bare entities fed over sockets.

The minimal media player entity of `sides.ha_floor`, one per streamer, each fed by another
process over a socket of its own at the streamers' rate and in their tick, read with a plain asyncio
StreamReader, one `async_write_ha_state` per line: what any push integration pays per event
on this machine (the wake-up, the read, the state write) before parsing a protocol or
keeping a model. Process CPU per line, with the same run's idle CPU subtracted, as
`sides.measure_loaded` computes ours.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

from benchmarks.line_sender import start_sender, stop_sender


async def push_floor(
    entities: list[Any], rate: float, seconds: float, idle_cpu_s_per_minute: float
) -> dict[str, Any]:
    """CPU ms per pushed line for `entities` (added, each with a `set_volume(level)`).

    `idle_cpu_s_per_minute`: this process's CPU at rest in the same run, subtracted.
    """
    sender, sockets = start_sender(rate, 1, len(entities))
    lines = 0

    async def feed(ours: socket.socket, entity: Any) -> None:
        nonlocal lines
        reader, writer = await asyncio.open_connection(sock=ours)
        try:
            while line := await reader.readline():
                entity.set_volume(int(line.rsplit(b'"', 2)[1]) / 100)
                entity.async_write_ha_state()
                lines += 1
        finally:
            writer.close()

    tasks = [
        asyncio.create_task(feed(ours, entity))
        for ours, entity in zip(sockets, entities, strict=True)
    ]
    try:
        await asyncio.sleep(1)  # every socket connected and sending
        first, cpu, wall = lines, time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        read, cpu, wall = lines - first, time.process_time() - cpu, time.perf_counter() - wall
    finally:
        stop_sender(sender)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    per_second = read / wall
    return {
        "entities": len(entities),
        "lines": read,
        "lines_per_s": per_second,
        "cpu_s_per_minute": cpu * 60 / wall,
        "cpu_ms_per_event": (cpu * 60 / wall - idle_cpu_s_per_minute) * 1000 / (60 * per_second),
    }
