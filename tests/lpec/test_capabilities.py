"""What the current source can do, derived from events as a device sends them."""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.linn.lpec import Capability, PlaybackState, Service, SourceType
from custom_components.linn.lpec.model import DeviceState
from custom_components.linn.lpec.reducers import apply_event

# Types as firmware spells them, plus the spellings the client must not trip over.
SOURCE_XML = (
    "<SourceList>"
    "<Source><Name>Playlist</Name><Type>playlist</Type><SystemName>Playlist</SystemName></Source>"
    "<Source><Name>Radio</Name><Type>RADIO</Type><SystemName>Radio</SystemName></Source>"
    "<Source><Name>Songcast</Name><Type>Receiver</Type><SystemName>Songcast</SystemName></Source>"
    "<Source><Name>Turntable</Name><Type>Analog</Type><SystemName>Analog 1</SystemName></Source>"
    "<Source><Name>Odd</Name><Type>Other</Type><SystemName>Odd</SystemName></Source>"
    "</SourceList>"
)
PLAYLIST, RADIO, RECEIVER, ANALOG, OTHER = range(5)
EVERY_CONTROL = ~Capability.NONE


def on_source(index: int, *services: Service) -> DeviceState:
    """A device with these services, on the source at `index` of SOURCE_XML."""
    state = dataclasses.replace(DeviceState(), services=frozenset({Service.PRODUCT, *services}))
    return apply_event(state, Service.PRODUCT, {"SourceXml": SOURCE_XML, "SourceIndex": str(index)})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Playlist", SourceType.PLAYLIST),
        ("playlist", SourceType.PLAYLIST),
        ("RADIO", SourceType.RADIO),
        ("rEcEiVeR", SourceType.RECEIVER),
        ("Analog", SourceType.OTHER),
        ("UpnpAv", SourceType.OTHER),
        ("Other", SourceType.OTHER),
        ("", SourceType.OTHER),
        (None, SourceType.OTHER),
    ],
)
def test_source_type_ignores_case_and_folds_the_rest_into_other(
    text: str | None, expected: SourceType
) -> None:
    assert SourceType.parse(text) is expected


def test_source_keeps_the_device_spelling_of_its_type() -> None:
    source = on_source(RADIO).product.source
    assert source is not None
    assert (source.type, source.kind) == ("RADIO", SourceType.RADIO)


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        (PLAYLIST, EVERY_CONTROL),
        (RADIO, Capability.PLAY | Capability.PAUSE | Capability.STOP),
        (RECEIVER, Capability.PLAY | Capability.STOP),
        (ANALOG, Capability.NONE),
        (OTHER, Capability.NONE),
    ],
)
def test_without_transport_the_source_type_decides(index: int, expected: Capability) -> None:
    state = on_source(index, Service.PLAYLIST, Service.RADIO, Service.RECEIVER)
    assert state.capabilities == expected


def test_no_source_yet_can_do_nothing() -> None:
    assert DeviceState().capabilities == Capability.NONE
    assert DeviceState().playback_state is None
    assert DeviceState().source_service is None


def test_with_transport_its_flags_decide() -> None:
    state = apply_event(
        on_source(RADIO, Service.TRANSPORT),
        Service.TRANSPORT,
        {"CanPause": "true", "CanSeek": "false", "CanSkipNext": "true", "CanRepeat": "false"},
    )
    assert state.capabilities == (
        Capability.PLAY | Capability.STOP | Capability.PAUSE | Capability.NEXT
    )


def test_with_transport_a_source_without_a_service_has_play_only_when_flagged() -> None:
    analog = on_source(ANALOG, Service.TRANSPORT)
    assert analog.capabilities == Capability.NONE
    flagged = apply_event(analog, Service.TRANSPORT, {"CanPause": "true"})
    assert flagged.capabilities == Capability.PLAY | Capability.STOP | Capability.PAUSE
    # a source type with its own service can always be played and stopped
    assert on_source(RECEIVER, Service.TRANSPORT).capabilities == (
        Capability.PLAY | Capability.STOP
    )


def test_playback_state_comes_from_transport_when_there_is_one() -> None:
    state = on_source(RADIO, Service.TRANSPORT, Service.RADIO)
    state = apply_event(state, Service.RADIO, {"TransportState": "Playing"})
    state = apply_event(state, Service.TRANSPORT, {"TransportState": "PAUSED"})
    assert state.playback_state is PlaybackState.PAUSED


@pytest.mark.parametrize(
    ("index", "service", "expected"),
    [
        (PLAYLIST, Service.PLAYLIST, PlaybackState.BUFFERING),
        (RADIO, Service.RADIO, PlaybackState.BUFFERING),
        (RECEIVER, Service.RECEIVER, PlaybackState.BUFFERING),
        (ANALOG, None, None),
    ],
)
def test_playback_state_without_transport_comes_from_the_current_source(
    index: int, service: Service | None, expected: PlaybackState | None
) -> None:
    state = on_source(index, Service.PLAYLIST, Service.RADIO, Service.RECEIVER)
    for each in (Service.PLAYLIST, Service.RADIO, Service.RECEIVER):
        value = "buffering" if each is service else "Stopped"
        state = apply_event(state, each, {"TransportState": value})
    assert state.source_service is service
    assert state.playback_state is expected


def test_unknown_playback_state_is_unknown_not_an_error() -> None:
    state = apply_event(on_source(RADIO, Service.RADIO), Service.RADIO, {"TransportState": "Gone"})
    assert state.playback_state is None


@pytest.mark.parametrize(
    ("index", "uri", "transport_state", "expected"),
    [
        (RECEIVER, "ohz://239.255.255.250:51972/abc", "PLAYING", True),
        (RECEIVER, "ohz://239.255.255.250:51972/abc", "Buffering", True),
        (RECEIVER, "ohz://239.255.255.250:51972/abc", "Stopped", False),
        (RECEIVER, "", "Playing", False),
        (RADIO, "ohz://239.255.255.250:51972/abc", "Playing", False),
    ],
)
def test_is_listening(index: int, uri: str, transport_state: str, expected: bool) -> None:
    state = apply_event(
        on_source(index, Service.RECEIVER),
        Service.RECEIVER,
        {"Uri": uri, "TransportState": transport_state},
    )
    assert state.is_listening is expected
