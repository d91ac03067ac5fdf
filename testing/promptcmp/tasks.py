"""The benign tasks both agents run, each with the plan a competent model would follow.

Every task names the user's words, the area of the satellite they speak to (if any), the
model's scripted replies (the same for both agents: the same Linn tools are offered to both),
and a check on the emulators' final state. Players start each run from the same baseline
(`reset`), and a task's `setup` adds what it needs (something playing, for example).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from linn_emulator import LinnEmulator
from linn_emulator.model import PlaybackState, Track
from testing.fake_anthropic import Reply, ToolUse

LIVING = "Living Room"
KITCHEN = "Kitchen"
BASELINE_VOLUME = 30

type Players = Mapping[str, LinnEmulator]


@dataclass(frozen=True, slots=True)
class Task:
    """One benign request and how it should end."""

    id: str
    category: str
    utterance: str
    plan: Callable[[Players], tuple[Reply, ...]]
    """The model's replies, in order; the last one is what the user hears."""
    check: Callable[[Players], bool]
    """The final device state the user asked for."""
    area: str | None = None
    """The satellite's area, when the user speaks to one."""
    setup: Callable[[Players], None] | None = None


def source(emulator: LinnEmulator) -> str:
    """The system name of the selected source."""
    return emulator.state.sources[emulator.state.source_index].system_name


def reset(players: Players) -> None:
    """The baseline every run starts from: on, Playlist, stopped at the first track, volume 30."""
    for emulator in players.values():
        panel = emulator.panel
        panel.set_standby(False)
        panel.select_source("Playlist")
        emulator.device.playlist_seek_index(0)
        panel.stop()
        panel.set_mute(False)
        panel.set_volume(BASELINE_VOLUME)


def baseline(emulator: LinnEmulator) -> bool:
    """Nothing changed (for questions)."""
    state = emulator.state
    return (
        state.volume == BASELINE_VOLUME
        and not state.mute
        and not state.standby
        and source(emulator) == "Playlist"
    )


def _call(name: str, **arguments: object) -> Reply:
    return Reply(tool_uses=(ToolUse(f"linn__{name}", dict(arguments)),))


def _fixed(*replies: Reply) -> Callable[[Players], tuple[Reply, ...]]:
    return lambda _players: replies


def _play(player: str) -> Callable[[Players], None]:
    return lambda players: players[player].panel.play()


def _current_track(emulator: LinnEmulator) -> Track:
    state = emulator.state
    return next(e for e in state.playlist if e.id == state.playlist_id).track


def _now_playing_plan(players: Players) -> tuple[Reply, ...]:
    title = _current_track(players[LIVING]).title
    return (_call("get_state", player=LIVING), Reply(f"The living room is playing {title}."))


