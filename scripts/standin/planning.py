"""The stand-in's answers to the planner's requests: its own rules read the user's words.

The planner's request (custom_components/linn/agent/planner.py) carries only the user's
utterance, their earlier ones and the language; the stand-in reads them with the same
rules it answers requests with (rules.py) and records the changes they ask for. A short
answer ("the second one") goes on with the earlier request.
"""

from __future__ import annotations

import json
from typing import Any

from custom_components.linn.guard.plan import MAX_WORDS_CHARS
from custom_components.linn.tools.linn_tools import TOOL_SPECS
from testing.fake_anthropic import RecordedRequest, planned, planned_change

from .rules import asks_source, command

TOOL_PREFIX = "linn__"


def plan_answer(request: RecordedRequest) -> dict[str, Any]:
    """The plan tool's input for one planning request."""
    try:
        facts = json.loads(request.last_user_text)
    except ValueError:
        return planned()
    utterance = str(facts.get("utterance", ""))
    earlier = [str(text) for text in facts.get("earlier_utterances", [])]
    changes = _changes(utterance)
    if not changes and earlier and command(utterance.casefold().strip()) is None:
        changes = _changes(earlier[-1])  # "the second one", "the one by The Verve"
    return planned(*changes)


def _changes(utterance: str) -> list[dict[str, Any]]:
    text = utterance.casefold().strip()
    found = command(text)
    if not isinstance(found, tuple):
        return []
    tool, arguments = found
    # the player is named by the user's words, if at all (the guard matches whole names)
    target = utterance if len(utterance) <= MAX_WORDS_CHARS else None
    if tool == f"{TOOL_PREFIX}search_music":
        name = str(arguments["query"])
        kinds = ("source", "play") if asks_source(text) else ("play", "source")
        return [planned_change(kind, target=target, item=name) for kind in kinds]
    spec = TOOL_SPECS.get(tool.removeprefix(TOOL_PREFIX))
    if spec is None or spec.action is None:
        return []  # a read, or remember/forget (the guard checks those words itself)
    fields: dict[str, Any] = {"target": target}
    if tool == f"{TOOL_PREFIX}set_volume":
        fields |= {"volume": "level", "level": arguments["volume"]}
    elif tool == f"{TOOL_PREFIX}change_volume":
        fields["volume"] = "up" if arguments["change"] > 0 else "down"
    return [planned_change(spec.action, **fields)]
