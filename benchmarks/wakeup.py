"""The CPU of a bare event-loop wake-up on this machine (issue 31): no Home Assistant, no LPEC.

    python -m benchmarks.wakeup [--rate 50] [--batch 1] [--seconds 20]

Another process writes `batch` short LPEC event lines every 1/rate s into a socket; this
process only reads them (asyncio StreamReader.readline, as the integration read LPEC until
1e9acfc) and reports its own CPU (process_time: user and system) per line. With one line
per wake-up this is what any pushed event costs before any parsing or state write.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from benchmarks.line_sender import start_sender, stop_sender


async def measure(rate: float, batch: int, seconds: float) -> dict[str, float]:
    """CPU ms per line read, lines read and the 1-minute load average at the end."""
    sender, (ours,) = start_sender(rate, batch, 1)
    reader, writer = await asyncio.open_connection(sock=ours)
    lines = 0

    async def read() -> None:
        nonlocal lines
        while await reader.readline():
            lines += 1

    task = asyncio.create_task(read())
    await asyncio.sleep(1)
    first, cpu = lines, time.process_time()
    await asyncio.sleep(seconds)
    read_lines, cpu = lines - first, time.process_time() - cpu
    stop_sender(sender)
    task.cancel()
    writer.close()
    return {
        "rate": rate,
        "batch": batch,
        "lines": read_lines,
        "cpu_ms_per_line": cpu * 1000 / max(1, read_lines),
        "loadavg_end": os.getloadavg()[0],
    }


def main() -> None:
    """Print the figure of each batch size asked for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rate", type=float, default=50.0, help="wake-ups per second")
    parser.add_argument("--batch", type=int, nargs="+", default=[1], help="lines per wake-up")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    for batch in args.batch:
        print(asyncio.run(measure(args.rate, batch, args.seconds)))


if __name__ == "__main__":
    main()
