"""The labelled paraphrase set (issue 19): the user's own words, in five languages.

Every utterance that asks for a change must count as asking for it (0 false blocks), with
its target's name and, for a volume, the level or direction it asked for; no utterance
labelled "none" (a question, a thank-you, a name alone) may count as asking for any change.
The data is in paraphrases/<language>.yaml; `python -m tests.guard.test_paraphrases`
prints the figures of docs/evaluation.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from custom_components.linn.guard.phrases import LANGUAGES
from custom_components.linn.guard.utterance import has_rules, request_text, utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume, volume_numbers
from custom_components.linn.tools.linn_tools import TOOL_SPECS

DATA = Path(__file__).parent / "paraphrases"
CURRENT = 30
"""The volume before each utterance: 'up' must allow more than this, 'down' less."""
MINIMUM = {"en": 100, "de": 100, "fr": 50, "nl": 50, "es": 50}


@dataclass(frozen=True)
class Utterance:
    language: str
    say: str
    asks: str
    names: tuple[str, ...] = ()
    previous: str | None = None
    volume: str | int | None = None

    @property
    def words(self) -> str | None:
        return request_text(self.say, self.previous, self.language)


def load(language: str) -> list[Utterance]:
    data: dict[str, Any] = yaml.safe_load((DATA / f"{language}.yaml").read_text("utf-8"))
    assert data["language"] == language
    return [
        Utterance(
            language,
            item["say"],
            item["asks"],
            tuple(item.get("names", ())),
            item.get("previous"),
            item.get("volume"),
        )
        for item in data["utterances"]
    ]


def false_block(item: Utterance) -> str | None:
    """Why an utterance that asks for a change would be refused, if it would."""
    words = item.words
    if not utterance_asks_for(words, item.asks, item.names, language=item.language):
        return "does not ask for it"
    if item.volume is None:
        return None
    target = {"up": CURRENT + 10, "down": CURRENT - 10}.get(str(item.volume), item.volume)
    assert isinstance(target, int)
    if not utterance_allows_volume(words, target, CURRENT, item.language):
        return f"does not allow the volume {target}"
    return None


def counted_as_asking(item: Utterance) -> list[str]:
    """The changes a "none" utterance would count as asking for (must be none)."""
    words = item.words
    asked = [
        purpose
        for purpose in LANGUAGES[item.language].purposes
        if utterance_asks_for(words, purpose, narrow=False, language=item.language)
    ]
    if volume_numbers(words, item.language):
        asked.append("a volume number")
    asked.extend(
        f"volume {target}"
        for target in (CURRENT - 10, CURRENT + 10)
        if utterance_allows_volume(words, target, CURRENT, item.language)
    )
    return asked


def other_purposes(item: Utterance) -> list[str]:
    """Other changes an asking utterance also counts for (reported, not a target)."""
    return [
        purpose
        for purpose in LANGUAGES[item.language].purposes
        if purpose != item.asks
        and utterance_asks_for(item.words, purpose, narrow=False, language=item.language)
    ]


@pytest.mark.parametrize("language", sorted(MINIMUM))
def test_the_set_is_large_enough_and_labelled_with_known_purposes(language: str) -> None:
    items = load(language)
    assert len(items) >= MINIMUM[language]
    purposes = set(LANGUAGES[language].purposes) | {"none"}
    assert {item.asks for item in items} <= purposes
    assert sum(item.asks == "none" for item in items) >= len(items) // 8
    assert len({item.say for item in items}) == len({(i.say, i.previous) for i in items})


@pytest.mark.parametrize("language", sorted(MINIMUM))
def test_no_false_blocks(language: str) -> None:
    blocked = {
        item.say: reason
        for item in load(language)
        if item.asks != "none" and (reason := false_block(item)) is not None
    }
    assert blocked == {}


@pytest.mark.parametrize("language", sorted(MINIMUM))
def test_no_question_or_remark_counts_as_asking_for_a_change(language: str) -> None:
    asking = {
        item.say: asked
        for item in load(language)
        if item.asks == "none" and (asked := counted_as_asking(item))
    }
    assert asking == {}


def test_languages_with_rules_are_the_ones_in_the_set() -> None:
    assert set(LANGUAGES) == set(MINIMUM)
    assert all(has_rules(code) for code in ("en-GB", "de-CH", "fr", "nl-BE", "es-419"))
    assert not has_rules("it")


@pytest.mark.parametrize("language", sorted(MINIMUM))
def test_every_kind_of_change_a_tool_makes_has_rules_and_utterances(language: str) -> None:
    actions = {spec.action for spec in TOOL_SPECS.values() if spec.action} | {"memory"}
    assert actions <= set(LANGUAGES[language].purposes)
    assert actions <= {item.asks for item in load(language)}


def figures() -> str:
    """The per-language table for docs/evaluation.md."""
    rows = [
        "| language | utterances | asking | none | false blocks | none counted as asking "
        "| asking ones that also count for another purpose |",
        "|---|---|---|---|---|---|---|",
    ]
    for language in sorted(MINIMUM, key=list(MINIMUM).index):
        items = load(language)
        asking = [item for item in items if item.asks != "none"]
        none = [item for item in items if item.asks == "none"]
        blocks = sum(false_block(item) is not None for item in asking)
        wrong = sum(bool(counted_as_asking(item)) for item in none)
        broad = sum(bool(other_purposes(item)) for item in asking)
        rows.append(
            f"| {language} | {len(items)} | {len(asking)} | {len(none)} | {blocks} | {wrong} "
            f"| {broad} ({100 * broad // max(len(asking), 1)} %) |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(figures())
