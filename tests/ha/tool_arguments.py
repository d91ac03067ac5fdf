"""Hypothesis strategies for the linn__ tools' arguments: valid ones and invalid ones.

Validity is decided here from the emulators (the truth), never from the integration's own
schema code, so a schema that drifts from what the devices accept shows up as a failure.
"""

from __future__ import annotations

from dataclasses import dataclass
import functools
import math
import re
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from linn_emulator import LinnEmulator

MAX_CHANGE = 20
MAX_SEEK = 86400
QUERY_CHARS = 100
ITEM = re.compile(r"m[1-9][0-9]{0,2}")


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """One emulated player as the user sees it."""

    name: str
    ceiling: int
    volume_max: int
    sources: tuple[str, ...]
    hidden_or_system_names: tuple[str, ...]
    pins: tuple[int, ...]
    presets: tuple[int, ...]
    items: tuple[str, ...] = ()
    """Short ids a search_music on this player issued in the test's conversation."""
    duration: int = 0
    """The current track's length in seconds (seek)."""

    @classmethod
    def of(cls, name: str, emulator: LinnEmulator) -> PlayerFacts:
        """What the emulator offers: visible sources, non-empty pins, radio presets."""
        state = emulator.state
        visible = tuple(source.name for source in state.sources if source.visible)
        other = tuple(
            source.system_name if source.visible else source.name
            for source in state.sources
            if not source.visible or source.system_name != source.name
        )
        return cls(
            name=name,
            ceiling=min(state.volume_limit, state.volume_max),
            volume_max=state.volume_max,
            sources=visible,
            hidden_or_system_names=other,
            pins=tuple(pin.id for pin in state.pins if not pin.empty),
            presets=tuple(channel.id for channel in state.radio_channels),
            duration=int(emulator.device.now_playing().duration or 0),
        )


@dataclass(frozen=True, slots=True)
class World:
    """Every player an agent may name."""

    players: tuple[PlayerFacts, ...]

    @property
    def names(self) -> list[str]:
        """Player names."""
        return [player.name for player in self.players]

    def player(self, name: str) -> PlayerFacts:
        """A player by name."""
        return next(player for player in self.players if player.name == name)


# --- fields of each tool ------------------------------------------------------------

FIELDS: dict[str, tuple[str, ...]] = {
    "get_state": ("player",),
    "play": ("player",),
    "pause": ("player",),
    "stop": ("player",),
    "next": ("player",),
    "previous": ("player",),
    "standby": ("player",),
    "unjoin": ("player",),
    "set_volume": ("player", "volume"),
    "change_volume": ("player", "change"),
    "mute": ("player", "muted"),
    "select_source": ("player", "source"),
    "play_pin": ("player", "pin"),
    "play_radio_preset": ("player", "preset"),
    "search_music": ("player", "query"),
    "play_music": ("player", "item"),
    "join": ("player", "members"),
    "set_volume_limit": ("player", "limit"),
    "wake": ("player",),
    "set_shuffle": ("player", "shuffle"),
    "set_repeat": ("player", "repeat"),
    "seek": ("player", "position", "change"),
}
OPTIONAL = {"get_state": frozenset({"player"}), "seek": frozenset({"position", "change"})}


def required(tool: str) -> tuple[str, ...]:
    """The fields a call must have."""
    return tuple(f for f in FIELDS[tool] if f not in OPTIONAL.get(tool, frozenset()))


# --- valid arguments ------------------------------------------------------------------


def _value(tool: str, world: World, player: PlayerFacts) -> st.SearchStrategy[dict[str, Any]]:
    """The tool's other fields, valid for this player."""
    others = [p.name for p in world.players if p.name != player.name]
    match tool:
        case "set_volume":
            return st.fixed_dictionaries({"volume": st.integers(0, player.ceiling)})
        case "change_volume":
            change = st.integers(-MAX_CHANGE, MAX_CHANGE).filter(bool)
            return st.fixed_dictionaries({"change": change})
        case "mute":
            return st.fixed_dictionaries({"muted": st.booleans()})
        case "select_source":
            return st.fixed_dictionaries({"source": st.sampled_from(player.sources)})
        case "play_pin":
            return st.fixed_dictionaries({"pin": st.sampled_from(player.pins)})
        case "play_radio_preset":
            return st.fixed_dictionaries({"preset": st.sampled_from(player.presets)})
        case "search_music":
            return st.fixed_dictionaries({"query": st.text(min_size=1, max_size=QUERY_CHARS)})
        case "play_music":
            return st.fixed_dictionaries({"item": st.sampled_from(player.items)})
        case "join":
            members = st.lists(st.sampled_from(others), min_size=1, max_size=len(others))
            return st.fixed_dictionaries({"members": members.map(lambda m: sorted(set(m)))})
        case "set_volume_limit":
            return st.fixed_dictionaries({"limit": st.integers(0, player.volume_max)})
        case "set_shuffle":
            return st.fixed_dictionaries({"shuffle": st.booleans()})
        case "set_repeat":
            return st.fixed_dictionaries({"repeat": st.booleans()})
        case "seek":  # a change depends on the position when it runs: test_tool_capabilities
            return st.fixed_dictionaries({"position": st.integers(0, player.duration)})
        case _:
            return st.just({})


