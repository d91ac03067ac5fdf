"""Session behaviour: ALIVE, the first command, line handling and length, the session cap."""

from __future__ import annotations

import asyncio
import random

import pytest

from custom_components.linn.lpec.codec import Alive, Error, Response, parse_device_line
from linn_emulator import OHNET, LinnEmulator, Quirk
from testing.helpers import wait_for

from .client import Client, Connect


async def test_alive_on_connect(emu: LinnEmulator) -> None:
    client = await Client.connect(emu.port, alive=False, workaround=False)
    first = parse_device_line(await client.line())
    second = parse_device_line(await client.line())
    assert first == Alive("Ds", emu.udn)
    assert isinstance(second, Alive)
    assert second.device == "MediaRenderer"
    assert emu.udn.startswith("4c494e4e-")
    assert len(emu.udn) == 36
    await client.silent(0.1)
    await client.close()


async def test_udns_distinct_and_stable() -> None:
    one, two = LinnEmulator(), LinnEmulator()
    assert one.udn != two.udn
    assert LinnEmulator(udn="4c494e4e-0050-c221-71e5-df000003013f").udn == (
        "4c494e4e-0050-c221-71e5-df000003013f"
    )


async def test_first_command_answered_as_ohnet_does(emu: LinnEmulator, connect: Connect) -> None:
    """ohNet has no first-command bug: no blank line needed (quirk no_first_command_error)."""
    client = await connect(workaround=False)
    assert await client.action("Ds/Volume", "SetVolume", "20") == Response(())
    assert emu.state.volume == 20


async def test_first_command_bug_of_the_wiki(emu: LinnEmulator, connect: Connect) -> None:
    emu.quirks = OHNET - {Quirk.NO_FIRST_COMMAND_ERROR}
    client = await connect(workaround=False)
    await client.send('ACTION Ds/Volume 4 SetVolume "20"')
    reply = await client.reply()
    assert reply == Error(101, "Command not recognised")
    assert emu.state.volume == 30  # not executed
    assert emu.actions == []
    # the next command works
    assert await client.action("Ds/Volume", "SetVolume", "20") == Response(())
    assert emu.state.volume == 20


