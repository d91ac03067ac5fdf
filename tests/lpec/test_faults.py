"""Faults: every one ends with a usable session, and no awaited command hangs."""

from __future__ import annotations

import asyncio
import logging

import pytest

from custom_components.linn.lpec import (
    LinnDevice,
    LpecConnectionError,
    LpecDeviceError,
    LpecTimeoutError,
    Service,
)
from linn_emulator import LinnEmulator
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, assert_no_lpec_tasks


class Availability:
    """Records availability changes."""

    def __init__(self, device: LinnDevice) -> None:
        self.changes: list[bool] = []
        self.remove = device.add_availability_listener(self.changes.append)


async def test_drop_reconnects_and_resyncs(emu: LinnEmulator, device: LinnDevice) -> None:
    availability = Availability(device)
    emu.faults.drop_connections()
    emu.panel.set_volume(12)  # changed while the client is disconnected
    emu.panel.select_source("Radio")
    await wait_for(lambda: availability.changes == [False, True])
    await wait_for(lambda: device.state.volume.volume == 12)
    assert device.state.product.source is not None
    assert device.state.product.source.system_name == "Radio"
    await device.set_volume(20)
    assert emu.state.volume == 20


async def test_action_in_flight_when_connection_drops(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    emu.faults.response_delay = 0.5
    task = asyncio.create_task(device.set_volume(33))
    await asyncio.sleep(0.1)
    emu.faults.drop_connections()
    with pytest.raises(LpecConnectionError):
        async with asyncio.timeout(2):
            await task
    emu.faults.response_delay = 0
    await wait_for(lambda: device.available)


async def test_actions_queued_during_reconnect_complete(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    emu.faults.drop_connections()
    await wait_for(lambda: not device.available)
    async with asyncio.timeout(3):
        results = await asyncio.gather(
            device.set_volume(21), device.set_mute(True), device.set_standby(False)
        )
    assert results[0] == 21
    assert emu.state.volume == 21
    assert emu.state.mute is True


async def test_actions_while_device_is_down_raise_within_their_timeout(
    emu: LinnEmulator,
) -> None:
    device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "action_timeout": 0.3})
    await device.connect()
    try:
        reboot = asyncio.create_task(emu.faults.reboot(downtime=1.0))
        await wait_for(lambda: not device.available)
        async with asyncio.timeout(2):
            with pytest.raises(LpecConnectionError):
                await device.set_volume(10)
        await reboot
        await wait_for(lambda: device.available, timeout=3)
    finally:
        await device.close()


async def test_half_open_detected_by_keepalive(emu: LinnEmulator) -> None:
    device = LinnDevice(
        "127.0.0.1",
        emu.port,
        **{**FAST, "keepalive_interval": 0.2, "connect_timeout": 0.3},
    )
    await device.connect()
    availability = Availability(device)
    try:
        emu.faults.half_open(True)
        await wait_for(lambda: availability.changes == [False], timeout=3)
        emu.panel.set_volume(17)
        emu.faults.half_open(False)
        await wait_for(lambda: device.available, timeout=3)
        await wait_for(lambda: device.state.volume.volume == 17)
        await device.set_volume(18)
        assert emu.state.volume == 18
    finally:
        await device.close()


async def test_malformed_lines_are_skipped(
    emu: LinnEmulator, device: LinnDevice, caplog: pytest.LogCaptureFixture
) -> None:
    availability = Availability(device)
    with caplog.at_level(logging.WARNING, logger="custom_components.linn.lpec"):
        emu.faults.send_raw(b"\xff\xfe garbage \x00\r\n")
        emu.faults.send_raw("WHATEVER this is")
        emu.faults.send_raw('EVENT 999 3 Volume "1"')  # unknown subscription
        emu.faults.send_raw("RESPONSE")  # stray reply with nothing in flight
        emu.panel.set_volume(44)
        await wait_for(lambda: device.state.volume.volume == 44)
    assert "malformed" in caplog.text
    assert availability.changes == []
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="custom_components.linn.lpec"):
        for _ in range(200):
            emu.faults.send_raw("EVENT 1 1 flood")
        emu.panel.set_volume(43)
        await wait_for(lambda: device.state.volume.volume == 43)
    assert caplog.text.count("malformed") <= 1  # rate-limited
    await device.set_volume(45)
    assert emu.state.volume == 45


