"""LpecSession edge cases: connect/close phases, subscribe failures, commands."""

from __future__ import annotations

import asyncio
import logging

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecConnectionError,
    LpecProtocolError,
    LpecSession,
    LpecTimeoutError,
    LpecUnsupportedError,
    Service,
)
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, ScriptedPeer, assert_no_lpec_tasks
from tests.lpec.session_helpers import Recorder, lpec_tasks, product_only

# --- connect and close ------------------------------------------------------------


async def test_connect_twice_is_one_session_and_close_is_final(emu: LinnEmulator) -> None:
    device = LinnDevice("127.0.0.1", emu.port, **FAST)
    async with asyncio.timeout(3):
        await device.connect()
        await device.connect()  # no second TCP session, no second supervisor
        assert emu.sessions == 1
        assert len(lpec_tasks("lpec-supervisor")) == 1
        await device.close()
        with pytest.raises(LpecConnectionError, match="closed"):
            await device.connect()
    await wait_for(lambda: emu.sessions == 0)
    assert_no_lpec_tasks()


async def test_cancelled_connect_leaves_nothing_behind_and_can_be_retried(
    emu: LinnEmulator,
) -> None:
    emu.faults.half_open(True)  # TCP accepted, no ALIVE: connect waits
    device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "connect_timeout": 5.0})
    connect = asyncio.create_task(device.connect())
    await wait_for(lambda: bool(lpec_tasks("lpec-connect")))
    connect.cancel()
    async with asyncio.timeout(1):
        with pytest.raises(asyncio.CancelledError):
            await connect
        await wait_for(lambda: not lpec_tasks("lpec-connect") and not lpec_tasks("lpec-reader"))
    emu.faults.half_open(False)
    try:
        async with asyncio.timeout(3):
            await device.connect()
        assert device.available
        await device.set_volume(9)
        assert emu.state.volume == 9
    finally:
        await device.close()
    assert_no_lpec_tasks()


async def test_close_as_the_handshake_completes_discards_the_connection(
    emu: LinnEmulator,
) -> None:
    """close() runs after the connection is ready but before connect() resumes.

    The opener's done callback runs before connect() is woken, and an eagerly started
    close() completes synchronously (nothing to await yet), so this is the window.
    """
    device = LinnDevice("127.0.0.1", emu.port, **FAST)
    loop = asyncio.get_running_loop()
    closers: list[asyncio.Task[None]] = []
    connect = asyncio.create_task(device.connect())
    await wait_for(lambda: bool(lpec_tasks("lpec-connect")))
    (opener,) = lpec_tasks("lpec-connect")
    opener.add_done_callback(
        lambda _t: closers.append(asyncio.Task(device.close(), loop=loop, eager_start=True))
    )
    async with asyncio.timeout(3):
        with pytest.raises(LpecConnectionError, match="session is closed"):
            await connect
        await asyncio.gather(*closers)
        await wait_for(lambda: emu.sessions == 0)
    (closer,) = closers
    assert closer.done()
    assert not device.available
    assert_no_lpec_tasks()


# --- subscribing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action_timeout", "connect_timeout", "message"),
    [
        (0.2, 2.0, "SUBSCRIBE Ds/Product"),  # the command's own timeout comes first
        (2.0, 0.2, "subscribing to its services took too long"),  # connect's comes first
    ],
    ids=["command timeout", "connect timeout"],
)
async def test_unanswered_subscribe_fails_connect_with_the_first_timeout(
    action_timeout: float, connect_timeout: float, message: str
) -> None:
    async with ScriptedPeer(product_only(**{"SUBSCRIBE Ds/Product": None})) as peer:
        timeouts = {"action_timeout": action_timeout, "connect_timeout": connect_timeout}
        session = LpecSession(
            "127.0.0.1", peer.port, ["Ds/Product"], Recorder(), **{**FAST, **timeouts}
        )
        async with asyncio.timeout(2):
            with pytest.raises(LpecTimeoutError, match=message):
                await session.connect()
            await peer.ended.wait()  # the half-subscribed connection is closed
        await session.close()
    assert_no_lpec_tasks()


async def test_response_to_subscribe_is_a_protocol_error() -> None:
    async with ScriptedPeer(product_only(**{"SUBSCRIBE Ds/Product": "RESPONSE\r\n"})) as peer:
        session = LpecSession("127.0.0.1", peer.port, ["Ds/Product"], Recorder(), **FAST)
        async with asyncio.timeout(2):
            with pytest.raises(LpecProtocolError, match="RESPONSE to SUBSCRIBE"):
                await session.connect()
            await peer.ended.wait()
        await session.close()