async def test_blank_line_avoids_quirk(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect(workaround=True)
    assert await client.action("Ds/Product", "Standby") == Response(("false",))
    assert len(emu.actions) == 1
    assert emu.actions[0].action == "Standby"


async def test_lf_and_case_insensitive_keywords(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    client.writer.write(b"\n\naction Ds/Product 4 Model\n")
    reply = await client.reply()
    assert isinstance(reply, Response)
    assert reply.values[0] == "Selekt DSM"
    client.writer.write(b"   \r\nSubScribe Ds/Time\n")
    ack = await client.reply()
    assert ack.__class__.__name__ == "Subscribed"


async def test_malformed_lines_get_errors(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    assert (await client.error("HELLO")).code == 101
    assert (await client.error('ACTION Ds/Product 4 "unterminated')).code == 101
    assert (await client.error("ACTION")).code == 102
    assert (await client.error("ACTION Ds/Product")).code == 105
    assert (await client.error("ACTION Ds/Product x Standby")).code == 104
    assert (await client.error("ACTION Ds/Product 4")).code == 107
    assert (await client.error("ACTION Ds/Volume 4 SetVolume 20")).code == 302
    client.writer.write(b"ACTION Ds/Product 4 \xff\xfe\r\n")
    assert (await client.reply()).__class__ is Error
    # still alive and well
    assert await client.action("Ds/Product", "Standby") == Response(("false",))


async def test_huge_line_closes_session(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    await wait_for(lambda: emu.sessions == 1)
    client.writer.write(b"A" * (1024 * 1024 + 100))
    await client.closed()
    await wait_for(lambda: emu.sessions == 0)
    # the server keeps serving
    other = await connect()
    assert await other.action("Ds/Product", "Standby") == Response(("false",))


def padded(size: int) -> bytes:
    """An Insert request of exactly `size` bytes, its CRLF included."""
    head = b'ACTION Ds/Playlist 1 Insert "0" "http://a/b.flac" "'
    return head + b"x" * (size - len(head) - 3) + b'"\r\n'


async def test_a_request_as_long_as_ohnet_reads_is_answered(
    emu: LinnEmulator, connect: Connect
) -> None:
    """ohNet reads a request into 12000 bytes (ReaderUntilS<kMaxReadBytes>), its LF included."""
    client = await connect()
    client.writer.write(padded(12000))
    reply = await client.reply()
    assert isinstance(reply, Response), reply
    read = await client.action("Ds/Playlist", "Read", reply.values[0])
    assert read.values == ("http://a/b.flac", "x" * (12000 - len(padded(0))))


async def test_a_longer_request_ends_the_session_unanswered(
    emu: LinnEmulator, connect: Connect
) -> None:
    """One byte more: ReaderError, the session ends (DviSessionLpec::Run), nothing runs."""
    client = await connect()
    client.writer.write(padded(12001))
    with pytest.raises(EOFError):
        await client.raw_message()
    assert emu.actions == []
    await wait_for(lambda: emu.sessions == 0)


async def test_session_cap(emu: LinnEmulator) -> None:
    clients = [await Client.connect(emu.port) for _ in range(4)]
    await wait_for(lambda: emu.sessions == 4)
    fifth = await Client.connect(emu.port, alive=False, workaround=False)
    await wait_for(lambda: emu.waiting_connections == 1)
    await fifth.send("")
    await fifth.send("ACTION Ds/Product 4 Standby")
    await fifth.silent(0.2)  # no ALIVE, no reply
    await clients[0].close()
    # a slot frees: ALIVE then the queued command is answered
    assert isinstance(await fifth.message(), Alive)
    assert isinstance(await fifth.message(), Alive)
    assert await fifth.reply() == Response(("false",))
    assert emu.sessions == 4
    for client in [*clients[1:], fifth]:
        await client.close()
    await wait_for(lambda: emu.sessions == 0)


async def test_closed_sessions_cleaned_up(emu: LinnEmulator) -> None:
    clients = [await Client.connect(emu.port) for _ in range(3)]
    for client in clients:
        await client.subscribe("Ds/Volume")
    await wait_for(lambda: emu.subscriptions == 3)
    for client in clients:
        await client.close()
    await wait_for(lambda: emu.sessions == 0)
    assert emu.subscriptions == 0
    emu.panel.set_volume(10)  # publishing to nobody is fine


async def test_stop_closes_everything() -> None:
    emu = LinnEmulator(tick_interval=0.01)
    await emu.start()
    client = await Client.connect(emu.port)
    await client.subscribe("Ds/Time")
    emu.panel.play()
    pending = await Client.connect(emu.port, alive=False)
    await emu.stop()
    await client.closed()
    await pending.closed()
    await client.close()
    await pending.close()
    await emu.stop()  # idempotent
    await asyncio.sleep(0)


async def test_pipelined_actions_answered_in_order(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    emu.faults.response_delay = 0.05
    client.writer.write(
        b'ACTION Ds/Volume 4 SetVolume "10"\r\n'
        b"ACTION Ds/Volume 4 Volume\r\n"
        b"ACTION Ds/Product 4 Nope\r\n"
        b"ACTION Ds/Product 4 SourceIndex\r\n"
    )
    assert await client.reply() == Response(())
    assert await client.reply() == Response(("10",))
    assert (await client.reply()) == Error(501, "Action not implemented")
    assert await client.reply() == Response(("0",))
    assert [a.action for a in emu.actions] == ["SetVolume", "Volume", "Nope", "SourceIndex"]


async def test_event_sequence_wraps_to_one(emu: LinnEmulator, connect: Connect) -> None:
    client = await connect()
    sub, _ = await client.subscribe("Ds/Volume")
    subscription = emu._server.sessions[0].subscriptions[sub]
    subscription.sequence = 2**32 - 1
    emu.panel.set_volume(3)
    assert (await client.event(sub)).sequence == 1


async def test_fuzzed_lines_never_break_the_server(emu: LinnEmulator, connect: Connect) -> None:
    rng = random.Random(1234)
    pieces = [
        b"ACTION",
        b"SUBSCRIBE",
        b"UNSUBSCRIBE",
        b"Ds/Playlist",
        b"Ds/Pins",
        b"MediaRenderer/AVTransport",
        b"4",
        b"-1",
        b"99999999999",
        b'"',
        b'"x"',
        b'"&amp;&#0;&#xD800;"',
        b"Insert",
        b"ReadList",
        b"InvokeId",
        b"SeekId",
        b"\x00",
        b"\xff",
        b"\t",
        b"\\",
        b"\r",
    ]
    client = await connect()
    lines = [b" ".join(rng.choices(pieces, k=rng.randint(1, 7))) for _ in range(2000)]
    client.writer.write(b"\r\n".join(lines) + b"\r\n")
    client.writer.write(b"ACTION Ds/Product 4 Attributes\r\n")
    async with asyncio.timeout(5):
        while True:
            line = await client.line()
            assert not line.startswith("ERROR 108"), line  # no internal failure
            if line.startswith('RESPONSE "Info Time Volume Sender Pins Receiver"'):
                break
    other = await connect()
    assert await other.action("Ds/Product", "Standby") == Response(("false",))
