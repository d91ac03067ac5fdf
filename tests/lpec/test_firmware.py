"""LPEC as Linn firmware speaks it (ohNet): the emulator's default quirks, through the client.

Issue 17 items 1, 2 and 6: values spanning lines, BYEBYE without ALIVE, raw ERROR text,
subscription ids from 0. Each against the emulator in its default (ohNet) mode.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
import logging

import pytest

from custom_components.linn.lpec import LinnDevice, LpecDeviceError, LpecError
from custom_components.linn.lpec.capabilities import PlaybackState
from linn_emulator import DOCUMENTED, OHNET, LinnEmulator, PlaybackState as EmulatedState, Quirk
from testing.helpers import wait_for
from tests.lpec.helpers import FAST, assert_no_lpec_tasks


class Availability:
    """Records availability changes."""

    def __init__(self, device: LinnDevice) -> None:
        self.changes: list[bool] = []
        device.add_availability_listener(self.changes.append)


@pytest.fixture
async def probing(emu: LinnEmulator) -> AsyncIterator[LinnDevice]:
    """A client whose keepalive probes after 0.2 s of silence."""
    dev = LinnDevice("127.0.0.1", emu.port, **{**FAST, "keepalive_interval": 0.2})
    await dev.connect()
    yield dev
    await dev.close()
    assert_no_lpec_tasks()


def test_the_emulator_speaks_as_ohnet_by_default(emu: LinnEmulator) -> None:
    assert emu.quirks == OHNET


# --- 1. line breaks inside quoted values -------------------------------------------------


async def test_multiline_metadata_in_events(emu: LinnEmulator, device: LinnDevice) -> None:
    """The Info EVENT 0 carries DIDL-Lite spread over lines: its track still reads."""
    now = emu.state.current_entry
    assert now is not None
    assert device.state.info.track.title == now.track.title
    assert device.state.info.track.artist == now.track.artist
    emu.panel.set_metadata(title="Side A\r\nTrack 1", artist="Someone", album="Two\nLines")
    await wait_for(lambda: device.state.info.track.title == "Side A\nTrack 1")
    assert device.state.info.track.album == "Two\nLines"


async def test_a_multiline_response_pairs_and_so_does_the_next(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """Radio ReadList spans lines; the replies after it still pair with their ACTIONs."""
    presets = await device.read_presets()
    assert [p.title for p in presets] == [c.track.title for c in emu.state.radio_channels]
    emu.panel.set_room("Upstairs\nLanding")
    assert await device.set_volume(12) == 12
    await wait_for(lambda: device.state.product.room == "Upstairs\nLanding")
    pins = await device.read_pins()
    assert pins
    assert [p.id for p in pins] == [i for i in device.state.pins.ids if i]
    assert await device.set_volume(13) == 13
    assert emu.state.volume == 13
    assert device.available


# --- 2. BYEBYE as ohNet sends it ----------------------------------------------------------


async def test_byebye_only_means_a_new_session(emu: LinnEmulator, device: LinnDevice) -> None:
    """BYEBYE alone: unavailable at once, the old session closed, a new one once enabled."""
    availability = Availability(device)
    emu.faults.disable()
    await wait_for(lambda: availability.changes == [False])
    # The client let the dead session go and waits on a new one, which hears no ALIVE yet.
    await wait_for(lambda: emu.sessions == 1 and emu.waiting_connections == 0)
    emu.panel.set_volume(21)
    emu.faults.enable()
    await wait_for(lambda: availability.changes == [False, True])
    assert device.state.volume.volume == 21
    assert await device.set_volume(22) == 22
    assert emu.sessions == 1


async def test_a_missed_byebye_is_found_by_the_keepalive(
    emu: LinnEmulator, probing: LinnDevice
) -> None:
    """ERROR 111 to the keepalive is no sign of life: the client opens a new session."""
    availability = Availability(probing)
    emu.faults.half_open(True)  # the BYEBYE is lost on the way
    emu.faults.disable()
    emu.faults.half_open(False)
    emu.faults.enable()
    await wait_for(lambda: availability.changes == [False, True])
    assert await probing.set_volume(23) == 23


async def test_stray_errors_do_not_keep_a_stalled_session_alive(
    emu: LinnEmulator, probing: LinnDevice
) -> None:
    """ERRORs are no sign of life: they do not put off the keepalive's probe."""
    availability = Availability(probing)

    async def stray_errors() -> None:
        while True:
            emu.faults.send_raw('ERROR 111 "Device not found"')
            await asyncio.sleep(0.05)

    emu.faults.stall_requests(True)  # nothing is answered, but lines still go out
    errors = asyncio.create_task(stray_errors())
    try:
        await wait_for(lambda: availability.changes[:1] == [False])
    finally:
        errors.cancel()
    emu.faults.stall_requests(False)
    await wait_for(lambda: probing.available)
    assert await probing.set_volume(24) == 24


