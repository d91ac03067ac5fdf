"""Songcast groups across Linn config entries: who sends, who listens."""

from __future__ import annotations

from typing import Final

from homeassistant.components.media_player import DOMAIN as MEDIA_PLAYER_DOMAIN
from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er

from ..const import DOMAIN, is_assistant_data
from ..helpers import async_entry_of_entity, normalize_udn
from ..lpec import LinnDevice, Service

SIGNAL_GROUPS_CHANGED: Final = f"{DOMAIN}_groups_changed"

GROUP_SERVICES: Final = frozenset({Service.PRODUCT, Service.RECEIVER, Service.SENDER})
"""Services whose state decides who sends and who listens (Product: the current source)."""

_groups_version = 0


def groups_version() -> int:
    """A number that grows whenever any group may have changed.

    Bumped on every change of a Linn's Songcast or source state, its availability, its
    config entry's state and its media player being added or removed. One counter for the
    process (any Home Assistant instance in it): a bump from another instance only
    recomputes a cached group once more.
    """
    return _groups_version


@callback
def bump_groups_version(*_args: object) -> None:
    """Mark every cached group as possibly stale (takes and ignores any listener args)."""
    global _groups_version  # noqa: PLW0603
    _groups_version += 1


@callback
def async_watch_groups(entry: ConfigEntry[LinnDevice]) -> None:
    """Bump the groups version on each change of this streamer that may change a group."""
    device = entry.runtime_data

    @callback
    def _on_change(changed: frozenset[Service]) -> None:
        if not changed.isdisjoint(GROUP_SERVICES):
            bump_groups_version()

    entry.async_on_unload(device.add_listener(_on_change))
    entry.async_on_unload(device.add_availability_listener(bump_groups_version))
    entry.async_on_unload(entry.async_on_state_change(bump_groups_version))


@callback
def _loaded_devices(hass: HomeAssistant) -> list[LinnDevice]:
    return [
        entry.runtime_data
        for entry in hass.config_entries.async_entries(DOMAIN)
        if entry.state is ConfigEntryState.LOADED and not is_assistant_data(entry.data)
    ]


@callback
def _entity_id(hass: HomeAssistant, device: LinnDevice) -> str | None:
    return er.async_get(hass).async_get_entity_id(
        MEDIA_PLAYER_DOMAIN, DOMAIN, normalize_udn(device.udn or "")
    )


@callback
def async_device_for_entity(hass: HomeAssistant, entity_id: str) -> LinnDevice | None:
    """The LinnDevice behind a media_player entity id, if it is one of ours and loaded."""
    config_entry = async_entry_of_entity(hass, entity_id)
    if config_entry is None or config_entry.state is not ConfigEntryState.LOADED:
        return None
    device: LinnDevice = config_entry.runtime_data
    return device


@callback
def async_entity_for_sender(hass: HomeAssistant, sender_uri: str) -> str | None:
    """The media player whose Songcast sender has this URI."""
    for device in _loaded_devices(hass):
        if device.state.sender.uri == sender_uri:
            return _entity_id(hass, device)
    return None


@callback
def async_entities_listening_to(hass: HomeAssistant, sender_uri: str) -> list[str]:
    """Media players currently playing this Songcast sender."""
    return [
        entity_id
        for device in _loaded_devices(hass)
        if device.state.is_listening and device.state.receiver.uri == sender_uri
        if (entity_id := _entity_id(hass, device)) is not None
    ]


@callback
def async_group_members(
    hass: HomeAssistant, device: LinnDevice, entity_id: str
) -> list[str] | None:
    """Leader (the Songcast sender) first, then the devices listening to it.

    `entity_id` is the device's media player; None when the device has no Receiver.
    """
    state = device.state
    if Service.RECEIVER not in state.services:
        return None
    receiver = state.receiver
    if state.is_listening and receiver.uri:
        leader = async_entity_for_sender(hass, receiver.uri)
        if leader is not None and leader != entity_id:
            return [leader, entity_id]
    sender_uri = state.sender.uri
    followers = (
        [
            follower
            for follower in async_entities_listening_to(hass, sender_uri)
            if follower != entity_id
        ]
        if sender_uri
        else []
    )
    return [entity_id, *followers] if followers else []


async def async_join_group(
    hass: HomeAssistant, device: LinnDevice, entity_id: str, group_members: list[str]
) -> None:
    """Make each member listen to this device's Songcast sender (`entity_id`: its player)."""
    sender = device.state.sender
    if not sender.uri:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="no_sender",
            translation_placeholders={"entity_id": entity_id},
        )
    members: list[LinnDevice] = []
    for member_id in group_members:  # check them all before changing any
        if member_id == entity_id:
            continue
        member = async_device_for_entity(hass, member_id)
        if member is None:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="not_a_linn",
                translation_placeholders={"entity_id": member_id},
            )
        members.append(member)
    for member in members:
        await member.songcast_join(sender.uri, sender.metadata)
