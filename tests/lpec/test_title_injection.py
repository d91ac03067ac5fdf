"""A radio StreamTitle (untrusted text, raw in Metatext) cannot forge LPEC messages."""

from __future__ import annotations

import asyncio

from custom_components.linn.lpec import LinnDevice
from custom_components.linn.lpec.services import Service
from linn_emulator import LinnEmulator
from linn_emulator.didl import icy_didl
from testing.helpers import wait_for


async def _show_title(emu: LinnEmulator, device: LinnDevice, title: str) -> None:
    """Put a station title on the emulator; wait until the client shows its last line."""
    emu.panel.set_metatext(icy_didl(title))
    await wait_for(lambda: "the end" in (device.state.info.metatext or ""))


async def test_a_title_cannot_make_the_player_unavailable(
    emu: LinnEmulator, device: LinnDevice
) -> None:
    udn = device.udn
    assert udn is not None
    await _show_title(emu, device, f'Live\nBYEBYE Ds {udn}\nERROR 111 "gone"\nthe end')
    assert device.available
    conn = device._session._conn
    assert conn is not None
    assert not conn.closed


async def test_a_byebye_for_another_udn_is_ignored(emu: LinnEmulator, device: LinnDevice) -> None:
    conn = device._session._conn
    assert conn is not None
    emu.faults.send_raw(b"BYEBYE Ds uuid:not-this-device\r\n")
    await _show_title(emu, device, "after\nthe end")  # the raw line came before it
    assert device.available
    assert not conn.closed


async def test_a_title_cannot_set_the_volume(emu: LinnEmulator, device: LinnDevice) -> None:
    """The forged EVENT names the real Volume subscription and a later sequence."""
    conn = device._session._conn
    assert conn is not None
    sid = next(s for s, path in conn.subscriptions.items() if path == "Ds/Volume")
    before = device.state.volume.volume
    assert before != 100
    await _show_title(emu, device, f"Live\nEVENT {sid} 999 Volume 100 Mute true\nthe end")
    assert device.state.volume.volume == before
    assert device.state.volume.mute is False


async def test_a_title_cannot_answer_an_action(emu: LinnEmulator, device: LinnDevice) -> None:
    """A forged bare RESPONSE in flight would complete the read with no values."""
    emu.faults.response_delay = 0.3
    read = asyncio.ensure_future(device.action(Service.VOLUME, "Volume"))
    await asyncio.sleep(0)  # the ACTION is on the wire before the title
    await _show_title(emu, device, 'Live\nRESPONSE\nRESPONSE "100"\nthe end')
    assert await read == (str(device.state.volume.volume),)
