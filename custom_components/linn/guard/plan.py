"""The plan of a turn: the changes the user's own words asked for, as a planner read them.

A planner (a model call that sees only the user's utterances, the language and a fixed
list of change kinds, never a tool result or a name a device chose) answers with the
changes a turn asks for. This module holds the plan's schema, the checks in code that a
planner's answer must pass, and the match between a change a model wants to make and the
plan. After device text was read, a change runs only when a planned change allows it
(checks.py); a turn whose plan is late, missing or invalid has NoPlan, and each of its
changes then waits for the user's yes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .names import contains_phrase, name_tokens, names_whole

MAX_CHANGES: Final = 6
MAX_WORDS_CHARS: Final = 120


class VolumeAsk(StrEnum):
    """What the user asked of the volume."""

    LEVEL = "level"
    UP = "up"
    DOWN = "down"
    MAX = "max"
    MIN = "min"


@dataclass(frozen=True, slots=True)
class PlannedChange:
    """One change the user asked for."""

    kind: str
    """A ToolSpec.action value."""
    target: str | None = None
    """The user's words that name the player(s) or room(s), if they named any."""
    item: str | None = None
    """The user's words that name what to play or select (a source, a station, a title)."""
    volume: VolumeAsk | None = None
    level: int | None = None
    """The level the user said, with VolumeAsk.LEVEL."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The changes a turn asks for (none: a question, thanks, small talk)."""

    changes: tuple[PlannedChange, ...] = ()


@dataclass(frozen=True, slots=True)
class NoPlan:
    """The planner did not answer in time or answered something invalid."""

    reason: str


class InvalidPlan(ValueError):
    """A planner's answer that fails the checks in code."""


def plan_schema(kinds: Collection[str]) -> dict[str, Any]:
    """The JSON schema of the planner's forced tool call: kinds as an enum, bounded strings.

    Every field is required and may be null (strict tool use wants every property
    required); parse_plan checks every bound again in code.
    """

    def nullable(schema: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [schema, {"type": "null"}]}

    return {
        "type": "object",
        "properties": {
            "changes": {
                "type": "array",
                "maxItems": MAX_CHANGES,
                "items": {
                    "type": "object",
                    "properties": {
                        "kind": {"type": "string", "enum": sorted(kinds)},
                        "target": nullable({"type": "string", "maxLength": MAX_WORDS_CHARS}),
                        "item": nullable({"type": "string", "maxLength": MAX_WORDS_CHARS}),
                        "volume": nullable(
                            {"type": "string", "enum": [ask.value for ask in VolumeAsk]}
                        ),
                        "level": nullable({"type": "integer", "minimum": 0, "maximum": 100}),
                    },
                    "required": ["kind", "target", "item", "volume", "level"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["changes"],
        "additionalProperties": False,
    }


def parse_plan(data: Any, utterances: Sequence[str], kinds: Collection[str]) -> Plan:
    """The plan in a planner's answer, checked in code whatever the schema promised.

    `utterances` are the user's own words the plan may quote (this turn's, and the earlier
    ones of the conversation for a follow-up). Every target and item must be words the
    user said, as whole words; a kind must be one of `kinds`; a level needs VolumeAsk.LEVEL
    and 0-100. InvalidPlan otherwise: a plan is used whole or not at all.
    """
    if not isinstance(data, Mapping) or set(data) != {"changes"}:
        raise InvalidPlan("not a plan object")
    changes = data["changes"]
    if not isinstance(changes, list) or len(changes) > MAX_CHANGES:
        raise InvalidPlan("changes must be a list of at most 6")
    said = [name_tokens(utterance) for utterance in utterances]
    return Plan(tuple(_change(item, said, kinds) for item in changes))


def _change(data: Any, said: Sequence[list[str]], kinds: Collection[str]) -> PlannedChange:
    if not isinstance(data, Mapping) or not set(data) <= {
        "kind",
        "target",
        "item",
        "volume",
        "level",
    }:
        raise InvalidPlan("a change has unknown fields")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise InvalidPlan(f"unknown kind {kind!r}"[:80])
    target = _quoted(data.get("target"), said, "target")
    item = _quoted(data.get("item"), said, "item")
    volume_value, level = data.get("volume"), data.get("level")
    try:
        volume = VolumeAsk(volume_value) if volume_value is not None else None
    except ValueError as err:
        raise InvalidPlan("unknown volume ask") from err
    if level is not None and (
        volume is not VolumeAsk.LEVEL
        or not isinstance(level, int)
        or isinstance(level, bool)
        or not 0 <= level <= 100
    ):
        raise InvalidPlan("a level is a whole number 0-100 with volume 'level'")
    if volume is VolumeAsk.LEVEL and level is None:
        raise InvalidPlan("volume 'level' needs its level")
    return PlannedChange(kind, target, item, volume, level)


def _quoted(value: Any, said: Sequence[list[str]], name: str) -> str | None:
    """Words the user said (None or empty: none), else InvalidPlan."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_WORDS_CHARS:
        raise InvalidPlan(f"{name} must be short text")
    tokens = name_tokens(value)
    if not tokens:
        return None
    if not any(contains_phrase(utterance, tokens) for utterance in said):
        raise InvalidPlan(f"{name} is not the user's words")
    return value


# --- matching a change against the plan --------------------------------------------------


class PlanMismatch(StrEnum):
    """Why a change does not match the plan (the first that applies, over all changes)."""

    KIND = "kind"
    PLAYER = "player"
    ITEM = "item"
    VOLUME = "volume"


def plan_mismatch(
    plan: Plan,
    kind: str,
    *,
    players_named: Callable[[str | None], bool],
    items: Sequence[str],
    volume_target: int | None,
    volume_current: int | None,
    longer_names: Sequence[str] = (),
) -> PlanMismatch | None:
    """None when some planned change allows this change; else why none does.

    `players_named(words)` tells whether the user's words (a planned target, or None when
    the user named no player) name or imply the change's player(s). `items` are the names
    the change targets that the user would say (a source; every name an intent targets):
    each must be among the planned change's words as a whole name, not inside a longer one
    of `longer_names` ("front door light" names no "Front Door"). The volume must be
    consistent with what the user asked.
    """
    candidates = [change for change in plan.changes if change.kind == kind]
    if not candidates:
        return PlanMismatch.KIND
    worst = PlanMismatch.PLAYER
    for change in candidates:
        if not players_named(change.target):
            continue
        if items and not _names_every_item(change, items, longer_names):
            worst = PlanMismatch.ITEM
            continue
        if volume_target is not None and not _volume_fits(change, volume_target, volume_current):
            worst = PlanMismatch.VOLUME
            continue
        return None
    return worst


def _names_every_item(
    change: PlannedChange, items: Sequence[str], longer_names: Sequence[str]
) -> bool:
    words = " ".join(w for w in (change.item, change.target) if w)
    return all(names_whole(words, item, longer_names) for item in items)


def _volume_fits(change: PlannedChange, target: int, current: int | None) -> bool:
    match change.volume:
        case VolumeAsk.LEVEL:
            return target == change.level
        case VolumeAsk.UP | VolumeAsk.MAX:
            return current is None or target > current
        case VolumeAsk.DOWN | VolumeAsk.MIN:
            return current is None or target < current
        case None:
            return change.kind == "volume"  # "change the volume": the model's level
