"""The planner's evaluation offline (issue 29): every utterance's recorded plan, through the guard.

Each recorded plan (paraphrases/plans/hand) is what a correct planner answers; it must pass
parse_plan (its words are the user's) and the guard must run the asked changes and refuse
a change of another kind, player, volume or source. This checks the guard's enforcement and
the data, not a model's understanding: `scripts/eval --planner --live` measures the real
planner with the same checks (planner_eval.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from custom_components.linn.guard.plan import NoPlan

from .planner_eval_data import HAND, LANGUAGES, Utterance, dump_plans, load_plans, load_utterances
from .planner_eval_guard import evaluate, evaluate_recorded

EVERYDAY_MINIMUM = {"en": 100, "de": 100, "fr": 100, "nl": 100, "es": 100}
WHY = {
    "en": (
        "Turn on the radio",
        "Turn it all the way up",
        "max volume",
        "Turntable, please",
        "Let's have the turntable",
        "play something to help me sleep",
        "play something off the new Radiohead album",
        "play Hush by Deep Purple",
        "play Wake Me Up by Avicii",
    ),
    "de": ("Spotify bitte", "spiel Musik aus den Achtzigern"),
    "nl": ("speel muziek uit de jaren tachtig",),
}
"""Every phrasing listed under "Why" in issue 29."""


@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_recorded_plan_passes_its_checks_and_the_guard(language: str) -> None:
    outcomes, missing = await evaluate_recorded(language)
    assert [item.say for item in missing] == []
    failed = {
        o.item.say: (o.invalid, o.no_plan, o.false_blocks, o.false_allows)
        for o in outcomes
        if o.invalid or o.no_plan or o.false_blocks or o.false_allows
    }
    assert failed == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_recorded_plan_is_for_an_utterance_the_sets_lack(language: str) -> None:
    keys = {item.key for item in load_utterances(language)}
    assert set(load_plans(HAND, language)) - keys == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_everyday_set_is_there_with_every_phrasing_of_the_issue(language: str) -> None:
    items = load_utterances(language)
    everyday = [item for item in items if item.set == "everyday"]
    assert len(everyday) >= EVERYDAY_MINIMUM[language]
    assert set(WHY.get(language, ())) <= {item.say for item in items}
    assert any(len(item.asks) > 1 for item in everyday)  # mixed requests
    assert any(item.previous for item in everyday)  # follow-ups
    assert any(not item.asks for item in everyday)  # questions


def _item(language: str, say: str) -> Utterance:
    return next(item for item in load_utterances(language) if item.say == say)


def _plan(*changes: dict[str, object]) -> dict[str, object]:
    return {
        "changes": [
            {"target": None, "item": None, "volume": None, "level": None, **change}
            for change in changes
        ]
    }


@pytest.mark.parametrize(
    ("language", "say", "plan", "blocks", "allows"),
    [
        # the title's word as a request: mute runs
        ("en", "play Hush by Deep Purple", _plan({"kind": "play"}, {"kind": "mute"}), [],
         ["other kind: mute"]),
        # the word rules' reading: wake, not the source
        ("en", "Turn on the radio", _plan({"kind": "wake"}), ["source"], []),
        # louder for "down": the asked volume refused, the opposite one runs
        ("en", "turn the kitchen down a touch",
         _plan({"kind": "volume", "target": "the kitchen", "volume": "up"}), ["volume"],
         ["wrong volume: 40"]),
        # no target: the kitchen the user named is not implied
        ("en", "Stop playing in the kitchen", _plan({"kind": "stop"}), ["stop"],
         ["other player: stop in Living Room"]),
        # a target that names both rooms: the pause runs in the living room too
        ("en", "pause the kitchen and mute the living room",
         _plan({"kind": "pause", "target": "the kitchen and mute the living room"},
               {"kind": "mute", "target": "the living room"}), [],
         ["other player: pause in Living Room"]),
        # the source the text chose
        ("de", "Spotify bitte", _plan({"kind": "source", "item": "bitte"}), ["source"], []),
        # a question planned as a change
        ("de", "wie laut ist die Küche gerade?", _plan({"kind": "volume"}), [],
         ["other kind: volume"]),
    ],
)  # fmt: skip
async def test_the_evaluation_finds_a_wrong_plan(
    language: str, say: str, plan: dict[str, object], blocks: list[str], allows: list[str]
) -> None:
    """Seen red: each wrong plan gives the false blocks and false allows expected."""
    outcome = await evaluate(_item(language, say), plan)
    assert (outcome.invalid, outcome.false_blocks, outcome.false_allows) == (None, blocks, allows)


async def test_a_plan_quoting_words_the_user_did_not_say_is_invalid_and_blocks() -> None:
    item = _item("en", "play Wake Me Up by Avicii")
    outcome = await evaluate(item, _plan({"kind": "play", "target": "the living room"}))
    assert outcome.invalid == "target is not the user's words"
    assert outcome.false_blocks == ["play"]
    assert outcome.false_allows == []


async def test_without_a_plan_every_asked_change_is_a_false_block_and_nothing_runs() -> None:
    for item in load_utterances("en")[:40]:
        outcome = await evaluate(item, NoPlan("timeout"))
        assert outcome.false_blocks == list(item.asks)
        assert outcome.false_allows == []


def test_the_recorded_format_round_trips(tmp_path: Path) -> None:
    answers = load_plans(HAND, "de")
    dump_plans(tmp_path, "de", "test", answers)
    assert load_plans(tmp_path, "de") == answers


async def test_the_live_path_sends_the_planning_request_and_records_what_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The --live code against the fake Messages API, answering with the recorded plans.

    No key here: this shows the live path sends the agent's own planning request through
    the SDK, keeps the answers in the recorded format, and scores them as offline.
    """
    import json

    from testing.fake_anthropic.server import FakeAnthropic

    from .planner_eval import live_answers

    items = load_utterances("de")[-30:]
    recorded = load_plans(HAND, "de")
    async with FakeAnthropic(api_key="sk-ant-eval") as fake:

        def planner(request: Any) -> dict[str, Any]:
            facts = json.loads(request.body["messages"][0]["content"])
            previous = (facts["earlier_utterances"] or [None])[-1]
            return dict(recorded[(facts["utterance"], previous)])

        fake.planner = planner
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-eval")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        answers = await live_answers(items, "claude-haiku-5-5")
        assert len(fake.plan_requests) == len(items)
    assert answers == {item.key: recorded[item.key] for item in items}
    dump_plans(tmp_path, "de", "claude-haiku-5-5, test", answers)
    replayed = load_plans(tmp_path, "de")
    outcomes = [await evaluate(item, replayed[item.key]) for item in items]
    assert not any(o.false_blocks or o.false_allows or o.invalid for o in outcomes)