def _valid_for(tool: str, world: World, player: PlayerFacts) -> st.SearchStrategy[dict[str, Any]]:
    return _value(tool, world, player).map(lambda rest: {"player": player.name, **rest})


def valid(tool: str, world: World) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments every Linn player in `world` must accept for `tool`.

    Strategies are built once here, never inside a draw: building one costs Hypothesis
    far more than drawing from it.
    """
    per_player = [_valid_for(tool, world, player) for player in world.players]
    if tool == "get_state":
        return st.one_of(st.just({}), *per_player)
    return st.one_of(*per_player)


# --- invalid arguments ----------------------------------------------------------------


def accepts(field: str, value: Any, player: PlayerFacts, world: World, tool: str = "") -> bool:
    """The specification of one field, per player, as a person would write it down."""
    match field:
        case "change" if tool == "seek":
            return _whole(value) and 0 < abs(value) <= MAX_SEEK
        case "position":
            return _whole(value) and 0 <= value <= player.duration
        case "shuffle" | "repeat":
            return isinstance(value, bool)
        case "player":
            return isinstance(value, str) and value in world.names
        case "volume":
            return _whole(value) and 0 <= value <= player.ceiling
        case "change":
            return _whole(value) and 0 < abs(value) <= MAX_CHANGE
        case "muted":
            return isinstance(value, bool)
        case "source":
            return isinstance(value, str) and value in player.sources
        case "pin":
            return _whole(value) and value in player.pins
        case "preset":
            return _whole(value) and value in player.presets
        case "query":
            return isinstance(value, str) and 1 <= len(value) <= QUERY_CHARS
        case "item":
            return isinstance(value, str) and value in player.items
        case "members":
            others = [name for name in world.names if name != player.name]
            return (
                isinstance(value, list)
                and 1 <= len(value) <= len(others)
                and len(set(map(repr, value))) == len(value)
                and all(isinstance(name, str) and name in others for name in value)
            )
        case "limit":
            return _whole(value) and 0 <= value <= player.volume_max
    raise AssertionError(field)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _near_misses(names: list[str]) -> list[str]:
    """Names that look right to a person and must still be refused."""
    out = []
    for name in names:
        out += [name.lower(), name.upper(), f" {name}", f"{name} ", f"{name}\n", f"{name}\u200b"]
        out += [name[:-1], f"{name}s", name.replace("o", "\u043e")]  # Cyrillic o
    return out


EXTRA_KEYS = ["approved", "confirm", "request_id", "user_id", "Player", "player ", "__proto__"]
MALFORMED_ITEMS = ["m0", "m01", "M1", " m1", "m1 ", "m1\n", "m1000", "m", "1", "item m1"]


def interesting(world: World) -> list[Any]:
    """Values that look right to a person, and the numbers at and around every limit."""
    words = [*world.names, *(s for p in world.players for s in p.sources)]
    words += [s for p in world.players for s in (*p.hidden_or_system_names, *p.items)]
    words += MALFORMED_ITEMS + [f"m{n}" for n in range(1, 30)]
    edges = {-1, 0, 1, MAX_CHANGE, MAX_CHANGE + 1, -MAX_CHANGE, -MAX_CHANGE - 1}
    for p in world.players:
        edges |= {p.ceiling, p.ceiling + 1, p.volume_max, p.volume_max + 1}
        edges |= {max(p.pins, default=0) + 1, max(p.presets, default=0) + 1}
        edges |= {p.duration, p.duration + 1, MAX_SEEK, MAX_SEEK + 1, -MAX_SEEK - 1}
    # between the lowest and the highest ceiling: the schema allows it, one player does not
    lowest, highest = (f(p.ceiling for p in world.players) for f in (min, max))
    edges |= set(range(lowest, highest + 2))
    lists = [[name] for name in world.names] + [world.names, [*world.names, *world.names]]
    return [*sorted(edges), *sorted(set(words + _near_misses(words))), *lists]


def any_value(world: World) -> st.SearchStrategy[Any]:
    """Any value a model could put in a field."""
    small = st.integers(-300, 300)
    return st.one_of(
        st.sampled_from(interesting(world)),
        small,
        st.integers(),
        st.integers(0, 100).map(float),  # 30.0 is no JSON integer
        st.floats(),
        st.none(),
        st.booleans(),
        st.text(max_size=30),
        st.text(min_size=QUERY_CHARS - 2, max_size=QUERY_CHARS + 30),
        small.map(str),
        st.lists(st.one_of(st.sampled_from(world.names), small, st.text(max_size=5)), max_size=3),
        st.dictionaries(st.text(max_size=5), small, max_size=2),
    )


def extra_key() -> st.SearchStrategy[Any]:
    """Keys a schema with no extra keys must refuse (filtered per tool)."""
    return st.one_of(st.sampled_from(EXTRA_KEYS), st.text(max_size=20), st.integers(0, 9))


def invalid_sets(
    tool: str,
    world: World,
    bases: list[dict[str, Any]],
    values: list[Any],
    keys: list[Any],
    count: int,
) -> list[Any]:
    """`count` distinct argument sets, each a valid base with exactly one defect.

    Pure and deterministic: Hypothesis drew `bases`, `values` and `keys`; each defect
    (a field on one player, an extra key, a missing field, no object) walks the pool in
    turn, keeping only the values `accepts` refuses for that field and player.
    """
    fields = FIELDS[tool]
    kinds = [*fields, "extra", "not_an_object", *(["missing"] if required(tool) else [])]
    defects = [(kind, p) for kind in kinds for p in world.players]
    cursors = dict.fromkeys(defects, 0)
    by_player = {
        p.name: [b for b in bases if b.get("player") == p.name] or [{"player": p.name}]
        for p in world.players
    }
    out: dict[str, Any] = {}
    for step in range(count * 20):
        if len(out) == count:
            break
        kind, player = defect = defects[step % len(defects)]
        mine = by_player[player.name]
        base = mine[cursors[defect] % len(mine)]
        value = values[cursors[defect] % len(values)]
        cursors[defect] += 1
        example: Any
        if kind == "extra":
            key = keys[cursors[defect] % len(keys)]
            if key in fields:
                continue
            example = {**base, key: value}
        elif kind == "missing":
            field = required(tool)[cursors[defect] % len(required(tool))]
            example = {k: v for k, v in base.items() if k != field}
        elif kind == "not_an_object":
            if isinstance(value, dict):
                continue
            example = [base] if cursors[defect] % 5 == 0 else value
        else:
            if accepts(kind, value, player, world, tool):
                continue
            example = {**base, kind: value}
        out.setdefault(repr(example), example)
    assert len(out) == count, f"only {len(out)} distinct invalid sets for {tool}"
    return list(out.values())


# --- drawing a batch ------------------------------------------------------------------

BATCH = 100


def draw_batch(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """`count` examples of `strategy`, the same on every run (derandomized, no database).

    Hypothesis draws lists of BATCH examples: its per-example bookkeeping is then paid
    once per list. Where the space is smaller than `count` (play on two players),
    examples repeat.
    """
    drawn: list[Any] = []

    @settings(
        max_examples=math.ceil(count / BATCH),
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(strategy, min_size=BATCH, max_size=BATCH))
    def collect(examples: list[Any]) -> None:
        drawn.extend(examples)

    collect()
    assert drawn, "hypothesis drew nothing"
    while len(drawn) < count:
        drawn.extend(drawn[: count - len(drawn)])
    return drawn[:count]


@functools.cache
def pools(world: World) -> tuple[list[Any], list[Any]]:
    """Distinct field values and extra keys for every tool's invalid sets (drawn once)."""
    drawn = draw_batch(any_value(world), 8000)
    # the interesting values first, interleaved with drawn ones: every field meets its limits
    mixed = [v for pair in zip(interesting(world), drawn, strict=False) for v in pair]
    values = {repr(v): v for v in [*mixed, *drawn]}
    keys = {repr(k): k for k in draw_batch(extra_key(), 400)}
    return list(values.values()), list(keys.values())
