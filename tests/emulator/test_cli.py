"""The command line: several devices, printed addresses, clean stop on SIGINT."""

from __future__ import annotations

import asyncio
import signal
import sys

from custom_components.linn.lpec.codec import Alive, parse_device_line
from linn_emulator.__main__ import parse_args
from linn_emulator.quirks import DOCUMENTED, OHNET, Quirk


async def test_cli_runs_two_devices_and_stops_on_sigint() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "linn_emulator",
        "--port",
        "0",
        "--count",
        "2",
        "--without",
        "Volume",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        devices: list[tuple[str, int, str]] = []
        for _ in range(2):
            line = (await asyncio.wait_for(process.stdout.readline(), 10)).decode()
            address, udn, _room = line.split(" ", 2)
            host, port_text = address.rsplit(":", 1)
            devices.append((host, int(port_text), udn))
        assert devices[0][2] != devices[1][2]
        for host, port, udn in devices:
            reader, writer = await asyncio.open_connection(host, port)
            assert parse_device_line((await reader.readline()).decode()) == Alive("Ds", udn)
            writer.write(b'\r\nACTION Ds/Volume 4 SetVolume "1"\r\n')
            await reader.readline()
            assert (await reader.readline()).startswith(b"ERROR 103 ")
            writer.close()
        process.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(process.wait(), 10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_quirks_option_takes_a_mode_or_a_list() -> None:
    assert parse_args([]).quirks == OHNET
    assert parse_args(["--quirks", "documented"]).quirks == DOCUMENTED
    assert parse_args(["--quirks", "byebye_only, raw_error_text"]).quirks == {
        Quirk.BYEBYE_ONLY,
        Quirk.RAW_ERROR_TEXT,
    }
