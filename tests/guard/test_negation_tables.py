"""One source of truth for negation words: the languages' tables (guard/phrases/*.py).

A fact to remember (`said_verbatim`, review 30e W1) and a request (`Language.asks_for`,
review 49) read their negations from the same per-language tables; the volume's direction
(`utterance_allows_volume`) honours the same reach as `asks_for`, so the two cannot disagree
("don't turn it up" asks for no volume and allows no more).
"""

from __future__ import annotations

import pytest

from custom_components.linn.guard.phrases import LANGUAGES
from custom_components.linn.guard.utterance import said_verbatim, utterance_asks_for
from custom_components.linn.guard.volume_words import utterance_allows_volume

OLD_NEGATIONS = [
    "not", "never", "no", "t", "nor", "nicht", "nie", "niemals", "kein", "keine",
    "keinen", "ne", "n", "pas", "jamais", "niet", "nooit", "geen", "nunca", "tampoco",
]  # fmt: skip
"""The mixed set utterance.NEGATIONS held before the tables replaced it (as data)."""

FACT = "want the volume above 20"


@pytest.mark.parametrize("word", OLD_NEGATIONS)
@pytest.mark.parametrize("template", ["remember I {} want the volume above 20",
                                      "remember {} so want the volume above 20"])  # fmt: skip
def test_every_word_the_old_set_negated_a_fact_with_still_does(template: str, word: str) -> None:
    """Never looser than the old set: each of its words, one or two words before the fact."""
    assert not said_verbatim(FACT, template.format(word))


def _table_words() -> list[tuple[str, str]]:
    words = []
    for code, lang in LANGUAGES.items():
        for negation in lang.negations:
            if len(negation.words) == 1 and negation.words[0] is not None:
                words += [(code, word) for word in sorted(negation.words[0].exact)]
        words += [(code, word) for word in sorted(lang.fact_negations)]
    return words


@pytest.mark.parametrize(("language", "word"), _table_words())
def test_every_one_word_negation_of_a_languages_table_negates_a_fact(
    language: str, word: str
) -> None:
    """The fact's check reads the tables the request's rules read ("keiner", "aucun", "jamás")."""
    assert LANGUAGES[language].negation_word(word.replace("'", " ").split()[-1])
    assert not said_verbatim(FACT, f"remember I {word} {FACT}")


@pytest.mark.parametrize(
    ("fact", "words"),
    [
        ("quiero el volumen alto", "recuerda: jamás quiero el volumen alto"),
        ("stand the volume above 20", "remember I cannot stand the volume above 20"),
        ("musique après 22 heures", "souviens-toi: aucune musique après 22 heures"),
        ("want the volume above 20", "I can't want the volume above 20"),
        ("want the volume above 20", "remember: nicht want the volume above 20"),  # any language
    ],
)  # fmt: skip
def test_a_fact_without_a_negation_of_the_tables_is_not_the_users_words(
    fact: str, words: str
) -> None:
    assert not said_verbatim(fact, words)


def test_a_fact_with_no_negation_before_it_is_still_the_users_words() -> None:
    assert said_verbatim("I like jazz in the morning", "remember that I like jazz in the morning")
    assert said_verbatim("quiero jazz por la mañana", "recuerda que quiero jazz por la mañana")


CURRENT = 30
MORE, LESS = CURRENT + 10, CURRENT - 10

NEGATED_DIRECTIONS = [
    ("en", "don't turn it up", MORE),
    ("en", "don't make it louder", MORE),
    ("en", "please don't turn it up", MORE),
    ("de", "mach es nicht lauter", MORE),
    ("de", "dreh nicht lauter", MORE),
    ("fr", "ne monte pas le son", MORE),
    ("nl", "zet hem niet harder", MORE),
    ("es", "no lo subas", MORE),
    ("es", "no lo pongas más alto", MORE),
    ("en", "don't turn it down", LESS),
    ("de", "mach es nicht leiser", LESS),
    ("fr", "ne baisse pas le son", LESS),
    ("nl", "zet hem niet zachter", LESS),
    ("es", "no lo pongas más bajo", LESS),
]


@pytest.mark.parametrize(("language", "said", "target"), NEGATED_DIRECTIONS)
def test_a_negated_direction_allows_no_volume(language: str, said: str, target: int) -> None:
    """Review 49's reach in the direction check: the same as asks_for, which asks for none."""
    assert not utterance_allows_volume(said, target, CURRENT, language)
    assert not utterance_asks_for(said, "volume", language=language)


def test_a_negated_level_allows_no_volume() -> None:
    assert not utterance_allows_volume("don't turn it up to 100", 100, CURRENT, "en")
    assert not utterance_allows_volume("stell es nicht auf 100", 100, CURRENT, "de")
    assert utterance_allows_volume("turn it up to 100", 100, CURRENT, "en")
    assert utterance_allows_volume("nicht 100, sondern 40", 40, CURRENT, "de")


ALLOWED_DIRECTIONS = [
    ("en", "turn it up a bit", MORE),
    ("en", "a bit louder", MORE),
    ("en", "don't stop the music, just turn it up", MORE),
    ("de", "mach es lauter", MORE),
    ("fr", "monte le son", MORE),
    ("nl", "zet hem harder", MORE),
    ("es", "súbelo", MORE),
    ("en", "it's too loud", LESS),
    ("en", "don't stop the music just turn it down", LESS),
    ("de", "nicht so laut", LESS),
    ("de", "nicht stoppen, sondern leiser", LESS),
    ("fr", "pas trop fort", LESS),
    ("es", "no tan alto", LESS),
]


@pytest.mark.parametrize(("language", "said", "target"), ALLOWED_DIRECTIONS)
def test_a_direction_no_negation_reaches_still_allows_its_volume(
    language: str, said: str, target: int
) -> None:
    assert utterance_allows_volume(said, target, CURRENT, language)
    assert utterance_asks_for(said, "volume", language=language)
