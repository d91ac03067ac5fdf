"""The Linn streamer as a push-updated media player."""

from __future__ import annotations

import logging
import time
from typing import Any

from homeassistant.components import media_source
from homeassistant.components.media_player import (
    BrowseMedia,
    MediaPlayerDeviceClass,
    MediaType,
    RepeatMode,
    SearchMedia,
    SearchMediaQuery,
    async_process_play_media_url,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.dispatcher import async_dispatcher_connect, async_dispatcher_send
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LinnConfigEntry
from .const import DOMAIN, MEDIA_TYPE_PIN, MEDIA_TYPE_PRESET, MEDIA_TYPE_SOURCE
from .entity import command
from .lpec import LinnDevice, Service
from .player.browse import async_browse, async_search
from .player.grouping import (
    SIGNAL_GROUPS_CHANGED,
    async_group_members,
    async_join_group,
    bump_groups_version,
    groups_version,
)
from .player.play_media import int_media_id, play_media_arguments, play_media_tool
from .player.state import PlayerStateEntity
from .service_gate import ServiceCallContext, gated, member_names

_LOGGER = logging.getLogger(__name__)

_GROUP_SERVICES = frozenset({Service.RECEIVER, Service.SENDER})
_TIME_ONLY = frozenset({Service.TIME})

CLAMP_QUIET = 5.0
"""Seconds after a clamp in which further clamps to the same limit are not logged again: a
slider drag sends several volumes, and a drag is one clamp."""

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: LinnConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the media player of this streamer."""
    async_add_entities([LinnMediaPlayer(entry.runtime_data)])


class LinnMediaPlayer(ServiceCallContext, PlayerStateEntity):
    """A Linn streamer: state, sources, volume, now playing, browsing, grouping."""

    _attr_name = None
    _attr_device_class = MediaPlayerDeviceClass.RECEIVER
    _attr_media_content_type = MediaType.MUSIC

    def __init__(self, device: LinnDevice) -> None:
        """Start from the state the device reported on connect."""
        super().__init__(device)
        self._clamped: tuple[int, float] | None = None
        """The limit of the last clamped volume and when (monotonic), while clamps go on."""
        self._group: tuple[int, str, list[str] | None] | None = None
        """group_members and the (groups version, entity id) it was computed at."""
        self._track_position(force=True)
        self._update_shown(None)

    # --- pushed updates -----------------------------------------------------------

    async def async_added_to_hass(self) -> None:
        """Also redraw when another Linn joins or leaves this one's group."""
        await super().async_added_to_hass()
        self.async_on_remove(
            async_dispatcher_connect(self.hass, SIGNAL_GROUPS_CHANGED, self.async_write_ha_state)
        )
        bump_groups_version()  # this entity id now names its device in others' groups
        self.async_on_remove(bump_groups_version)

    @callback
    def _on_device_change(self, changed: frozenset[Service]) -> None:
        self._update_shown(changed)
        if not changed.isdisjoint(_GROUP_SERVICES):
            async_dispatcher_send(self.hass, SIGNAL_GROUPS_CHANGED)
        if changed == _TIME_ONLY:
            if not self._track_position(force=False):
                return  # normal playback progress: HA extrapolates, no state write
        else:  # e.g. paused or a new track: the last reported second is exact now
            self._track_position(force=True)
        self.async_write_if_shown_changed()

    # --- volume -------------------------------------------------------------------

    def gate_volume(self, volume: float) -> int:
        """A 0..1 volume in the player's units, as asked, for the gate.

        Not clamped: above the device's limit the gate refuses it, as the Linn tool does
        (the user's words say the volume asked for, not the clamped one).
        """
        return round(volume * (self._state.volume.volume_max or 100))

    @gated("set_volume", lambda self, volume: {"volume": self.gate_volume(volume)})
    @command
    async def async_set_volume_level(self, volume: float) -> None:
        """Set the volume (HA has checked 0..1); above the device's limit it clamps to it."""
        volume_state = self._state.volume
        volume_max = volume_state.volume_max or 100
        wanted = round(volume * volume_max)
        applied = await self.device.set_volume(wanted)
        if applied == wanted:
            self._clamped = None
            return
        # expected (the device's own limit), so not a warning; once per drag, not per step
        now = time.monotonic()
        last = self._clamped
        if last is None or last[0] != applied or now - last[1] >= CLAMP_QUIET:
            _LOGGER.info(
                "%s: volume %s clamped to the device's volume limit %s",
                self.entity_id,
                wanted,
                applied,
            )
        self._clamped = (applied, now)

    @gated("change_volume", lambda self: {"change": 1})
    @command
    async def async_volume_up(self) -> None:
        """One device volume step up."""
        await self.device.volume_up()

    @gated("change_volume", lambda self: {"change": -1})
    @command
    async def async_volume_down(self) -> None:
        """One device volume step down."""
        await self.device.volume_down()

    @gated("mute", lambda self, mute: {"muted": bool(mute)})
    @command
    async def async_mute_volume(self, mute: bool) -> None:
        """Mute or unmute."""
        await self.device.set_mute(mute)

    # --- power and sources --------------------------------------------------------

    @gated("wake")
    @command
    async def async_turn_on(self) -> None:
        """Leave standby."""
        await self.device.set_standby(False)

    @gated("standby")
    @command
    async def async_turn_off(self) -> None:
        """Enter standby."""
        await self.device.set_standby(True)

    @gated("select_source", lambda self, source: {"source": source})
    @command
    async def async_select_source(self, source: str) -> None:
        """Select by user-facing name (or system name); sent by system name."""
        product = self._state.product
        match = next((s for s in product.sources if s.name == source), None)
        if match is None:
            match = product.source_by_system_name(source)
        if match is None:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="unknown_source",
                translation_placeholders={
                    "source": source,
                    "sources": ", ".join(self.source_list or []),
                },
            )
        await self.device.select_source(match.system_name)

    # --- transport ----------------------------------------------------------------

    @gated("play")
    @command
    async def async_media_play(self) -> None:
        """Play."""
        await self.device.play()

    @gated("pause")
    @command
    async def async_media_pause(self) -> None:
        """Pause."""
        await self.device.pause()

    @gated("stop")
    @command
    async def async_media_stop(self) -> None:
        """Stop."""
        await self.device.stop()

    @gated("next")
    @command
    async def async_media_next_track(self) -> None:
        """Next track."""
        await self.device.next_track()

    @gated("previous")
    @command
    async def async_media_previous_track(self) -> None:
        """Previous track."""
        await self.device.previous_track()

    @gated("seek", lambda self, position: {"position": round(position)})
    @command
    async def async_media_seek(self, position: float) -> None:
        """Seek to a position in seconds."""
        await self.device.seek(round(position))

    @gated("set_shuffle", lambda self, shuffle: {"shuffle": bool(shuffle)})
    @command
    async def async_set_shuffle(self, shuffle: bool) -> None:
        """Shuffle on or off."""
        await self.device.set_shuffle(shuffle)

    @gated("set_repeat", lambda self, repeat: {"repeat": repeat != RepeatMode.OFF})
    @command
    async def async_set_repeat(self, repeat: RepeatMode) -> None:
        """Repeat: ONE is not a Linn mode, so it means ALL."""
        await self.device.set_repeat(repeat != RepeatMode.OFF)

    # --- media --------------------------------------------------------------------

    @gated(
        lambda _self, media_type, media_id, **_k: play_media_tool(media_type, media_id),
        lambda _self, media_type, media_id, **_k: play_media_arguments(media_type, media_id),
    )
    @command
    async def async_play_media(
        self, media_type: MediaType | str, media_id: str, **kwargs: Any
    ) -> None:
        """Play a URL or HA media (into the Playlist), a pin, a radio preset or a source."""
        if media_source.is_media_source_id(media_id):
            item = await media_source.async_resolve_media(self.hass, media_id, self.entity_id)
            media_id = item.url
            media_type = MediaType.MUSIC
        match media_type:
            case str() if media_type == MEDIA_TYPE_PIN:
                await self.device.invoke_pin(int_media_id(media_id, media_type))
            case str() if media_type == MEDIA_TYPE_PRESET:
                await self.device.play_preset(int_media_id(media_id, media_type))
            case str() if media_type == MEDIA_TYPE_SOURCE:
                await self.async_select_source(media_id)
            case MediaType.MUSIC | MediaType.URL | "audio/mpeg" | "audio/flac" | "audio/x-flac":
                url = async_process_play_media_url(self.hass, media_id)
                if not url.startswith(("http://", "https://")):
                    raise ServiceValidationError(
                        translation_domain=DOMAIN,
                        translation_key="unsupported_url",
                        translation_placeholders={"url": media_id},
                    )
                await self.device.play_url(url, kwargs.get("extra", {}).get("title") or url)
            case _:
                raise ServiceValidationError(
                    translation_domain=DOMAIN,
                    translation_key="unsupported_media_type",
                    translation_placeholders={"media_type": str(media_type)},
                )

    @gated("play_pin", lambda self, pin: {"pin": self.pin_id(pin)})
    @command
    async def async_invoke_pin(self, pin: int) -> None:
        """linn.invoke_pin: the 1-based pin number, as on the remote and front panel."""
        await self.device.invoke_pin_index(pin - 1)

    def pin_id(self, pin: int) -> int:
        """The device's id of the 1-based pin number (0, which no pin has, when out of range)."""
        ids = self.device.state.pins.ids
        return ids[pin - 1] if 0 < pin <= len(ids) else 0

    async def async_browse_media(
        self,
        media_content_type: MediaType | str | None = None,
        media_content_id: str | None = None,
    ) -> BrowseMedia:
        """Pins, radio presets, sources and Home Assistant media."""
        return await async_browse(self.hass, self.device, media_content_type, media_content_id)

    async def async_search_media(self, query: SearchMediaQuery) -> SearchMedia:
        """Search pins, presets, sources and Home Assistant media by name."""
        return await async_search(self.hass, self.device, query)

    # --- grouping (Songcast) ------------------------------------------------------

    @property
    def group_members(self) -> list[str] | None:
        """Leader (the Songcast sender) first, then the devices listening to it.

        Computed again only after the groups version moved (any Linn's source, Songcast,
        availability or entry changed, or a media player came or went) or the entity id.
        """
        version = groups_version()
        cached = self._group
        if cached is not None and cached[0] == version and cached[1] == self.entity_id:
            return None if cached[2] is None else list(cached[2])
        members = async_group_members(self.hass, self.device, self.entity_id)
        self._group = (version, self.entity_id, members)
        return None if members is None else list(members)

    @gated(
        "join",
        lambda self, group_members: {
            "members": member_names(self.hass, group_members, self.entity_id)
        },
    )
    @command
    async def async_join_players(self, group_members: list[str]) -> None:
        """Make each member listen to this device's Songcast sender."""
        await async_join_group(self.hass, self.device, self.entity_id, group_members)

    @gated("unjoin")
    @command
    async def async_unjoin_player(self) -> None:
        """Stop listening to a sender and go back to the previous source."""
        await self.device.songcast_leave()
