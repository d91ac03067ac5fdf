"""LinnDevice's lists: pins, radio presets and playlist tracks: read them, play one."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
import dataclasses
from typing import TYPE_CHECKING

from .capabilities import SourceType
from .didl import TrackMetadata, build_didl
from .errors import LpecInvalidArgumentError, LpecProtocolError
from .lists import parse_channel_list, parse_pin_list
from .model import EMPTY_SLOT, DeviceState, Pin, RadioPreset
from .services import Service

PLAYLIST_READ_IDS = 50
"""Ids per Playlist ReadList: about 550 bytes of request (the cap is MAX_REQUEST_BYTES) and
some 50-100 kB of DIDL-Lite back."""


class ListCommands:
    """The pins, radio presets and playlist commands of LinnDevice (a mixin of it)."""

    if TYPE_CHECKING:  # what LinnDevice provides
        _state: DeviceState

        async def action(
            self, service: Service, name: str, *args: str, version: int | None = None
        ) -> tuple[str, ...]:
            """Run an ACTION on a present service (LinnDevice.action)."""

        def _require(self, service: Service) -> None: ...
        def _notify(self, changed: frozenset[Service]) -> None: ...
        async def _select_source_of_type(self, source_type: SourceType) -> None: ...

    # --- pins ---------------------------------------------------------------------

    async def read_pins(self) -> tuple[Pin, ...]:
        """Read the details of every pin (ReadList); also stored in state.pins.pins."""
        ids = self._state.pins.ids
        self._require(Service.PINS)
        if not ids:
            return ()
        (json_list,) = await _expect(
            1, self.action(Service.PINS, "ReadList", "[" + ",".join(map(str, ids)) + "]")
        )
        pins = tuple(pin for pin in parse_pin_list(json_list) if pin.id != EMPTY_SLOT)
        self._set_pins(pins)
        return pins

    def _set_pins(self, pins: tuple[Pin, ...]) -> None:
        self._state = dataclasses.replace(
            self._state, pins=dataclasses.replace(self._state.pins, pins=pins)
        )
        self._notify(frozenset({Service.PINS}))

    async def invoke_pin(self, pin_id: int) -> None:
        """Invoke a pin by its id; an empty slot (id 0) or an unknown id is refused."""
        pins = self._state.pins
        if pin_id == EMPTY_SLOT:
            raise LpecInvalidArgumentError("pin id 0 is an empty pin slot")
        if pins.slots and pin_id not in pins.ids:
            raise LpecInvalidArgumentError(f"unknown pin id {pin_id}")
        self._refuse_empty_pin(pin_id, f"pin {pin_id}")
        await self.action(Service.PINS, "InvokeId", str(pin_id))

    def _refuse_empty_pin(self, pin_id: int, name: str) -> None:
        """A pin read (ReadList) with no mode is empty: the device refuses it (803).

        Firmware gives an empty slot id 0, but where every pin has an id of its own
        (the wiki's variant) only its details show that it is empty.
        """
        if any(pin.id == pin_id and not pin.mode for pin in self._state.pins.pins):
            raise LpecInvalidArgumentError(f"{name} is empty")

    async def invoke_pin_index(self, index: int) -> None:
        """Invoke a pin by its 0-based slot; an empty slot is refused."""
        slots = self._state.pins.slots
        count = len(slots)
        if index < 0 or (count and index >= count):
            raise LpecInvalidArgumentError(f"pin index {index} out of range 0..{count - 1}")
        if count and slots[index] == EMPTY_SLOT:
            raise LpecInvalidArgumentError(f"pin {index + 1} is empty")
        if count:
            self._refuse_empty_pin(slots[index], f"pin {index + 1}")
        await self.action(Service.PINS, "InvokeIndex", str(index))

    # --- radio --------------------------------------------------------------------

    async def read_presets(self) -> tuple[RadioPreset, ...]:
        """Read every radio preset (ReadList); also stored in state.radio.presets."""
        self._require(Service.RADIO)
        ids = self._state.radio.ids
        if not ids:
            return ()
        (xml,) = await _expect(1, self.action(Service.RADIO, "ReadList", " ".join(map(str, ids))))
        presets = parse_channel_list(xml)
        self._state = dataclasses.replace(
            self._state, radio=dataclasses.replace(self._state.radio, presets=presets)
        )
        self._notify(frozenset({Service.RADIO}))
        return presets

    async def play_preset(self, preset_id: int) -> None:
        """Play a radio preset: select the Radio source, SetId, Play (not an empty slot)."""
        self._require(Service.RADIO)
        if preset_id == EMPTY_SLOT:
            raise LpecInvalidArgumentError("radio preset 0 is an empty slot")
        if preset_id not in self._state.radio.ids:
            raise LpecInvalidArgumentError(f"unknown radio preset {preset_id}")
        preset = next((p for p in self._state.radio.presets if p.id == preset_id), None)
        if preset is None:
            preset = next((p for p in await self.read_presets() if p.id == preset_id), None)
        uri = preset.uri if preset is not None and preset.uri else ""
        await self._select_source_of_type(SourceType.RADIO)
        await self.action(Service.RADIO, "SetId", str(preset_id), uri)
        await self.action(Service.RADIO, "Play")

    # --- playlist -----------------------------------------------------------------

    async def play_url(self, uri: str, title: str = "Home Assistant") -> int:
        """Insert `uri` after the current playlist track, play it; return its new id."""
        self._require(Service.PLAYLIST)
        if not uri:
            raise LpecInvalidArgumentError("empty URL")
        after = self._state.playlist.current_id or 0
        (new_id_text,) = await _expect(
            1, self.action(Service.PLAYLIST, "Insert", str(after), uri, build_didl(title, uri))
        )
        try:
            new_id = int(new_id_text)
        except ValueError:
            raise LpecProtocolError(f"Insert returned a non-numeric id {new_id_text!r}") from None
        await self._select_source_of_type(SourceType.PLAYLIST)
        await self.action(Service.PLAYLIST, "SeekId", str(new_id))
        return new_id

    async def read_playlist(self, ids: Sequence[int]) -> dict[int, TrackMetadata]:
        """The metadata of these Playlist tracks by id (ReadList).

        In requests of at most PLAYLIST_READ_IDS ids; an id the playlist no longer holds is
        left out (ohPipeline skips unknown ids).
        """
        self._require(Service.PLAYLIST)
        tracks: dict[int, TrackMetadata] = {}
        for start in range(0, len(ids), PLAYLIST_READ_IDS):
            chunk = " ".join(str(track_id) for track_id in ids[start : start + PLAYLIST_READ_IDS])
            (xml,) = await _expect(1, self.action(Service.PLAYLIST, "ReadList", chunk))
            # a TrackList has the Entry/Id/Uri/Metadata shape of Radio's ChannelList
            for entry in parse_channel_list(xml):
                tracks[entry.id] = entry.metadata
        return tracks

    async def play_playlist_track(self, track_id: int) -> None:
        """Play the Playlist track with this id (SeekId); the queue stays as it is."""
        self._require(Service.PLAYLIST)
        if track_id not in self._state.playlist.ids:
            raise LpecInvalidArgumentError(f"track {track_id} is not in the playlist")
        await self._select_source_of_type(SourceType.PLAYLIST)
        await self.action(Service.PLAYLIST, "SeekId", str(track_id))


async def _expect(count: int, awaitable: Awaitable[tuple[str, ...]]) -> tuple[str, ...]:
    values = await awaitable
    if len(values) < count:
        raise LpecProtocolError(f"expected {count} out-arguments, got {len(values)}")
    return values[:count]
