"""Device behaviour: every state change goes through here and ends in `changed()`.

Services (the wire-facing view) and the front panel call these methods; listeners
(the LPEC server) are told after each change and diff the service variables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
import random

from . import catalog
from .didl import icy_didl
from .errors import (
    ID_NOT_FOUND,
    INVALID_SOURCE,
    NOT_AVAILABLE,
    OUT_OF_RANGE,
    PIN_ID_NOT_FOUND,
    PIN_INDEX_OUT_OF_RANGE,
    PIN_MODE_NOT_SUPPORTED,
    PIN_NOTHING_TO_PLAY,
    PLAYLIST_FULL,
    DeviceError,
)
from .model import (
    EmulatedDeviceState,
    NowPlaying,
    PlaybackState,
    PlaylistEntry,
    SourceType,
    Track,
)
from .quirks import Quirk

SENDER_PORT = 51972
SENDER_GROUP = "239.255.255.250"
EXTERNAL_TYPES = frozenset({SourceType.ANALOG, SourceType.DIGITAL, SourceType.HDMI})

# Songcast senders by URI, so a receiver in the same process can follow its sender.
_SENDERS: dict[str, Device] = {}


class Capabilities:
    """Transport capabilities of the current source."""

    __slots__ = ("pause", "repeat", "seek", "shuffle", "skip_next", "skip_previous")

    def __init__(
        self,
        *,
        pause: bool = False,
        skip: bool = False,
        repeat: bool = False,
        shuffle: bool = False,
        seek: bool = False,
    ) -> None:
        self.pause = pause
        self.skip_next = skip
        self.skip_previous = skip
        self.repeat = repeat
        self.shuffle = shuffle
        self.seek = seek


class Device:
    """A Linn DSM's behaviour, without any wire protocol."""

    def __init__(self, state: EmulatedDeviceState, *, services: frozenset[str]) -> None:
        self.state = state
        self.services = services
        self._listeners: list[Callable[[], None]] = []
        self._notifying = False
        self._random = random.Random(state.udn)
        now = self.now_playing()
        self._last_track = (now.uri, now.metadata)
        self._last_metatext = now.metatext

    # --- plumbing -------------------------------------------------------------

    @property
    def sender_uri(self) -> str:
        """Songcast URI other devices' Receiver.SetSender takes."""
        return f"ohz://{SENDER_GROUP}:{SENDER_PORT}/{self.state.udn}"

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every state change."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[], None]) -> None:
        """Stop calling `listener`."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def register_sender(self) -> None:
        """Make this device's Songcast sender reachable by receivers in this process."""
        _SENDERS[self.sender_uri] = self

    def unregister_sender(self) -> None:
        """Forget the sender (the device is off)."""
        if _SENDERS.get(self.sender_uri) is self:
            del _SENDERS[self.sender_uri]
        for follower in self._followers():
            follower.changed()

    def _sender(self) -> Device | None:
        sender = _SENDERS.get(self.state.receiver_uri)
        return None if sender is self else sender

    def _followers(self) -> list[Device]:
        return [
            device
            for device in list(_SENDERS.values())
            if device is not self and device.state.receiver_uri == self.sender_uri
        ]

    def changed(self) -> None:
        """Update counters, then tell listeners and Songcast receivers following us."""
        if self._notifying:
            return
        self._notifying = True
        try:
            if self.state.source.type is SourceType.RECEIVER:
                self.state.transport_state = self.transport_state()
            now = self.now_playing()
            track = (now.uri, now.metadata)
            if track != self._last_track:
                self._last_track = track
                self.state.track_count += 1
                self.state.details_count += 1
                self.state.stream_id += 1
            if now.metatext != self._last_metatext:
                self._last_metatext = now.metatext
                self.state.metatext_count += 1
            for listener in list(self._listeners):
                listener()
            for follower in self._followers():
                follower.changed()
        finally:
            self._notifying = False

    # --- derived values -------------------------------------------------------

    def transport_state_of(self, source_type: SourceType) -> PlaybackState:
        """What a source's own service reports: its state while current, else Stopped."""
        if self.state.source.type is source_type:
            return self.transport_state()
        return PlaybackState.STOPPED

    def transport_state(self, _depth: int = 0) -> PlaybackState:
        """TransportState of the current source."""
        state = self.state
        if state.source.type is SourceType.RECEIVER:
            if not state.receiver_active or state.standby:
                return PlaybackState.STOPPED
            sender = self._sender()
            if (
                sender is not None
                and _depth < 4
                and not sender.state.standby
                and sender.transport_state(_depth + 1) is PlaybackState.PLAYING
            ):
                return PlaybackState.PLAYING
            return PlaybackState.WAITING
        return state.transport_state

    def capabilities(self) -> Capabilities:
        """Return what the current source allows (Transport Can* variables)."""
        match self.state.source.type:
            case SourceType.PLAYLIST:
                return Capabilities(pause=True, skip=True, repeat=True, shuffle=True, seek=True)
            case SourceType.SPOTIFY:
                return Capabilities(pause=True, skip=True)
            case _:
                return Capabilities()

    def now_playing(self, _depth: int = 0) -> NowPlaying:
        """Return what Info reports for the current source."""
        state = self.state
        now = NowPlaying()
        match state.source.type:
            case SourceType.PLAYLIST:
                entry = state.current_entry
                if entry is not None:
                    now = NowPlaying.of(entry.track)
            case SourceType.RADIO:
                channel = state.current_channel
                if channel is not None and channel.track.uri == state.radio_uri:
                    metatext = channel.metatext
                    if metatext and Quirk.ICY_METATEXT in state.quirks:
                        metatext = icy_didl(metatext)
                    now = NowPlaying.of(channel.track, metatext)
                elif state.radio_uri:
                    now = NowPlaying(uri=state.radio_uri, metadata=state.radio_metadata)
            case SourceType.RECEIVER:
                sender = self._sender()
                if (
                    sender is not None
                    and _depth < 4
                    and self.transport_state() is PlaybackState.PLAYING
                ):
                    now = sender.now_playing(_depth + 1)
                elif state.receiver_uri:
                    now = NowPlaying(uri=state.receiver_uri, metadata=state.receiver_metadata)
            case SourceType.SPOTIFY:
                if state.spotify_track is not None:
                    now = NowPlaying.of(state.spotify_track)
            case _:
                source = state.source
                now = NowPlaying(
                    metadata=Track(uri="", title=source.name, upnp_class="object.item").didl(),
                    bit_depth=24,
                    sample_rate=192000 if source.type is not SourceType.ANALOG else 96000,
                    lossless=True,
                    codec="PCM",
                )
        override = state.metadata_override
        if override is not None:
            # The text is replaced; the stream (duration, format) stays the track's.
            now = replace(
                now,
                uri=override.uri or now.uri,
                metadata=override.metadata,
                duration=override.duration or now.duration,
                metatext=override.metatext,
            )
        if state.metatext_override is not None:
            now = replace(now, metatext=state.metatext_override)
        return now

    def position(self, _depth: int = 0) -> tuple[int, int]:
        """(Duration, Seconds) for Time; a receiver reports its sender's."""
        if self.state.source.type is SourceType.RECEIVER:
            sender = self._sender()
            if (
                sender is not None
                and _depth < 4
                and self.transport_state() is PlaybackState.PLAYING
            ):
                return sender.position(_depth + 1)
            return (0, 0)
        return (self.now_playing().duration, self.state.seconds)

    # --- product --------------------------------------------------------------

    def set_standby(self, value: bool) -> None:
        """Enter or leave standby; entering it stops playback."""
        state = self.state
        if value and state.transport_state in (PlaybackState.PLAYING, PlaybackState.PAUSED):
            state.transport_state = PlaybackState.STOPPED
            state.seconds = 0
        if value:
            state.receiver_active = False
        state.standby = value
        if not value and state.source.type in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.PLAYING
        self.changed()

    def configure_source(
        self, system_name: str, *, name: str | None = None, visible: bool | None = None
    ) -> None:
        """Konfig: rename or hide a source (SourceXml changes, indices do not)."""
        state = self.state
        for index, source in enumerate(state.sources):
            if source.system_name == system_name:
                state.sources[index] = replace(
                    source,
                    name=source.name if name is None else name,
                    visible=source.visible if visible is None else visible,
                )
                state.source_xml_change_count += 1
                self.changed()
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source {system_name!r}")

    def set_identity(self, *, room: str | None = None, name: str | None = None) -> None:
        """Konfig: rename the room or the product."""
        if room is not None:
            self.state.room = room
        if name is not None:
            self.state.name = name
        self.changed()

    def _leave_standby(self) -> None:
        self.state.standby = False

    def select_source_index(self, index: int) -> None:
        """Select a source by index (hidden sources count); leaves standby."""
        state = self.state
        if not 0 <= index < len(state.sources):
            raise DeviceError(INVALID_SOURCE, f"Invalid source index {index}")
        self._leave_standby()
        if index != state.source_index:
            state.source_index = index
            state.seconds = 0
            state.metadata_override = None
            state.metatext_override = None
            state.receiver_active = False
            state.transport_state = PlaybackState.STOPPED
        if state.source.type in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.PLAYING
        self.changed()

    def select_source(self, system_name: str) -> None:
        """Select a source by its fixed system name."""
        for index, source in enumerate(self.state.sources):
            if source.system_name == system_name:
                self.select_source_index(index)
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source {system_name!r}")

    def select_source_by_name(self, name: str) -> None:
        """Select a source by its user-facing name."""
        for index, source in enumerate(self.state.sources):
            if source.name == name:
                self.select_source_index(index)
                return
        raise DeviceError(INVALID_SOURCE, f"Invalid source name {name!r}")

    def _select_type(self, kind: SourceType) -> None:
        if self.state.source.type is kind:
            self._leave_standby()
            return
        for index, source in enumerate(self.state.sources):
            if source.type is kind:
                self._leave_standby()
                self.state.source_index = index
                self.state.seconds = 0
                self.state.metadata_override = None
                self.state.metatext_override = None
                self.state.transport_state = PlaybackState.STOPPED
                return
        raise DeviceError(INVALID_SOURCE, f"No {kind} source")

    # --- volume ---------------------------------------------------------------

    def set_volume(self, value: int, *, unmute: bool = True) -> None:
        """Set the volume, clamped to [0, VolumeLimit]."""
        state = self.state
        state.volume = max(0, min(value, state.volume_limit, state.volume_max))
        if unmute:
            state.mute = False
        self.changed()

    def set_mute(self, value: bool) -> None:
        """Mute or unmute."""
        self.state.mute = value
        self.changed()

    def set_volume_limit(self, value: int) -> None:
        """Change VolumeLimit (a Konfig setting); the volume follows it down."""
        state = self.state
        state.volume_limit = max(0, min(value, state.volume_max))
        state.volume = min(state.volume, state.volume_limit)
        self.changed()

    def set_balance(self, value: int) -> None:
        """Set the balance within [-BalanceMax, BalanceMax]."""
        if abs(value) > self.state.balance_max:
            raise DeviceError(OUT_OF_RANGE, f"Balance {value} out of range")
        self.state.balance = value
        self.changed()

    def set_fade(self, value: int) -> None:
        """Set the fade within [-FadeMax, FadeMax]."""
        if abs(value) > self.state.fade_max:
            raise DeviceError(OUT_OF_RANGE, f"Fade {value} out of range")
        self.state.fade = value
        self.changed()

    # --- transport (current source) -------------------------------------------

    def play(self) -> None:
        """Play the current source."""
        state = self.state
        self._leave_standby()
        match state.source.type:
            case SourceType.PLAYLIST:
                self._playlist_play()
            case SourceType.RADIO:
                self._radio_play()
            case SourceType.RECEIVER:
                state.receiver_active = True
            case SourceType.SPOTIFY:
                if state.spotify_track is None:
                    state.spotify_track = catalog.spotify_track()
                state.transport_state = PlaybackState.PLAYING
            case _:
                state.transport_state = PlaybackState.PLAYING
        self.changed()

    def pause(self) -> None:
        """Pause (only where CanPause)."""
        if not self.capabilities().pause:
            raise DeviceError(NOT_AVAILABLE, "Pause not available for this source")
        if self.state.transport_state is PlaybackState.PLAYING:
            self.state.transport_state = PlaybackState.PAUSED
        self.changed()

    def stop(self) -> None:
        """Stop the current source."""
        state = self.state
        if state.source.type is SourceType.RECEIVER:
            state.receiver_active = False
        elif state.source.type not in EXTERNAL_TYPES:
            state.transport_state = PlaybackState.STOPPED
        state.seconds = 0
        self.changed()

    def next(self) -> None:
        """Skip to the next track (only where CanSkipNext)."""
        if not self.capabilities().skip_next:
            raise DeviceError(NOT_AVAILABLE, "SkipNext not available for this source")
        if self.state.source.type is SourceType.PLAYLIST:
            self._playlist_advance(forward=True, at_end_of_track=False)
        else:
            self.state.seconds = 0
        self.changed()

    def previous(self) -> None:
        """Skip to the previous track (only where CanSkipPrevious)."""
        if not self.capabilities().skip_previous:
            raise DeviceError(NOT_AVAILABLE, "SkipPrevious not available for this source")
        if self.state.source.type is SourceType.PLAYLIST:
            self._playlist_advance(forward=False, at_end_of_track=False)
        else:
            self.state.seconds = 0
        self.changed()

    def set_shuffle(self, value: bool) -> None:
        """Playlist shuffle."""
        self.state.shuffle = value
        self.changed()

    def set_repeat(self, value: bool) -> None:
        """Playlist repeat."""
        self.state.repeat = value
        self.changed()

    def seek_second_absolute(self, second: int) -> None:
        """Seek within the current track."""
        if not self.capabilities().seek:
            raise DeviceError(NOT_AVAILABLE, "Seek not available for this source")
        duration = self.now_playing().duration
        if second < 0 or (duration and second > duration):
            raise DeviceError(OUT_OF_RANGE, f"Seek to {second} s outside 0..{duration}")
        self.state.seconds = second
        self.changed()

    def seek_second_relative(self, delta: int) -> None:
        """Seek relative to the current position."""
        self.seek_second_absolute(self.state.seconds + delta)

    def tick(self) -> None:
        """One second of playback: advance Seconds, move on at the end of a track."""
        state = self.state
        if state.standby or state.transport_state is not PlaybackState.PLAYING:
            return
        kind = state.source.type
        if kind not in (SourceType.PLAYLIST, SourceType.RADIO, SourceType.SPOTIFY):
            return
        state.seconds += 1
        duration = self.now_playing().duration
        if duration and state.seconds >= duration:
            if kind is SourceType.PLAYLIST:
                self._playlist_advance(forward=True, at_end_of_track=True)
            else:
                state.seconds = 0
        self.changed()

    # --- playlist -------------------------------------------------------------

    def _playlist_play(self) -> None:
        state = self.state
        if state.current_entry is None and state.playlist:
            state.playlist_id = state.playlist[0].id
            state.seconds = 0
        if state.current_entry is not None:
            state.transport_state = PlaybackState.PLAYING
        else:
            state.transport_state = PlaybackState.STOPPED

    def playlist_play(self) -> None:
        """Playlist.Play: selects the Playlist source too."""
        self._select_type(SourceType.PLAYLIST)
        self._playlist_play()
        self.changed()

    def _playlist_index(self) -> int:
        return next(
            (i for i, e in enumerate(self.state.playlist) if e.id == self.state.playlist_id), -1
        )

    def _playlist_advance(self, *, forward: bool, at_end_of_track: bool) -> None:
        state = self.state
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        if not state.playlist:
            state.playlist_id = 0
            state.transport_state = PlaybackState.STOPPED
            return
        index = self._playlist_index()
        count = len(state.playlist)
        if state.shuffle and count > 1 and forward:
            choices = [i for i in range(count) if i != index]
            state.playlist_id = state.playlist[self._random.choice(choices)].id
            state.transport_state = PlaybackState.PLAYING
            return
        new = index + 1 if forward else index - 1
        if new >= count:
            if state.repeat:
                new = 0
            else:
                state.playlist_id = state.playlist[0].id
                state.transport_state = PlaybackState.STOPPED
                return
        elif new < 0:
            new = count - 1 if state.repeat else 0
        state.playlist_id = state.playlist[new].id
        if not at_end_of_track or state.transport_state is PlaybackState.PLAYING:
            state.transport_state = PlaybackState.PLAYING

    def playlist_insert(self, after_id: int, track: Track) -> int:
        """Insert after `after_id` (0 = at the start); returns the new id."""
        state = self.state
        if len(state.playlist) >= state.tracks_max:
            raise DeviceError(PLAYLIST_FULL)
        if after_id == 0:
            position = 0
        else:
            position = next((i + 1 for i, e in enumerate(state.playlist) if e.id == after_id), -1)
            if position < 0:
                raise DeviceError(ID_NOT_FOUND, f"Id {after_id} not found")
        new_id = state.next_playlist_id
        state.next_playlist_id += 1
        state.playlist.insert(position, PlaylistEntry(new_id, track))
        state.playlist_token += 1
        self.changed()
        return new_id

    def playlist_entry(self, entry_id: int) -> PlaylistEntry:
        """Return the entry with this id."""
        for entry in self.state.playlist:
            if entry.id == entry_id:
                return entry
        raise DeviceError(ID_NOT_FOUND, f"Id {entry_id} not found")

    def playlist_delete(self, entry_id: int) -> None:
        """Delete one entry; deleting the current one moves to the next."""
        state = self.state
        entry = self.playlist_entry(entry_id)
        index = state.playlist.index(entry)
        state.playlist.remove(entry)
        state.playlist_token += 1
        if entry_id == state.playlist_id:
            state.seconds = 0
            if index < len(state.playlist):
                state.playlist_id = state.playlist[index].id
            else:
                state.playlist_id = 0
                state.transport_state = PlaybackState.STOPPED
        self.changed()

    def playlist_delete_all(self) -> None:
        """Empty the playlist (stops it)."""
        state = self.state
        state.playlist.clear()
        state.playlist_id = 0
        state.playlist_token += 1
        state.seconds = 0
        if state.source.type is SourceType.PLAYLIST:
            state.transport_state = PlaybackState.STOPPED
        self.changed()

    def playlist_seek_id(self, entry_id: int) -> None:
        """Play the entry with this id (selects the Playlist source)."""
        self.playlist_entry(entry_id)
        self._select_type(SourceType.PLAYLIST)
        state = self.state
        state.playlist_id = entry_id
        state.seconds = 0
        state.metadata_override = None
        state.metatext_override = None
        state.transport_state = PlaybackState.PLAYING
        self.changed()

    def playlist_seek_index(self, index: int) -> None:
        """Play the entry at this index."""
        if not 0 <= index < len(self.state.playlist):
            raise DeviceError(OUT_OF_RANGE, f"Index {index} out of range")
        self.playlist_seek_id(self.state.playlist[index].id)

    def playlist_load(self, tracks: list[Track], *, shuffle: bool) -> None:
        """Replace the playlist with these tracks and play the first."""
        state = self.state
        state.playlist.clear()
        for track in tracks:
            state.playlist.append(PlaylistEntry(state.next_playlist_id, track))
            state.next_playlist_id += 1
        state.playlist_token += 1
        state.shuffle = shuffle
        state.playlist_id = 0
        self.playlist_play()

    # --- radio ----------------------------------------------------------------

    def _radio_play(self) -> None:
        state = self.state
        if not state.radio_uri and state.radio_channels:
            first = state.radio_channels[0]
            state.radio_id = first.id
            state.radio_uri = first.track.uri
            state.radio_metadata = first.track.didl()
        state.transport_state = PlaybackState.PLAYING if state.radio_uri else PlaybackState.STOPPED

    def radio_play(self) -> None:
        """Radio.Play: selects the Radio source too."""
        self._select_type(SourceType.RADIO)
        self._radio_play()
        self.changed()

    def radio_channel(self, channel_id: int) -> RadioChannelView:
        """Preset by id."""
        for channel in self.state.radio_channels:
            if channel.id == channel_id:
                return RadioChannelView(channel.id, channel.track.uri, channel.track.didl())
        raise DeviceError(ID_NOT_FOUND, f"Radio id {channel_id} not found")

    def radio_set_id(self, channel_id: int, uri: str) -> None:
        """Radio.SetId: select a preset (the uri is informative, as on a device)."""
        channel = self.radio_channel(channel_id)
        state = self.state
        state.radio_id = channel.id
        state.radio_uri = uri or channel.uri
        state.radio_metadata = channel.metadata
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        self.changed()

    def radio_set_channel(self, uri: str, metadata: str) -> None:
        """Radio.SetChannel: an arbitrary stream (how HA core plays a URL)."""
        state = self.state
        state.radio_id = 0
        state.radio_uri = uri
        state.radio_metadata = metadata
        state.metadata_override = None
        state.metatext_override = None
        state.seconds = 0
        self.changed()

    def play_preset(self, channel_id: int) -> None:
        """Select a preset and play it on the Radio source."""
        self.radio_set_id(channel_id, "")
        self.radio_play()

    # --- songcast -------------------------------------------------------------

    def receiver_set_sender(self, uri: str, metadata: str) -> None:
        """Receiver.SetSender."""
        self.state.receiver_uri = uri
        self.state.receiver_metadata = metadata
        self.changed()

    def receiver_play(self) -> None:
        """Receiver.Play: selects the Songcast source and follows the sender."""
        self._select_type(SourceType.RECEIVER)
        self.state.receiver_active = True
        self.changed()

    def receiver_stop(self) -> None:
        """Receiver.Stop."""
        self.state.receiver_active = False
        self.changed()

    # --- pins -----------------------------------------------------------------

    def invoke_pin(self, pin_id: int) -> None:
        """Do what the pin stores (errors as ohPipeline's ProviderPins answers them)."""
        pin = next((p for p in self.state.pins if p.id == pin_id), None)
        if pin is None:
            raise DeviceError(PIN_ID_NOT_FOUND, "Pin id not found")
        if pin.empty:  # PinsManager::BeginInvoke: an empty mode has no invoker
            raise DeviceError(PIN_MODE_NOT_SUPPORTED, "Pin mode not supported")
        match pin.mode:
            case "radio":
                self.play_preset(int(pin.uri.rsplit("/", 1)[-1]))
            case "playlist":
                tracks = catalog.pin_album_tracks(pin.uri)
                if tracks is None:
                    raise DeviceError(PIN_NOTHING_TO_PLAY, "Nothing to Play")
                self.playlist_load(tracks, shuffle=pin.shuffle)
            case "source":
                self.select_source(pin.uri.removeprefix("source://"))
            case _:
                raise DeviceError(PIN_MODE_NOT_SUPPORTED, "Pin mode not supported")

    def invoke_pin_index(self, index: int) -> None:
        """Invoke the pin at this index of IdArray."""
        if not 0 <= index < len(self.state.pins):
            raise DeviceError(PIN_INDEX_OUT_OF_RANGE, "Pin index out of range")
        self.invoke_pin(self.state.pins[index].id)

    # --- front panel extras ---------------------------------------------------

    def set_metadata(self, now: NowPlaying) -> None:
        """Override what Info reports until the track changes."""
        self.state.metadata_override = now
        self.changed()

    def set_metatext(self, text: str) -> None:
        """Override Info Metatext."""
        self.state.metatext_override = text
        self.changed()

    def set_pin_title(self, pin_id: int, title: str) -> None:
        """Rename a pin."""
        pin = next((p for p in self.state.pins if p.id == pin_id), None)
        if pin is None:
            raise DeviceError(ID_NOT_FOUND, f"Pin {pin_id} not found")
        pin.title = title
        self.changed()

    def set_preset_title(self, preset_id: int, title: str) -> None:
        """Rename a radio preset; a playing preset shows the new name at once."""
        for channel in self.state.radio_channels:
            if channel.id == preset_id:
                channel.track = replace(channel.track, title=title)
                self.state.radio_token += 1
                if self.state.radio_id == preset_id:
                    self.state.radio_metadata = channel.track.didl()
                self.changed()
                return
        raise DeviceError(ID_NOT_FOUND, f"Radio id {preset_id} not found")


class RadioChannelView:
    """A preset as Radio.Read returns it."""

    __slots__ = ("id", "metadata", "uri")

    def __init__(self, channel_id: int, uri: str, metadata: str) -> None:
        self.id = channel_id
        self.uri = uri
        self.metadata = metadata
