"""Device lines from public sources, replayed through the client's framing, codec and reducers.

Sources and licences: tests/lpec/captures/README.md.

Each capture file holds the bytes a device sends; the expectations below say what the
client must make of them. No emulator is involved: these are the device's own words (or,
for `spec-*` files, lines written from Linn's server code where no licensed capture
exists).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from custom_components.linn.lpec import DeviceState, Service, codec
from custom_components.linn.lpec.framing import MessageFramer
from custom_components.linn.lpec.idarray import parse_base64_ids
from custom_components.linn.lpec.lists import parse_channel_list, parse_pin_list
from custom_components.linn.lpec.reducers import apply_event

CAPTURES = Path(__file__).parent / "captures"


def replay(name: str, chunk: int = 7) -> list[codec.DeviceMessage]:
    """The file's bytes through the client's framer (in small chunks) and codec."""
    data = (CAPTURES / name).read_bytes()
    framer = MessageFramer()
    texts: list[str] = []
    for start in range(0, len(data), chunk):
        texts.extend(framer.feed(data[start : start + chunk]))
    assert framer.pending == 0, "a capture ends with a complete message"
    messages = [codec.parse_device_line(text) for text in texts if text]
    assert None not in messages, texts
    return [message for message in messages if message is not None]


def reduce(messages: list[codec.DeviceMessage], service: Service) -> DeviceState:
    state = DeviceState()
    for message in messages:
        if isinstance(message, codec.Event):
            state = apply_event(state, service, message.variables)
    return state


def responses(messages: list[codec.DeviceMessage]) -> list[tuple[str, ...]]:
    return [message.values for message in messages if isinstance(message, codec.Response)]


def check_playlist_event(messages: list[codec.DeviceMessage]) -> None:
    playlist = reduce(messages, Service.PLAYLIST).playlist
    assert playlist.ids == (885, 887, 889, 891)
    assert playlist.current_id == 885
    assert playlist.transport_state == "Playing"
    assert (playlist.shuffle, playlist.repeat) == (False, False)


def check_playlist_id_array(messages: list[codec.DeviceMessage]) -> None:
    ((token, array),) = responses(messages)
    assert token == "451"
    assert parse_base64_ids(array) == (651, 653, 655, 657, 659, 661, 663, 665)


def check_playlist_read_list(messages: list[codec.DeviceMessage]) -> None:
    ((track_list,),) = responses(messages)
    # The same Entry/Id/Uri/Metadata shape as Radio's ChannelList; the DIDL-Lite inside
    # uses dc: and upnp: without declaring them.
    (entry,) = parse_channel_list(track_list)
    assert entry.id == 659
    assert entry.uri == "qobuz://track?version=2&trackId=1"
    metadata = entry.metadata
    assert (metadata.title, metadata.artist, metadata.album) == (
        "I Love You Bitch",
        "Lizzo",
        "Special",
    )
    assert metadata.album_art_uri == "https://static.qobuz.com/a_600.jpg"
    assert metadata.duration == 148


def check_pins_read_list(messages: list[codec.DeviceMessage]) -> None:
    ((json_list,),) = responses(messages)
    (pin,) = parse_pin_list(json_list)
    assert (pin.id, pin.title, pin.mode, pin.type) == (1, "Village", "qobuz", "album")
    assert pin.artwork_uri == ("https://static.qobuz.com/images/covers/mb/x1/brogg6xqdx1mb_600.jpg")


def check_multiline_metatext(messages: list[codec.DeviceMessage]) -> None:
    (event,) = messages
    assert isinstance(event, codec.Event)
    assert event.variables["Metatext"].count("\n") == 5  # kept inside the value
    assert reduce(messages, Service.INFO).info.metatext == "Lorde - Chips n Queso"


def check_icy_metatext(messages: list[codec.DeviceMessage]) -> None:
    info = reduce(messages, Service.INFO).info
    assert info.metatext == "Simon & Garfunkel - Mrs. Robinson <Live>"


def check_pin_slots(messages: list[codec.DeviceMessage]) -> None:
    first = reduce(messages[:1], Service.PINS).pins
    assert (first.slots, first.ids) == ((), ())  # IdArray "" before the first update
    pins = reduce(messages, Service.PINS).pins
    assert pins.slots == (3, 0, 9, 0, 0, 0)
    assert pins.ids == (3, 9)


def check_radio_slots(messages: list[codec.DeviceMessage]) -> None:
    radio = reduce(messages, Service.RADIO).radio
    assert len(radio.slots) == 100
    assert radio.ids == (5, 12)
    ((channel_list,),) = responses(messages)
    (preset,) = parse_channel_list(channel_list)  # id 12 unknown to the database: skipped
    assert (preset.id, preset.title) == (5, "Radio Caroline")
    assert preset.uri == "http://sc.example/caroline.mp3?a=1&b=2"  # no <Uri>: the <res>
    assert preset.metadata.album_art_uri == "http://img.example/caroline.png"


def check_product_1(messages: list[codec.DeviceMessage]) -> None:
    assert [type(message) for message in messages] == [
        codec.Alive,
        codec.Alive,
        codec.Subscribed,
        codec.Event,
        codec.Error,
        codec.Error,
    ]
    assert isinstance(messages[2], codec.Subscribed)
    assert messages[2].subscription_id == 0
    product = reduce(messages, Service.PRODUCT).product
    assert (product.name, product.room, product.standby) == ("Akurate DS", "Study", False)
    assert product.source_index == 1
    errors = [(m.code, m.description) for m in messages if isinstance(m, codec.Error)]
    assert errors == [(106, "Version not supported"), (501, "Action not implemented")]


CASES: dict[str, Callable[[list[codec.DeviceMessage]], None]] = {
    "selekt-dsm-playlist-event.lpec": check_playlist_event,
    "selekt-dsm-playlist-idarray.lpec": check_playlist_id_array,
    "selekt-dsm-playlist-readlist.lpec": check_playlist_read_list,
    "selekt-dsm-pins-readlist.lpec": check_pins_read_list,
    "selekt-dsm-info-multiline.lpec": check_multiline_metatext,
    "spec-info-icy-metatext.lpec": check_icy_metatext,
    "spec-pins-slots.lpec": check_pin_slots,
    "spec-radio-slots.lpec": check_radio_slots,
    "spec-product-1-names.lpec": check_product_1,
}


def test_every_capture_has_a_case_and_a_source() -> None:
    files = {path.name for path in CAPTURES.glob("*.lpec")}
    assert files == set(CASES)
    readme = (CAPTURES / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in files)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("chunk", [1, 7, 1 << 20], ids=["bytewise", "chunks", "whole"])
def test_replay(name: str, chunk: int) -> None:
    CASES[name](replay(name, chunk))