async def test_first_command_error_after_an_ignored_blank_line_is_retried() -> None:
    """Firmware that ignores the blank line still fails the first command: retry it once."""
    first = [True]

    def answer(line: str) -> str | None:
        if line and first[0]:
            first[0] = False
            return 'ERROR 101 "Command not recognised"\r\n'
        return product_only()(line)

    async with ScriptedPeer(answer) as peer:
        device = LinnDevice("127.0.0.1", peer.port, **FAST, services=(Service.PRODUCT,))
        async with asyncio.timeout(3):
            await device.connect()
        try:
            assert peer.received[:3] == ["", "SUBSCRIBE Ds/Product", "SUBSCRIBE Ds/Product"]
            assert device.state.services == frozenset({Service.PRODUCT})
            assert device.state.product.room == "Den"
        finally:
            await device.close()


async def test_subscription_refused_by_the_device_is_absent_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with LinnEmulator(port=0, tick_interval=0.05, max_subscriptions=3) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        with caplog.at_level(logging.WARNING, logger="custom_components.linn.lpec"):
            async with asyncio.timeout(3):
                await device.connect()
        try:
            assert device.state.services == frozenset(
                {Service.PRODUCT, Service.VOLUME, Service.TRANSPORT}
            )
            assert "Cannot subscribe to Ds/Info" in caplog.text
            assert "402" in caplog.text
            with pytest.raises(LpecUnsupportedError):
                await device.invoke_pin(1)
            await device.set_volume(12)
            assert emu.state.volume == 12
        finally:
            await device.close()


async def test_missing_initial_event_does_not_fail_connect(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A SUBSCRIBE ack without EVENT 0: connect waits action_timeout, warns, goes on."""
    answer = product_only(**{"SUBSCRIBE Ds/Product": "SUBSCRIBE 1\r\n"})
    async with ScriptedPeer(answer) as peer:
        device = LinnDevice(
            "127.0.0.1", peer.port, **{**FAST, "action_timeout": 0.2}, services=(Service.PRODUCT,)
        )
        with caplog.at_level(logging.WARNING, logger="custom_components.linn.lpec"):
            async with asyncio.timeout(2):
                await device.connect()
        try:
            assert "No initial state" in caplog.text
            assert "Ds/Product" in caplog.text
            assert device.available
            assert device.state.services == frozenset({Service.PRODUCT})
            peer.write_all('EVENT 1 1 ProductRoom "Late"\r\n')
            await wait_for(lambda: device.state.product.room == "Late")
        finally:
            await device.close()


# --- commands ---------------------------------------------------------------------


async def test_action_before_connect_raises(emu: LinnEmulator) -> None:
    session = LpecSession("127.0.0.1", emu.port, ["Ds/Product"], Recorder(), **FAST)
    with pytest.raises(LpecConnectionError, match="call connect"):
        await session.action("Ds/Product", 1, "Standby")
    assert emu.sessions == 0


async def test_subscribe_ack_as_action_reply_is_a_protocol_error() -> None:
    answer = product_only(**{"ACTION Ds/Product 1 Standby": "SUBSCRIBE 7\r\n"})
    async with ScriptedPeer(answer) as peer:
        session = LpecSession("127.0.0.1", peer.port, ["Ds/Product"], Recorder(), **FAST)
        async with asyncio.timeout(2):
            await session.connect()
            try:
                with pytest.raises(LpecProtocolError, match="unexpected reply"):
                    await session.action("Ds/Product", 1, "Standby")
                assert await session.action("Ds/Product", 1, "Room") == ()
            finally:
                await session.close()


async def test_failing_availability_handler_does_not_break_the_session(
    emu: LinnEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    class Failing(Recorder):
        def on_availability(self, available: bool) -> None:
            super().on_availability(available)
            raise RuntimeError("handler bug")

    handler = Failing()
    session = LpecSession("127.0.0.1", emu.port, ["Ds/Product", "Ds/Volume"], handler, **FAST)
    with caplog.at_level(logging.ERROR, logger="custom_components.linn.lpec"):
        async with asyncio.timeout(3):
            await session.connect()
            assert session.available
            emu.faults.drop_connections()
            await wait_for(lambda: handler.availability == [True, False, True])
            assert session.available
            await session.action("Ds/Volume", 1, "SetVolume", ["14"])
        await session.close()
    assert emu.state.volume == 14
    assert "Availability handler failed" in caplog.text
    assert handler.availability == [True, False, True, False]
