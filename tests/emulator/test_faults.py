"""Faults: drops, a hung device, garbage, oversized lines, delays, reboots, revocations."""

from __future__ import annotations

import asyncio
import time

from custom_components.linn.lpec.codec import (
    Alive,
    ByeBye,
    Response,
    Unsubscribed,
    parse_device_line,
)
from linn_emulator import LinnEmulator, PlaybackState
from testing.helpers import wait_for

from .client import Client, Connect


async def test_drop_connections(emu: LinnEmulator, connect: Connect) -> None:
    one = await connect()
    two = await connect()
    await one.subscribe("Ds/Volume")
    await wait_for(lambda: emu.sessions == 2)
    emu.faults.drop_connections()
    await one.closed()
    await two.closed()
    await wait_for(lambda: emu.sessions == 0)
    assert emu.subscriptions == 0
    again = await connect()
    assert await again.action("Ds/Product", "Standby") == Response(("false",))


async def test_half_open(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, _ = await client.subscribe("Ds/Volume")
    emu.faults.half_open(True)
    assert emu.faults.hung
    emu.panel.set_volume(7)  # the event is lost
    await client.send('ACTION Ds/Volume 4 SetVolume "9"')
    await client.silent(0.2)
    assert emu.state.volume == 7  # not read yet
    late = await Client.connect(emu.port, alive=False)
    await late.silent(0.1)  # hung devices announce nothing
    emu.faults.half_open(False)
    # the queued action runs on resume
    event = await client.event(sub)
    assert event.variables == {"Volume": "9"}
    assert await client.reply() == Response(())
    assert isinstance(await late.message(), Alive)
    await late.close()


async def test_send_raw(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    emu.faults.send_raw("GARBAGE 1 2 3")
    emu.faults.send_raw(b'EVENT 1 "unterminated\r\n')
    emu.faults.send_raw(b"\x00\xff\xfe\n")
    assert await client.line() == "GARBAGE 1 2 3\r\n"
    assert await client.line() == 'EVENT 1 "unterminated\r\n'
    assert await client.raw_line() == b"\x00\xff\xfe\n"
    assert await client.action("Ds/Product", "Standby") == Response(("false",))


async def test_send_oversized(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    size = 2 * 1024 * 1024
    emu.faults.send_oversized(size)
    received = 0
    async with asyncio.timeout(5):
        while received < size:
            chunk = await client.reader.read(65536)
            assert chunk
            assert b"\n" not in chunk
            received += len(chunk)
    assert received == size
    await client.silent(0.05)


async def test_response_delay(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, _ = await client.subscribe("Ds/Volume")
    emu.faults.response_delay = 0.3
    start = time.monotonic()
    await client.send('ACTION Ds/Volume 4 SetVolume "15"')
    event = await client.message()  # the event is not delayed
    assert getattr(event, "subscription_id", None) == sub
    assert time.monotonic() - start < 0.25
    assert await client.reply() == Response(())
    assert time.monotonic() - start >= 0.3
    error = await client.error("ACTION Ds/Product 4 Nope")
    assert error.code == 501


async def test_reboot(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    await client.subscribe("Ds/Volume")
    emu.panel.play()
    assert emu.state.transport_state is PlaybackState.PLAYING
    reboot = asyncio.create_task(emu.faults.reboot(downtime=0.3))
    assert await client.message() == ByeBye("Ds", emu.udn)
    bye = await client.message()
    assert isinstance(bye, ByeBye)
    assert bye.device == "MediaRenderer"
    await client.closed()
    await asyncio.sleep(0.1)
    refused = False
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", emu.port)
    except OSError:
        refused = True
    else:
        writer.close()
    assert refused
    await reboot
    back = await connect(alive=False)
    assert parse_device_line(await back.line()) == Alive("Ds", emu.udn)
    assert isinstance(parse_device_line(await back.line()), Alive)
    assert emu.state.transport_state is PlaybackState.STOPPED
    assert emu.subscriptions == 0


async def test_revoke_subscriptions(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    volume, _ = await client.subscribe("Ds/Volume")
    product, _ = await client.subscribe("Ds/Product")
    emu.faults.revoke_subscriptions("Volume", realive_after=0.1)
    assert await client.message() == Unsubscribed(volume)
    assert await client.message() == ByeBye("Ds", emu.udn)
    assert await client.message() == Alive("Ds", emu.udn)
    assert emu.subscriptions == 1
    emu.panel.set_standby(True)
    assert (await client.event(product)).variables["Standby"] == "true"
    emu.faults.revoke_subscriptions(realive_after=0.05)
    assert await client.message() == Unsubscribed(product)
    assert await client.message() == ByeBye("Ds", emu.udn)
    assert await client.message() == Alive("Ds", emu.udn)
    assert emu.subscriptions == 0


async def test_client_that_stops_reading_is_dropped(emu: LinnEmulator, connect: Connect) -> None:
    for _ in range(2):
        await connect()  # neither client reads from here on
    await wait_for(lambda: emu.sessions == 2)
    chunk = b"x" * (1024 * 1024) + b"\r\n"
    for _ in range(40):  # 40 MiB never read: more than socket buffers and the 16 MiB cap
        emu.faults.send_raw(chunk)
        await asyncio.sleep(0)
    await wait_for(lambda: emu.sessions == 0, timeout=5)
    fresh = await connect()
    assert await fresh.action("Ds/Product", "Standby") == Response(("false",))


async def test_stop_during_reboot_stays_stopped() -> None:
    emu = LinnEmulator()
    await emu.start()
    port = emu.port
    reboot = asyncio.create_task(emu.faults.reboot(downtime=0.2))
    await asyncio.sleep(0.05)
    await emu.stop()
    await reboot
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        pass
    else:
        writer.close()
        raise AssertionError("listening after stop()")
    await emu.start()  # and it can start again
    client = await Client.connect(emu.port)
    assert emu.port == port
    await client.close()
    await emu.stop()


async def test_drop_connections_includes_waiting_ones() -> None:
    async with LinnEmulator(max_sessions=1) as emu:
        first = await Client.connect(emu.port)
        waiting = await Client.connect(emu.port, alive=False)
        await wait_for(lambda: emu.waiting_connections == 1)
        emu.faults.drop_connections()
        await first.closed()
        await waiting.closed()
        await wait_for(lambda: emu.sessions == 0 and emu.waiting_connections == 0)
        await first.close()
        await waiting.close()


async def test_session_limit_holds_new_connections_until_released(
    emu: LinnEmulator, connect: Connect
) -> None:
    open_one = await connect()
    emu.faults.session_limit(True)
    assert emu.faults.at_session_limit
    waiting = await Client.connect(emu.port, alive=False)
    await wait_for(lambda: emu.waiting_connections == 1)
    await waiting.silent(0.1)  # no ALIVE while every slot is taken
    # the session that was open keeps working
    assert await open_one.action("Ds/Product", "Standby") == Response(("false",))
    emu.faults.session_limit(False)
    assert not emu.faults.at_session_limit
    assert isinstance(await waiting.message(), Alive)
    await wait_for(lambda: emu.sessions == 2)
    await waiting.close()
