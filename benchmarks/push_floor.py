"""Home Assistant's floor for a pushed event (issue 31): bare entities fed over sockets.

The minimal media player entity of `sides.ha_floor`, one per streamer, each fed by another
process over a socket of its own at the streamers' rate and in their tick, read by a plain
asyncio.Protocol (as the integration reads LPEC since 1e9acfc: no task wake-up), one
`async_write_ha_state` per line in `data_received`: what any push integration pays per event
on this machine (the wake-up, the read, the state write) before parsing a protocol or
keeping a model. Process CPU per line, with the same run's idle CPU subtracted, as
`sides.measure_loaded` computes ours.
"""

from __future__ import annotations

import asyncio
from functools import partial
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

    class Lines(asyncio.Protocol):
        """Each complete line: set the volume and write the state, in data_received itself."""

        def __init__(self, entity: Any) -> None:
            self.entity = entity
            self.partial = b""

        def data_received(self, data: bytes) -> None:
            nonlocal lines
            *complete, self.partial = (self.partial + data).split(b"\n")
            for line in complete:
                self.entity.set_volume(int(line.rsplit(b'"', 2)[1]) / 100)
                self.entity.async_write_ha_state()
                lines += 1

    loop = asyncio.get_running_loop()
    transports = []
    for ours, entity in zip(sockets, entities, strict=True):
        transport, _protocol = await loop.create_connection(partial(Lines, entity), sock=ours)
        transports.append(transport)
    try:
        await asyncio.sleep(1)  # every socket connected and sending
        first, cpu, wall = lines, time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        read, cpu, wall = lines - first, time.process_time() - cpu, time.perf_counter() - wall
    finally:
        stop_sender(sender)
        for transport in transports:
            transport.close()
    per_second = read / wall
    return {
        "entities": len(entities),
        "lines": read,
        "lines_per_s": per_second,
        "cpu_s_per_minute": cpu * 60 / wall,
        "cpu_ms_per_event": (cpu * 60 / wall - idle_cpu_s_per_minute) * 1000 / (60 * per_second),
    }
