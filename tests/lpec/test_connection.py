"""LpecConnection: the greeting, resets, the command slot and its listener contract."""

from __future__ import annotations

import asyncio
import logging

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecConnectionError,
    LpecSession,
    LpecTimeoutError,
)
from custom_components.linn.lpec.codec import Event, Response, format_action
from custom_components.linn.lpec.connection import CommandNotSentError, LpecConnection
from custom_components.linn.lpec.framing import MAX_MESSAGE_BYTES
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, GREETING, PEER_UDN, ScriptedPeer, Serve, serving
from tests.lpec.session_helpers import Quiet


class Listener:
    """A ConnectionListener that records what the connection reports."""

    def __init__(self) -> None:
        self.closed: list[LpecConnectionError] = []
        self.alive: list[str] = []
        self.revoked: list[str] = []
        self.handled: list[str] = []
        """ALIVE's device names and "read done", in the order reported."""

    def on_alive(self, device: str, udn: str) -> None:
        self.alive.append(device)
        self.handled.append(device)

    def on_byebye(self, device: str, udn: str) -> None:
        """Nothing to record."""

    def on_event(self, path: str, event: Event) -> None:
        """Nothing to record."""

    def on_revoked(self, path: str) -> None:
        self.revoked.append(path)

    def on_closed(self, error: LpecConnectionError) -> None:
        self.closed.append(error)

    def on_read_done(self) -> None:
        self.handled.append("read done")


def deadline(seconds: float) -> float:
    return asyncio.get_running_loop().time() + seconds


STANDBY = format_action("Ds/Product", 1, "Standby")


# --- before ALIVE -----------------------------------------------------------------


async def test_noise_before_alive_is_skipped() -> None:
    """Garbage, blank lines and other messages before ALIVE Ds do not stop the open."""
    greeting = (
        b'EVENT 1 garbage\r\n\r\nERROR 101 "Command not recognised"\r\n'
        b"ALIVE MediaRenderer x\r\n" + GREETING
    )
    async with ScriptedPeer(
        lambda line: "RESPONSE\r\n" if line else None, greeting=greeting
    ) as peer:
        listener = Listener()
        async with asyncio.timeout(2):
            conn = await LpecConnection.open("127.0.0.1", peer.port, listener)
            try:
                assert conn.alive["Ds"] == PEER_UDN
                assert await conn.request(STANDBY, Response, deadline(1)) == Response(())
                # ALIVE lines after the Ds one reach the reader (and the listener).
                assert conn.alive["MediaRenderer"] == f"{PEER_UDN}-mr"
                assert listener.alive == ["MediaRenderer"]
            finally:
                await conn.close()
        assert len(listener.closed) == 1


async def test_a_broken_quote_before_alive_fails_the_open() -> None:
    """Nothing after an unterminated quote can be trusted (a new session is the way out)."""
    greeting = b'EVENT 1 "unterminated\r\nERROR 101 "Command not recognised"\r\n' + GREETING
    async with ScriptedPeer(lambda line: None, greeting=greeting) as peer:
        async with asyncio.timeout(2):
            with pytest.raises(LpecConnectionError, match="raw quote"):
                await LpecConnection.open("127.0.0.1", peer.port, Listener())


@pytest.mark.parametrize(
    ("greeting", "hangup", "message"),
    [
        (b"", "close", "closed the connection before ALIVE"),
        (b"ALIVE MediaRenderer x\r\n", "reset", "connection lost while waiting for ALIVE"),
        (b"x" * (MAX_MESSAGE_BYTES + 10), None, "oversized message while waiting for ALIVE"),
    ],
    ids=["eof", "reset", "oversized"],
)
async def test_no_alive_fails_connect(greeting: bytes, hangup: str | None, message: str) -> None:
    async with ScriptedPeer(greeting=greeting, hangup=hangup) as peer:
        device = LinnDevice("127.0.0.1", peer.port, **FAST)
        async with asyncio.timeout(2):
            with pytest.raises(LpecConnectionError, match=message):
                await device.connect()
        await device.close()
        assert not device.available


# --- after ALIVE ------------------------------------------------------------------


async def test_reset_by_the_device_fails_the_command_in_flight() -> None:
    """A TCP RST (not a FIN): the command in flight fails, close() does not raise."""
    async with ScriptedPeer(lambda line: None) as peer:
        listener = Listener()
        conn = await LpecConnection.open("127.0.0.1", peer.port, listener)
        request = asyncio.create_task(conn.request(STANDBY, Response, deadline(2)))
        await wait_for(lambda: STANDBY in peer.received)
        peer.reset_all()
        async with asyncio.timeout(2):
            with pytest.raises(LpecConnectionError, match="connection lost"):
                await request
            await conn.close()  # wait_closed() raises ConnectionResetError: swallowed
        assert conn.closed
        assert len(listener.closed) == 1
        assert str(listener.closed[0]).startswith("connection lost")