TASKS: tuple[Task, ...] = (
    Task(
        "volume_set",
        "volume",
        "set the living room to 35",
        _fixed(_call("set_volume", player=LIVING, volume=35), Reply("The living room is at 35.")),
        lambda p: p[LIVING].state.volume == 35,
    ),
    Task(
        "volume_up",
        "volume",
        "turn the kitchen up a bit",
        _fixed(_call("change_volume", player=KITCHEN, change=5), Reply("Kitchen is at 35 now.")),
        lambda p: p[KITCHEN].state.volume == BASELINE_VOLUME + 5,
    ),
    Task(
        "volume_down_here",
        "volume",
        "a little quieter please",
        _fixed(_call("change_volume", player=KITCHEN, change=-5), Reply("Turned it down.")),
        lambda p: p[KITCHEN].state.volume == BASELINE_VOLUME - 5,
        area=KITCHEN,
    ),
    Task(
        "mute",
        "volume",
        "mute the living room",
        _fixed(_call("mute", player=LIVING, muted=True), Reply("The living room is muted.")),
        lambda p: p[LIVING].state.mute,
    ),
    Task(
        "source_turntable",
        "source",
        "switch the living room to the turntable",
        _fixed(
            _call("select_source", player=LIVING, source="Turntable"),
            Reply("The living room is on the turntable."),
        ),
        lambda p: source(p[LIVING]) == "Analog 1",
    ),
    Task(
        "source_tv_here",
        "source",
        "switch to the TV",
        _fixed(_call("select_source", player=KITCHEN, source="TV"), Reply("Switched to the TV.")),
        lambda p: source(p[KITCHEN]) == "HDMI",
        area=KITCHEN,
    ),
    Task(
        "pin_album",
        "pin",
        "play pin 2 in the living room",
        _fixed(_call("play_pin", player=LIVING, pin=2), Reply("Playing pin 2.")),
        lambda p: (
            source(p[LIVING]) == "Playlist"
            and p[LIVING].state.transport_state is PlaybackState.PLAYING
            and _current_track(p[LIVING]).album == "Re"
        ),
    ),
    Task(
        "radio_preset",
        "pin",
        "play radio preset 4 in the kitchen",
        _fixed(_call("play_radio_preset", player=KITCHEN, preset=4), Reply("Playing preset 4.")),
        lambda p: source(p[KITCHEN]) == "Radio" and p[KITCHEN].state.radio_id == 4,
    ),
    Task(
        "now_playing",
        "now playing",
        "what's playing in the living room?",
        _now_playing_plan,
        lambda p: baseline(p[LIVING]),
        setup=_play(LIVING),
    ),
    Task(
        "volume_question",
        "now playing",
        "how loud is the kitchen?",
        _fixed(_call("get_state", player=KITCHEN), Reply("The kitchen is at 30.")),
        lambda p: baseline(p[KITCHEN]),
    ),
    Task(
        "pause",
        "transport",
        "pause the kitchen",
        _fixed(_call("pause", player=KITCHEN), Reply("Paused.")),
        lambda p: p[KITCHEN].state.transport_state is PlaybackState.PAUSED,
        setup=_play(KITCHEN),
    ),
    Task(
        "next_track",
        "transport",
        "next track in the living room",
        _fixed(_call("next", player=LIVING), Reply("Skipped.")),
        lambda p: p[LIVING].state.playlist_id == p[LIVING].state.playlist[1].id,
        setup=_play(LIVING),
    ),
    Task(
        "standby",
        "transport",
        "turn off the music in the kitchen",
        _fixed(_call("standby", player=KITCHEN), Reply("The kitchen is off.")),
        lambda p: p[KITCHEN].state.standby,
    ),
    Task(
        "turntable_at_25",
        "multi-step",
        "play the turntable in the living room at 25",
        _fixed(
            _call("select_source", player=LIVING, source="Turntable"),
            _call("set_volume", player=LIVING, volume=25),
            Reply("The turntable is on at 25."),
        ),
        lambda p: source(p[LIVING]) == "Analog 1" and p[LIVING].state.volume == 25,
    ),
    Task(
        "what_and_louder",
        "multi-step",
        "what's on in the living room? and turn it up a bit",
        _fixed(
            _call("get_state", player=LIVING),
            _call("change_volume", player=LIVING, change=5),
            Reply("It's Björk, and I turned it up to 35."),
        ),
        lambda p: p[LIVING].state.volume == BASELINE_VOLUME + 5,
        setup=_play(LIVING),
    ),
    Task(
        "search_play",
        "search",
        "put on some jazz in the kitchen",
        _fixed(
            _call("search_music", player=KITCHEN, query="jazz"),
            _call("play_music", player=KITCHEN, item="m1"),
            Reply("Playing Jazz and Blues in the kitchen."),
        ),
        lambda p: source(p[KITCHEN]) == "Radio" and p[KITCHEN].state.radio_id == 4,
    ),
)
SMALL: tuple[str, ...] = ("volume_set", "volume_down_here", "now_playing", "turntable_at_25")
"""The subset the CI test runs: single- and multi-step, a question, a satellite's area."""
