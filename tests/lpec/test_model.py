"""Device model: DIDL-Lite, SourceXml, id arrays, ReadList answers and event reducers."""

from __future__ import annotations

import logging
import time

from hypothesis import given, strategies as st
import pytest

from custom_components.linn.lpec.didl import (
    EMPTY_METADATA,
    build_didl,
    parse_didl,
    parse_duration,
    parse_metatext,
)
from custom_components.linn.lpec.idarray import parse_base64_ids, parse_json_ids
from custom_components.linn.lpec.lists import parse_channel_list, parse_pin_list
from custom_components.linn.lpec.model import DeviceState, TimeState
from custom_components.linn.lpec.ratelimit import RateLimitedLog
from custom_components.linn.lpec.reducers import apply_event
from custom_components.linn.lpec.services import Service
from custom_components.linn.lpec.sources import parse_source_xml

DIDL = (
    '<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">'
    '<item id="1" parentID="0" restricted="True">'
    "<dc:title>Bridge Over Troubled Water</dc:title>"
    '<upnp:artist role="Performer">Simon &amp; Garfunkel</upnp:artist>'
    '<upnp:artist role="Composer">Paul Simon</upnp:artist>'
    "<upnp:album>&quot;Bridge&quot;</upnp:album>"
    "<upnp:albumArtURI>http://host/art.jpg?a=1&amp;b=2</upnp:albumArtURI>"
    '<res duration="0:04:52.000" protocolInfo="http-get:*:audio/x-flac:*">'
    "http://host/01.flac</res>"
    "<upnp:class>object.item.audioItem.musicTrack</upnp:class>"
    "</item></DIDL-Lite>"
)

SOURCE_XML = (
    "<SourceList>"
    "<Source><Name>Playlist</Name><Type>Playlist</Type><Visible>true</Visible>"
    "<SystemName>Playlist</SystemName></Source>"
    "<Source><Name>Digital 1</Name><Type>Digital</Type><Visible>false</Visible>"
    "<SystemName>Digital 1</SystemName></Source>"
    "<Source><Name>Turntable</Name><Type>Analog</Type><Visible>1</Visible>"
    "<SystemName>Analog 1</SystemName></Source>"
    "</SourceList>"
)


def test_parse_didl() -> None:
    track = parse_didl(DIDL)
    assert track.title == "Bridge Over Troubled Water"
    assert track.artists == ("Simon & Garfunkel", "Paul Simon")
    assert track.artist == "Simon & Garfunkel"
    assert track.album == '"Bridge"'
    assert track.album_art_uri == "http://host/art.jpg?a=1&b=2"
    assert track.duration == 292.0
    assert track.uri == "http://host/01.flac"


def test_bad_didl_gives_empty_metadata() -> None:
    assert parse_didl("<DIDL-Lite><item>") is EMPTY_METADATA
    assert parse_didl("") is EMPTY_METADATA
    assert parse_didl("not xml at all") is EMPTY_METADATA
    assert parse_didl("<DIDL-Lite/>") is EMPTY_METADATA
    bomb = '<!DOCTYPE x [<!ENTITY a "aaaa">]><DIDL-Lite><item><title>&a;</title></item></DIDL-Lite>'
    assert parse_didl(bomb) is EMPTY_METADATA


@given(st.text(max_size=200))
def test_didl_parser_never_raises(text: str) -> None:
    parse_didl(text)
    parse_source_xml(text)
    parse_channel_list(text)
    parse_pin_list(text)
    parse_metatext(text)


def test_build_didl_round_trip() -> None:
    track = parse_didl(build_didl('Tom & "Jerry" <live>', "http://x/a?b=1&c=2"))
    assert track.title == 'Tom & "Jerry" <live>'
    assert track.uri == "http://x/a?b=1&c=2"


def test_parse_duration() -> None:
    assert parse_duration("1:02:03.5") == 3723.5
    assert parse_duration("bogus") is None
    assert parse_duration("a:b:c") is None
    assert parse_duration(None) is None


def test_metatext_plain_or_didl() -> None:
    assert parse_metatext("Björk - Jóga") == "Björk - Jóga"
    assert parse_metatext(DIDL) == "Simon & Garfunkel - Bridge Over Troubled Water"
    assert parse_metatext("  ") is None


@pytest.mark.parametrize(
    "text", ["<3 Love Song - The Band", "<INFORMATION> a station's text", "<Live> Jóga", "<<>>"]
)
def test_metatext_that_starts_with_a_bracket_is_plain_text(text: str) -> None:
    """Only a DIDL-Lite document is parsed; other text starting with '<' was lost before."""
    assert parse_metatext(text) == text


def test_metatext_didl_with_an_xml_declaration_or_prefix() -> None:
    assert parse_metatext('<?xml version="1.0"?>' + DIDL) == parse_metatext(DIDL)
    assert parse_metatext("<DIDL-Lite><item><title>broken") is None


def test_parse_source_xml() -> None:
    sources = parse_source_xml(SOURCE_XML)
    assert [(s.index, s.system_name, s.name, s.type, s.visible) for s in sources] == [
        (0, "Playlist", "Playlist", "Playlist", True),
        (1, "Digital 1", "Digital 1", "Digital", False),
        (2, "Analog 1", "Turntable", "Analog", True),
    ]
    assert parse_source_xml("<SourceList><Source>") == ()