async def test_an_unterminated_quote_costs_the_session(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """ohNet never sends one; inside quotes a line break is content (a value may hold any
    line), so what follows it cannot be trusted: the next quoted value shows the framing
    broken, the session ends and a new one resynchronises."""
    availability = Availability(device)
    emu.faults.send_raw('EVENT 1 0 Volume "unterminated')
    emu.panel.set_volume(44)  # its EVENT is swallowed, its quoted value breaks the framing
    await wait_for(lambda: availability.changes == [False, True])
    await wait_for(lambda: device.state.volume.volume == 44)
    await device.set_volume(46)
    assert emu.state.volume == 46


async def test_oversized_line_reconnects(emu: LinnEmulator, device: LinnDevice) -> None:
    availability = Availability(device)
    emu.faults.send_oversized(2 * 1024 * 1024)
    await wait_for(lambda: availability.changes == [False, True], timeout=3)
    await device.set_volume(46)
    assert emu.state.volume == 46


async def test_delayed_response_times_out_and_session_stays_usable(
    emu: LinnEmulator,
) -> None:
    device = LinnDevice("127.0.0.1", emu.port, **{**FAST, "action_timeout": 0.3})
    await device.connect()
    try:
        emu.faults.response_delay = 0.4
        with pytest.raises(LpecTimeoutError):
            await device.set_standby(True)
        emu.faults.response_delay = 0
        # The late RESPONSE to SetStandby must not be taken as SetMute's answer:
        # the client reconnected when SetStandby timed out.
        await device.set_mute(True)
        assert emu.actions[-1].action == "SetMute"
        assert emu.state.mute is True
        assert await device.set_volume(31) == 31
        assert emu.state.volume == 31
        assert device.available
    finally:
        await device.close()


async def test_reboot_byebye_unavailable_then_resynced(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    availability = Availability(device)
    emu.panel.select_source("Playlist")
    emu.panel.play()
    await wait_for(lambda: device.state.transport.state == "Playing")
    await emu.faults.reboot(downtime=0.2)
    await wait_for(lambda: availability.changes == [False, True], timeout=3)
    await wait_for(lambda: device.state.transport.state == "Stopped")
    assert device.udn == emu.udn


async def test_revoked_subscription_is_renewed(emu: LinnEmulator, device: LinnDevice) -> None:
    availability = Availability(device)
    subscriptions = emu.subscriptions
    emu.faults.revoke_subscriptions("Volume", realive_after=0.1)
    await wait_for(lambda: availability.changes == [False, True])
    await wait_for(lambda: emu.subscriptions == subscriptions)
    emu.panel.set_volume(23)
    emu.panel.set_standby(True)
    await wait_for(
        lambda: device.state.volume.volume == 23 and device.state.product.standby is True
    )


async def test_close_fails_pending_commands(emu: LinnEmulator) -> None:
    device = LinnDevice("127.0.0.1", emu.port, **FAST)
    await device.connect()
    emu.faults.response_delay = 0.5
    first = asyncio.create_task(device.set_volume(5))
    queued = asyncio.create_task(device.set_mute(True))
    await asyncio.sleep(0.05)
    await device.close()
    async with asyncio.timeout(1):
        results = await asyncio.gather(first, queued, return_exceptions=True)
    assert all(isinstance(r, LpecConnectionError) for r in results), results
    with pytest.raises(LpecConnectionError):
        await device.set_volume(5)
    assert not device.available


async def test_connect_refused_raises_connection_error() -> None:
    emu = LinnEmulator(port=0)
    await emu.start()
    port = emu.port
    await emu.stop()
    device = LinnDevice("127.0.0.1", port, **FAST)
    with pytest.raises(LpecConnectionError):
        await device.connect()
    await device.close()


async def test_timed_out_command_reconnects_at_once(emu: LinnEmulator) -> None:
    """A hung device is found as soon as a command times out, not a keepalive later."""
    device = LinnDevice(
        "127.0.0.1", emu.port, **{**FAST, "action_timeout": 0.2, "connect_timeout": 0.3}
    )
    await device.connect()
    try:
        emu.faults.half_open(True)
        with pytest.raises(LpecTimeoutError):
            await device.set_volume(10)
        await wait_for(lambda: not device.available, timeout=1.0)
        emu.faults.half_open(False)
        await wait_for(lambda: device.available, timeout=3)
    finally:
        await device.close()
    assert_no_lpec_tasks()


async def test_device_error_is_raised_and_session_stays_usable(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    with pytest.raises(LpecDeviceError) as err:
        await device.action(Service.PRODUCT, "NoSuchAction")
    assert err.value.code >= 100
    with pytest.raises(LpecDeviceError):
        await device.action(Service.PRODUCT, "SetSourceIndex", "999")
    await device.set_volume(27)
    assert emu.state.volume == 27


async def test_revocation_without_byebye_is_renewed(emu: LinnEmulator, device: LinnDevice) -> None:
    """An UNSUBSCRIBE the device did not mean (it still has the subscription).

    The emulator numbers subscriptions from 1 in the order the client subscribes, so
    2 is Volume. The resubscribe gets ERROR 401; the client starts over with a new
    connection rather than lose Volume events.
    """
    emu.faults.send_raw("UNSUBSCRIBE 2")
    await asyncio.sleep(0.2)
    emu.panel.set_volume(77)
    await wait_for(lambda: device.state.volume.volume == 77 and device.available)


async def test_byebye_and_alive_between_action_and_response(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    availability = Availability(device)
    emu.faults.response_delay = 0.3
    task = asyncio.create_task(device.set_volume(38))
    await asyncio.sleep(0.05)
    emu.faults.revoke_subscriptions("Volume", realive_after=0.05)
    async with asyncio.timeout(2):
        assert await task == 38
    emu.faults.response_delay = 0
    await wait_for(lambda: availability.changes == [False, True])
    emu.panel.set_volume(39)
    await wait_for(lambda: device.state.volume.volume == 39)
