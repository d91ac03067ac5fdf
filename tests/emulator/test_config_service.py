"""The Config service: keys, values, and a Volume.Limit change seen on Volume."""

from __future__ import annotations

from custom_components.linn.lpec.codec import format_action
from linn_emulator import LinnEmulator

from .client import Client


async def test_volume_limit_through_config(emu: LinnEmulator) -> None:
    client = await Client.connect(emu.port)
    try:
        sub, _ = await client.subscribe("Ds/Volume")
        assert (await client.action("Ds/Config", "HasKey", "Volume.Limit")).values == ("true",)
        assert (await client.action("Ds/Config", "GetValue", "Volume.Limit")).values == ("80",)
        emu.panel.set_volume(70)
        await client.action("Ds/Config", "SetValue", "Volume.Limit", "60", version=2)
        event = await client.event(sub, lambda v: "VolumeLimit" in v)
        assert event.variables["VolumeLimit"] == "60"
        assert emu.state.volume_limit == 60
        assert emu.state.volume == 60  # the volume follows the limit down
    finally:
        await client.close()


async def test_bad_keys_and_values_are_refused(emu: LinnEmulator) -> None:
    client = await Client.connect(emu.port)
    try:
        assert (await client.action("Ds/Config", "HasKey", "Nope")).values == ("false",)
        get_unknown = format_action("Ds/Config", 1, "GetValue", ["Nope"])
        assert (await client.error(get_unknown)).code == 802
        too_high = format_action("Ds/Config", 1, "SetValue", ["Volume.Limit", "101"])
        assert (await client.error(too_high)).code == 803
        not_a_number = format_action("Ds/Config", 1, "SetValue", ["Volume.Limit", "loud"])
        assert (await client.error(not_a_number)).code == 803
        assert emu.state.volume_limit == 80
    finally:
        await client.close()