def test_id_arrays_tolerate_garbage() -> None:
    assert parse_base64_ids("!!!") == ()
    assert parse_base64_ids("") == ()
    assert parse_json_ids('[1, 2, true, "x", 3]') == (1, 2, 3)
    assert parse_json_ids("{") == ()
    assert parse_json_ids('{"a": 1}') == ()


def test_parse_pin_list_any_key_case() -> None:
    pins = parse_pin_list(
        '[{"id": 1, "title": "Radio 3", "artworkUri": "http://a", "mode": "radio", '
        '"type": "preset", "uri": "radio://1"}, {"Id": 2, "Title": "Album"}, {"title": "no id"}]'
    )
    assert [(p.id, p.title, p.artwork_uri, p.mode) for p in pins] == [
        (1, "Radio 3", "http://a", "radio"),
        (2, "Album", None, ""),
    ]
    assert parse_pin_list("not json") == ()


def test_parse_channel_list() -> None:
    escaped = DIDL.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    xml = f"<ChannelList><Entry><Id>4</Id><Metadata>{escaped}</Metadata></Entry></ChannelList>"
    (preset,) = parse_channel_list(xml)
    assert preset.id == 4
    assert preset.uri == "http://host/01.flac"
    assert preset.title == "Bridge Over Troubled Water"


def test_malformed_pin_lists_give_only_the_usable_pins() -> None:
    assert parse_pin_list('{"id": 1}') == ()  # an object, not a list
    assert parse_pin_list("null") == ()
    pins = parse_pin_list('[7, "x", null, {"id": true}, {"id": "3"}, {"id": 4, "title": 5}]')
    assert [(p.id, p.title) for p in pins] == [(4, "")]  # non-string fields become ""


def test_malformed_channel_lists_skip_bad_entries() -> None:
    xml = (
        '<ChannelList xmlns="urn:x"><Comment>ignore me</Comment>'
        "<Entry><Id>seven</Id></Entry>"
        "<Entry><Metadata /></Entry>"
        "<Entry><Id>2</Id><Uri>http://r/2</Uri></Entry></ChannelList>"
    )
    (preset,) = parse_channel_list(xml)
    assert (preset.id, preset.uri) == (2, "http://r/2")
    assert parse_channel_list("<ChannelList><Entry>") == ()
    assert parse_channel_list("") == ()


def test_reducer_product_and_unchanged_state_is_same_object() -> None:
    state = apply_event(
        DeviceState(),
        Service.PRODUCT,
        {"ProductRoom": "Lounge", "Standby": "false", "SourceXml": SOURCE_XML, "SourceIndex": "2"},
    )
    assert state.product.room == "Lounge"
    assert state.product.standby is False
    assert state.product.source is not None
    assert state.product.source.system_name == "Analog 1"
    assert [s.name for s in state.product.visible_sources] == ["Playlist", "Turntable"]
    assert apply_event(state, Service.PRODUCT, {"ProductRoom": "Lounge"}) is state
    assert apply_event(state, Service.PRODUCT, {"Unknown": "x"}) is state


def test_reducer_skips_bad_values_and_keeps_the_rest() -> None:
    state = apply_event(DeviceState(), Service.VOLUME, {"Volume": "loud", "Mute": "true"})
    assert state.volume.volume is None
    assert state.volume.mute is True


def test_reducer_time_stamps_seconds() -> None:
    before = time.monotonic()
    state = apply_event(DeviceState(), Service.TIME, {"Duration": "300", "Seconds": "12"})
    assert state.time.seconds == 12
    assert state.time.seconds_updated_at is not None
    assert state.time.seconds_updated_at >= before
    position = state.time.position(state.time.seconds_updated_at + 2.5)
    assert position == 14.5


def test_reducer_sender_uri_from_metadata() -> None:
    state = apply_event(DeviceState(), Service.SENDER, {"Metadata": DIDL, "Status": "Enabled"})
    assert state.sender.uri == "http://host/01.flac"
    assert state.sender.metadata == DIDL


def test_volume_ceiling() -> None:
    state = apply_event(DeviceState(), Service.VOLUME, {"VolumeMax": "100", "VolumeLimit": "80"})
    assert state.volume.ceiling == 80


def test_position_without_a_timestamp_is_the_raw_seconds() -> None:
    assert TimeState().position() is None
    assert TimeState(seconds=12).position(now=100.0) == 12
    assert TimeState(seconds=12, seconds_updated_at=90.0).position(now=100.0) == 22
    assert TimeState(seconds=12, seconds_updated_at=110.0).position(now=100.0) == 12


def test_source_xml_skips_other_elements() -> None:
    xml = (
        "<SourceXml><Comment>x</Comment><Source><Name>Radio</Name><Type>Radio</Type>"
        "</Source></SourceXml>"
    )
    (source,) = parse_source_xml(xml)
    assert (source.index, source.system_name, source.type, source.visible) == (
        0,
        "Radio",
        "Radio",
        True,
    )


def test_rate_limited_log_counts_what_it_suppressed(caplog: pytest.LogCaptureFixture) -> None:
    log = RateLimitedLog(logging.getLogger("tests.lpec.ratelimit"), interval=0.05)
    with caplog.at_level(logging.WARNING, logger="tests.lpec.ratelimit"):
        log.warning("bad %s", 1)
        log.warning("bad %s", 2)
        log.warning("bad %s", 3)
        time.sleep(0.06)
        log.warning("bad %s", 4)
    assert [r.getMessage() for r in caplog.records] == [
        "bad 1",
        "(2 similar messages suppressed)",
        "bad 4",
    ]
