"""The planner's evaluation, its data: the paraphrase set's utterances and recorded plans.

What each utterance asks for (kinds, players, volume, sources), the rooms and the satellite's,
and the recorded plans' format. planner_eval.py says how the evaluation works.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
import json
from pathlib import Path
import re
from typing import Any

import yaml

from custom_components.linn.guard import messages
from custom_components.linn.guard.plan import NoPlan

DATA = Path(__file__).parent / "paraphrases"
PLANS = DATA / "plans"
HAND = PLANS / "hand"
LANGUAGES = ("en", "de", "fr", "nl", "es")
CURRENT = 30
"""Every player's volume before the utterance."""
UNASKED_KINDS = ("standby", "mute", "volume", "next", "play", "source")
"""The changes injected text would like: each must be refused unless the utterance asks for it."""
OTHER_SOURCE = "Blu-ray"
"""A source no utterance names."""
NOT_IN_THE_PLAN = frozenset(
    {"memory"}  # remember / forget: the guard checks the fact's words, not a plan
)
REFUSED_BY_PLAN = frozenset(
    {
        messages.MSG_NOT_ASKED,
        messages.MSG_NOT_ASKED_CONVERSATION,
        messages.MSG_NOT_ASKED_WORDS,
        messages.MSG_NOT_THIS_PLAYER,
        messages.MSG_NOT_THIS_VOLUME,
        messages.MSG_NOT_THIS_VOLUME_WORDS,
    }
)
"""The guard's answers when the plan (or, without one, the user's words) does not allow it.

MSG_ASK_AGAIN is not among them: with a plan it means the change matched and only its
policy (a level above the soft limit, a jump) wants a yes in a turn of the user's own."""
ROOMS: dict[str, dict[str, tuple[str, ...]]] = {
    "Living Room": {
        "en": ("living room", "lounge"),
        "de": ("Wohnzimmer",),
        "fr": ("salon",),
        "nl": ("woonkamer",),
        "es": ("salón", "sala"),
    },
    "Kitchen": {
        "en": ("kitchen",),
        "de": ("Küche",),
        "fr": ("cuisine",),
        "nl": ("keuken",),
        "es": ("cocina",),
    },
    "Bedroom": {
        "en": ("bedroom",),
        "de": ("Schlafzimmer",),
        "fr": ("chambre",),
        "nl": ("slaapkamer",),
        "es": ("dormitorio",),
    },
}
SATELLITE_ROOM = "Living Room"
"""The satellite's area: the player a change targets when the user names none."""


@dataclass(frozen=True)
class Utterance:
    """One utterance and what it asks for."""

    language: str
    say: str
    asks: tuple[str, ...]
    """The kinds of change it asks for (empty: a question, thanks, a remark)."""
    previous: str | None = None
    names: tuple[str, ...] = ()
    """Sources the user named (the call's source must be among the planned words)."""
    volume: str | int | None = None
    """up, down or the level asked for."""
    may: tuple[str, ...] = ()
    """Kinds a correct planner may also plan ("turn it off": stop, standby)."""
    set: str = "issue19"
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per kind, the players meant when they differ ("pause the kitchen and mute the living
    room"); else rooms()."""

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.say, self.previous)

    @property
    def said(self) -> list[str]:
        return [self.previous, self.say] if self.previous else [self.say]

    def rooms(self, kind: str | None = None) -> tuple[str, ...]:
        """The players the user means: the rooms named, else the satellite's."""
        if kind is not None and kind in self.players:
            return self.players[kind]
        text = " " + " ".join(_words(" ".join(self.said))) + " "
        named = tuple(
            room
            for room, words in ROOMS.items()
            if any(f" {' '.join(_words(w))} " in text for w in words[self.language])
        )
        return named or (SATELLITE_ROOM,)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def load_utterances(language: str) -> list[Utterance]:
    """Issue 19's set and issue 29's everyday set; `memory` ones are not planned."""
    items: list[Utterance] = []
    sets = {
        "issue19": DATA / f"{language}.yaml",
        "everyday": DATA / "everyday" / f"{language}.yaml",
    }
    for name, path in sets.items():
        if not path.exists():
            continue
        data = yaml.safe_load(path.read_text("utf-8"))
        assert data["language"] == language
        for item in data["utterances"]:
            asks = item["asks"]
            kinds = () if asks == "none" else (asks,)
            kinds += tuple(item.get("also", ()))
            if set(kinds) & NOT_IN_THE_PLAN:
                continue
            items.append(
                Utterance(
                    language,
                    item["say"],
                    kinds,
                    item.get("previous"),
                    tuple(item.get("names", ())),
                    item.get("volume"),
                    tuple(item.get("may", ())),
                    name,
                    {k: tuple(v) for k, v in (item.get("rooms") or {}).items()},
                )
            )
    return items


# --- recorded plans --------------------------------------------------------------------------


def load_plans(directory: Path, language: str) -> dict[tuple[str, str | None], Any]:
    """Recorded answers by (say, previous): the planner's tool input, {"changes": [...]}."""
    path = directory / f"{language}.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text("utf-8"))
    assert data["language"] == language
    return {
        (item["say"], item.get("previous")): {
            "changes": [_full(change) for change in item.get("changes") or []]
        }
        for item in data["plans"]
    }


def _full(change: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded change with its omitted fields null, as the strict schema answers."""
    return {"target": None, "item": None, "volume": None, "level": None, **change}


def dump_plans(
    directory: Path, language: str, by: str, answers: Mapping[tuple[str, str | None], Any]
) -> None:
    """Write answers in the recorded format (null fields left out)."""
    directory.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Recorded planner answers for {language}: {by}.",
        "# One entry per utterance (say, previous): the record_plan tool input's changes,",
        "# null fields left out. NoPlan answers are recorded as no_plan: <reason>.",
        f"language: {language}",
        f"by: {json.dumps(by)}",
        "plans:",
    ]
    for (say, previous), answer in answers.items():
        head = f"  - say: {json.dumps(say, ensure_ascii=False)}"
        if previous is not None:
            head += f"\n    previous: {json.dumps(previous, ensure_ascii=False)}"
        if isinstance(answer, NoPlan):
            lines.append(f"{head}\n    no_plan: {answer.reason}\n    changes: []")
            continue
        changes = [
            {k: v for k, v in change.items() if v is not None}
            for change in (answer.get("changes") or [])
        ]
        lines.append(f"{head}\n    changes: {json.dumps(changes, ensure_ascii=False)}")
    (directory / f"{language}.yaml").write_text("\n".join(lines) + "\n", "utf-8")
