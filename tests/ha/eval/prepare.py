"""The world before a case's first turn: the players as the case's set-up has them, then
the assistant entry pointed at the case's endpoint."""

from __future__ import annotations

from homeassistant.const import CONF_API_KEY
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.const import CONF_BASE_URL, CONF_MODEL, DEFAULT_OPTIONS
from custom_components.linn.const import DOMAIN
from custom_components.linn.tools.guard_options import OPT_POLICIES
from linn_emulator.model import Track
from testing.helpers import wait_for

from .case import LIVING, Case, Setup
from .endpoint import Endpoint
from .world import World, attribute, attributes_text, player_state, queue_length


async def prepare(world: World, case: Case) -> None:
    """Put the players in the case's starting state and wait until Home Assistant shows it."""
    _set_players(world, case.setup)
    await _wait_for_volumes(world, case.setup)
    await _wait_for_players_shown(world, case.setup)
    _set_policies(world, case.setup)
    await world.hass.async_block_till_done()


def _set_players(world: World, setup: Setup) -> None:
    """The set-up's changes, made on the emulated players' front panels and devices."""
    for name, system_name in setup.rename_source.items():
        world.players[LIVING].panel.configure_source(name, name=system_name)
    for name, source in setup.source.items():
        world.players[name].panel.select_source(source)
    for name in setup.playing:
        world.players[name].panel.play()
    for name, tracks in setup.queue.items():
        device = world.players[name].device
        after = world.players[name].state.playlist[-1].id
        for number, (title, artist) in enumerate(tracks):
            track = Track(uri=f"http://192.168.1.50/q/{number}.flac", title=title, artist=artist)
            after = device.playlist_insert(after, track)
    for name, seconds in setup.paused_at.items():
        world.players[name].panel.play()
        world.players[name].panel.pause()
        world.players[name].panel.seek(seconds)
    for name in setup.repeat:
        world.players[name].panel.set_repeat(True)
    for name in setup.standby:
        world.players[name].panel.set_standby(True)
    for name, metadata in setup.metadata.items():
        world.players[name].panel.set_metadata(**metadata)


async def _wait_for_volumes(world: World, setup: Setup) -> None:
    """Set each volume and wait until Home Assistant shows it, one player at a time."""
    hass = world.hass
    for name, volume in setup.volume.items():
        world.players[name].panel.set_volume(volume)
        limit = world.players[name].state.volume_max
        await wait_for(
            lambda n=name, v=volume, lim=limit: (
                abs((attribute(hass, n, "volume_level") or -1) - v / lim) < 0.005
            )
        )


async def _wait_for_players_shown(world: World, setup: Setup) -> None:
    """Wait until Home Assistant shows every other change the set-up made."""
    hass = world.hass
    for name, metadata in setup.metadata.items():
        shown = [v for k, v in metadata.items() if k in ("title", "metatext")]
        await wait_for(lambda n=name, s=shown: any(v in attributes_text(hass, n) for v in s))
    for source in setup.rename_source.values():
        await wait_for(lambda s=source: s in (attribute(hass, LIVING, "source_list") or []))
    for name in setup.playing:
        await wait_for(lambda n=name: player_state(hass, n) == "playing")
    for name, seconds in setup.paused_at.items():
        await wait_for(lambda n=name, s=seconds: attribute(hass, n, "media_position") == s)
    for name in setup.repeat:
        await wait_for(lambda n=name: attribute(hass, n, "repeat") == "all")
    for name in setup.standby:
        await wait_for(lambda n=name: player_state(hass, n) == "off")
    for name in setup.queue:
        count = len(world.players[name].state.playlist)
        await wait_for(lambda n=name, c=count: queue_length(world, n) == c)


def _set_policies(world: World, setup: Setup) -> None:
    """The set-up's guard policies, on every streamer entry."""
    if setup.policies:
        for entry in world.streamers:
            world.hass.config_entries.async_update_entry(
                entry, options={**entry.options, OPT_POLICIES: dict(setup.policies)}
            )


async def add_assistant(world: World, case: Case, endpoint: Endpoint) -> MockConfigEntry:
    """The assistant entry, talking to the endpoint with the case's options."""
    hass = world.hass
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Claude assistant",
        data={CONF_API_KEY: endpoint.api_key, CONF_BASE_URL: endpoint.base_url},
        options={**DEFAULT_OPTIONS, CONF_MODEL: endpoint.model, **case.setup.assistant},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    if case.setup.model_timeout is not None:
        entry.runtime_data.model_timeout = case.setup.model_timeout
    return entry