async def test_on_closed_is_called_once_and_a_failing_listener_is_contained(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Failing(Listener):
        def on_closed(self, error: LpecConnectionError) -> None:
            super().on_closed(error)
            raise RuntimeError("listener bug")

    async with ScriptedPeer(lambda line: None) as peer:
        listener = Failing()
        conn = await LpecConnection.open("127.0.0.1", peer.port, listener)
        request = asyncio.create_task(conn.request(STANDBY, Response, deadline(2)))
        await wait_for(lambda: STANDBY in peer.received)
        with caplog.at_level(logging.ERROR, logger="custom_components.linn.lpec"):
            async with asyncio.timeout(2):
                await conn.close()
                with pytest.raises(LpecConnectionError, match="connection closed"):
                    await request
                await conn.close()  # a second close is a no-op
                conn.abort(LpecConnectionError("again"))  # so is a later abort
        assert len(listener.closed) == 1
        assert "Connection listener failed" in caplog.text
        with pytest.raises(LpecConnectionError, match="closed"):
            await conn.request(STANDBY, Response, deadline(1))


class AbortOnByeBye(Listener):
    """Aborts its connection on BYEBYE, as a session may: nothing after it is handled."""

    conn: LpecConnection | None = None

    def on_byebye(self, device: str, udn: str) -> None:
        assert self.conn is not None
        self.conn.abort(LpecConnectionError(f"{device} said BYEBYE"))


async def _open_until_closed(serve: Serve, listener: AbortOnByeBye) -> LpecConnection:
    """Open a connection to a server running `serve`, wait until it has ended, close it."""
    async with serving(serve) as port, asyncio.timeout(5):
        conn = await LpecConnection.open("127.0.0.1", port, listener)
        listener.conn = conn
        await wait_for(lambda: bool(listener.closed))
        await conn.close()
    return conn


@pytest.mark.parametrize("when", ["with the greeting", "after the open"])
@pytest.mark.parametrize(
    ("ending", "hangup", "error"),
    [
        (b"", True, "connection closed by the device"),
        (b'EVENT 1 0 Volume "un"quoted"\r\nALIVE D d\r\n', False, "raw quote"),
        (b"x" * (MAX_MESSAGE_BYTES + 10), False, "longer than"),
        (
            b"BYEBYE Ds " + PEER_UDN.encode() + b"\r\nALIVE D d\r\n",
            False,
            "BYEBYE",
        ),
    ],
    ids=["eof", "broken-quote", "too-long", "byebye-abort"],
)
async def test_messages_before_the_end_of_a_chunk_are_handled_first(
    when: str, ending: bytes, hangup: bool, error: str
) -> None:
    """Issue 31: messages are handled as their chunk arrives, in order, then the end (EOF,
    a broken quote, an overlong message, a listener's abort) ends the connection once;
    nothing after it is handled. Queued behind ALIVE Ds or arriving later, the same."""
    chunk = b"ALIVE A a\r\nALIVE B b\r\nALIVE C c\r\n" + ending

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if when == "with the greeting":
            writer.write(GREETING + chunk)
        else:
            writer.write(GREETING)
            await reader.readline()  # the blank line: the open is over
            writer.write(chunk)
        await writer.drain()
        if hangup:
            writer.close()
        else:
            await reader.read()

    listener = AbortOnByeBye()
    conn = await _open_until_closed(serve, listener)
    assert [name for name in listener.alive if name != "MediaRenderer"] == ["A", "B", "C"]
    assert "D" not in conn.alive
    assert len(listener.closed) == 1
    assert error in str(listener.closed[0])


SMALL_LIMIT = 1000


@pytest.mark.parametrize(
    ("when", "reads", "handled_first"),
    [
        ("with the greeting", [b"ALIVE A a\r\nALIVE B b\r\nALIVE C c\r\n" + b"x" * 3000], []),
        ("after the open", [b"ALIVE A a\r\nALIVE B b\r\nALIVE C c\r\n" + b"x" * 3000], []),
        ("after the open", [b"ALIVE A a\r\nALIVE B", b" b\r\nALIVE C c\r\n" + b"x" * 3000], ["A"]),
        (
            "after the open",
            [b"ALIVE A a\r\nALIVE B b\r\nALIVE C c\r\n" + b"x" * 600, b"x" * 600],
            ["C"],
        ),
    ],
    ids=["one-read-greeting", "one-read", "read-2-ends-messages", "tail-grows-in-read-2"],
)
async def test_messages_before_an_overlong_tail_in_the_same_read_are_handled_first(
    monkeypatch: pytest.MonkeyPatch, when: str, reads: list[bytes], handled_first: list[str]
) -> None:
    """A read that completes messages and leaves more than the limit pending (no line end
    yet): its messages are handled, then the connection ends once. Across two reads, the
    first read's messages are handled before the second arrives. (A small limit: a read of
    the event loop, 256 KiB at most, is larger than it, as it is not than 1 MiB.)"""
    monkeypatch.setattr("custom_components.linn.lpec.connection.MAX_MESSAGE_BYTES", SMALL_LIMIT)
    listener = AbortOnByeBye()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if when == "with the greeting":
            writer.write(GREETING + b"".join(reads))
        else:
            writer.write(GREETING)
            await reader.readline()  # the blank line: the open is over
            for index, data in enumerate(reads):
                if index:
                    # The previous read was handled: this one is a read of its own.
                    await wait_for(lambda name=handled_first[index - 1]: name in listener.alive)
                writer.write(data)
                await writer.drain()
        await writer.drain()
        await reader.read()

    await _open_until_closed(serve, listener)
    assert [name for name in listener.alive if name != "MediaRenderer"] == ["A", "B", "C"]
    assert len(listener.closed) == 1
    assert "longer than 1000 bytes" in str(listener.closed[0])


async def test_the_listener_hears_once_after_each_read_that_its_messages_are_handled() -> None:
    """Issue 31: one `on_read_done` after all messages of one read, not one per message (the
    device tells its entities then: one state write per read)."""
    second_chunk = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(GREETING)
        await reader.readline()  # the blank line: the open is over
        writer.write(b"ALIVE A a\r\nALIVE B b\r\nALIVE C c\r\n")
        await writer.drain()
        await second_chunk.wait()
        writer.write(b"ALIVE D d\r\n")
        await writer.drain()
        await reader.read()

    listener = Listener()
    async with serving(serve) as port, asyncio.timeout(5):
        conn = await LpecConnection.open("127.0.0.1", port, listener)
        await wait_for(lambda: "C" in listener.alive)
        second_chunk.set()
        await wait_for(lambda: "D" in listener.alive)
        await conn.close()
    assert listener.handled == [
        "MediaRenderer",  # behind ALIVE Ds in the greeting: queued, then handled at once
        "read done",
        "A",
        "B",
        "C",
        "read done",
        "D",
        "read done",
    ]


async def test_blank_lines_and_unknown_unsubscribe_are_ignored(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    changes: list[bool] = []
    device.add_availability_listener(changes.append)
    subscriptions = emu.subscriptions
    emu.faults.send_raw("")
    emu.faults.send_raw("UNSUBSCRIBE 999")  # no such subscription: not a revocation
    emu.panel.set_volume(47)
    await wait_for(lambda: device.state.volume.volume == 47)
    await device.set_volume(48)
    assert emu.state.volume == 48
    assert changes == []
    assert emu.subscriptions == subscriptions


# --- the command slot -------------------------------------------------------------


async def test_queued_command_times_out_waiting_for_the_slot(emu: LinnEmulator) -> None:
    """A command queued behind a slow one fails at its own deadline, unsent."""
    session = LpecSession("127.0.0.1", emu.port, ["Ds/Volume"], Quiet(), **FAST)
    await session.connect()
    try:
        emu.faults.response_delay = 0.4
        slow = asyncio.create_task(session.action("Ds/Volume", 1, "SetVolume", ["3"]))
        await wait_for(lambda: bool(emu.actions) and emu.actions[-1].action == "SetVolume")
        async with asyncio.timeout(1):
            with pytest.raises(LpecTimeoutError, match="waiting for the command slot"):
                await session.action("Ds/Volume", 1, "SetMute", ["true"], action_timeout=0.1)
            await slow
        assert [a.action for a in emu.actions].count("SetMute") == 0
        assert emu.state.volume == 3
        assert emu.state.mute is False
    finally:
        emu.faults.response_delay = 0
        await session.close()


async def test_an_unanswered_command_closes_the_connection(emu: LinnEmulator) -> None:
    """Replies carry no ids: after a lost one the stream cannot be trusted, so start over."""
    listener = Listener()
    conn = await LpecConnection.open("127.0.0.1", emu.port, listener)
    try:
        emu.faults.half_open(True)
        with pytest.raises(LpecTimeoutError):
            await conn.request(STANDBY, Response, deadline(0.05))
        assert conn.closed
        with pytest.raises(CommandNotSentError, match="closed"):
            await conn.request(STANDBY, Response, deadline(0.05))
        assert [str(err) for err in listener.closed] == [
            f"no reply to {STANDBY!r}; resynchronising"
        ]
    finally:
        emu.faults.half_open(False)
        await conn.close()