async def test_a_command_refused_with_111_goes_once_more_on_a_new_session(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """ohNet answers 111 before invoking anything: the command did not run, so it is resent."""
    availability = Availability(device)
    volume = emu.state.volume
    emu.faults.half_open(True)  # the BYEBYE is lost on the way
    emu.faults.disable()
    emu.faults.half_open(False)
    emu.faults.enable()
    await device.volume_up()  # 111 on the old session, run on the new one
    assert emu.state.volume == volume + 1  # once, not twice
    await wait_for(lambda: availability.changes == [False, True])
    assert await device.set_volume(25) == 25


async def test_a_refused_command_raises_while_the_device_stays_gone(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """Still disabled: the new session hears no ALIVE, so the command runs out of time."""
    emu.faults.half_open(True)
    emu.faults.disable()
    emu.faults.half_open(False)
    with pytest.raises(LpecError):
        await device.volume_up()
    emu.faults.enable()
    await wait_for(lambda: device.available)


async def test_documented_byebye_keeps_the_session(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The wiki's variant: UNSUBSCRIBE, BYEBYE, then ALIVE on the same session."""
    async with LinnEmulator(port=0, tick_interval=0.05, quirks=DOCUMENTED) as emu:
        device = LinnDevice("127.0.0.1", emu.port, **FAST)
        await device.connect()
        availability = Availability(device)
        try:
            with caplog.at_level(logging.WARNING, logger="custom_components.linn.lpec"):
                emu.faults.disable()
                await wait_for(lambda: availability.changes == [False])
                emu.panel.set_volume(31)
                emu.faults.enable()
                await wait_for(lambda: availability.changes == [False, True])
                await wait_for(lambda: device.state.volume.volume == 31)
            assert "Lost connection" not in caplog.text
            assert emu.sessions == 1
            assert await device.set_volume(32) == 32
        finally:
            await device.close()


# --- 6. details -----------------------------------------------------------------------------


async def test_error_text_is_raw(emu: LinnEmulator, device: LinnDevice) -> None:
    emu.faults.fail_action("SetVolume", 801, 'Json &amp; "corrupt" <x>')
    with pytest.raises(LpecDeviceError) as err:
        await device.set_volume(5)
    assert (err.value.code, err.value.description) == (801, 'Json &amp; "corrupt" <x>')
    assert await device.set_volume(6) == 6  # the next reply still pairs


@pytest.mark.parametrize(
    ("emulated", "expected"),
    [
        (EmulatedState.BUFFERING, PlaybackState.BUFFERING),
        (EmulatedState.WAITING, PlaybackState.WAITING),
    ],
)
async def test_buffering_and_waiting(
    emu: LinnEmulator, device: LinnDevice, emulated: EmulatedState, expected: PlaybackState
) -> None:
    emu.state.transport_state = emulated
    emu.device.changed()
    await wait_for(lambda: device.state.playback_state is expected)


async def test_subscription_id_zero_is_a_subscription(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """The first SUBSCRIBE gets id 0 (ohNet's counter); its events are not dropped."""
    assert Quirk.SUBSCRIPTION_IDS_FROM_ZERO in emu.quirks
    emu.panel.set_room("Zero")  # Product: subscribed first, so id 0
    await wait_for(lambda: device.state.product.room == "Zero")


# --- a stray bare RESPONSE ------------------------------------------------------------------


async def test_a_stray_bare_response_is_not_the_reply_of_an_action_with_values(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    """ReadList answers one value: a bare RESPONSE before its reply is not the reply."""
    emu.faults.response_delay = 0.2
    pending = asyncio.create_task(device.read_pins())
    await wait_for(lambda: bool(emu.actions) and emu.actions[-1].action == "ReadList")
    emu.faults.send_raw("RESPONSE")
    pins = await pending
    assert pins
    assert [p.id for p in pins] == [i for i in device.state.pins.ids if i]
    emu.faults.response_delay = 0.0
    assert await device.set_volume(14) == 14  # and the next reply pairs with its ACTION
