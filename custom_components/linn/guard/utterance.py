"""Matching the user's own words in code: yes/no answers and which kind of action they ask for.

Only ever applied to the raw utterance the user spoke or typed, never to model output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
import re

from .names import name_tokens, names_whole, phrase_starts
from .phrases import LANGUAGES, Language, answers, any_rule, language_code, rules_for
from .request_words import only_request_words, request_vocabulary


class Answer(StrEnum):
    """A confirmation answer, or neither."""

    YES = "yes"
    NO = "no"
    NEITHER = "neither"


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "`": "'"})
_WORDS = re.compile(r"[^\w']+")
_QUESTION_MARKS = ("?", "\u00bf", "\uff1f", "\u061f")
"""Question marks (also inverted, fullwidth, Arabic): an answer with one asks, not confirms."""
_CLAUSE_BREAKS = re.compile(r"([.?!;,:\n\u00bf\u00a1]+)")


DEVICE_WORD_KINDS = frozenset({"standby", "wake", "stop", "pause", "volume", "mute"})
"""Kinds whose words (off, on, up, down, quiet) ask the same of any device: in a clause that
names another kind of device (Language.other_devices) they are that device's ("turn off the
lights in the living room" asks nothing of the living room's player; review 30e, W2)."""
_TITLE_WORD_KINDS = frozenset({"standby", "mute", "volume", "limit", "stop", "pause"})
"""Kinds whose words a title is full of ("Sleep", "Hush", "Turn It Off", "Stop"): a clause
that names what to hear or to find (Language.hear_starts) does not ask for them. Other
kinds still can ("play it in the kitchen too", "play them in random order", "play that
again")."""

FEATURE_WORD_KINDS = frozenset({"standby", "wake", "stop"})
"""Kinds whose words (off, on, aus, uit, éteins, apaga) ask the same of something else the
player has: in a clause that names one of those (Language.player_features) they are its
("turn off shuffle", "Zufallsmodus aus", "éteins la répétition" ask for no standby;
review 49)."""
NEGATED_STILL_ASKS = frozenset({"shuffle", "repeat", "group", "limit", "memory"})
"""Kinds whose negated words still ask for them: "no more shuffle", "kein Zufall mehr" ask
for shuffle off, "don't keep them together" to ungroup, "never above 40" for a limit,
"don't forget that ..." to remember. Every other kind's negated words ask for nothing
("don't turn it off", "never mute it", "schalte ihn nicht aus"; review 49)."""


def has_rules(language: str | None) -> bool:
    """True when the guard has word rules for this language (README: en, de, fr, nl, es).

    For another language it cannot tell what the user's words ask for: every change a
    model makes then needs the user's yes.
    """
    return rules_for(language) is not None


def rule_languages(language: str | None) -> tuple[Language, ...]:
    """The rules to read the words with: the language's own, or none.

    None is English, Home Assistant's default language.
    """
    rules = rules_for(language)
    return (rules,) if rules is not None else ()


def _tokens(text: str, lang: Language | None = None) -> list[str]:
    text = text.casefold().translate(_APOSTROPHES)
    if lang is not None and lang.elision:
        text = text.replace("'", " ")
    return _WORDS.sub(" ", text).split()


def _normalise(utterance: str, lang: Language) -> str:
    text = " ".join(_tokens(utterance, lang))
    changed = True
    while changed:  # "yes please", "ja bitte", "bitte ja"
        changed = False
        for polite in lang.polite:
            if text.endswith(" " + polite):
                text, changed = text.removesuffix(" " + polite).strip(), True
            elif text.startswith(polite + " "):
                text, changed = text.removeprefix(polite + " ").strip(), True
    return text


def match_answer(utterance: str | None, language: str | None) -> Answer:
    """YES or NO only when the whole utterance is an answer in the user's language.

    "Yes, and set the volume to 100" is NEITHER: a confirmation is an answer, nothing else.
    A question is none either: "yes?" or "ok?" is a user who did not catch the question.
    A language without rules knows a few answers (phrases/answers.py) and the English ones.
    """
    if not utterance or any(mark in utterance for mark in _QUESTION_MARKS):
        return Answer.NEITHER
    lang = rules_for(language)
    if lang is None:
        code = language_code(language)
        lang = LANGUAGES["en"]
        text = _normalise(utterance, lang)
        if text in lang.yes or text in answers.YES.get(code, ()):
            return Answer.YES
        if text in lang.no or text in answers.NO.get(code, ()):
            return Answer.NO
        return Answer.NEITHER
    text = _normalise(utterance, lang)
    if text in lang.yes:
        return Answer.YES
    if text in lang.no:
        return Answer.NO
    return Answer.NEITHER


# --- what a request is: clauses that are not questions -----------------------------------


def _is_question(tokens: list[str], lang: Language, question_mark: bool) -> bool:
    """A clause that asks for information ('is it too loud?'), not for a change."""
    if any_rule(lang.questions, tokens):
        return True  # "tell me which source is on", "tu joues quoi ?"
    if any_rule(lang.requests, tokens):
        return False  # "could you turn it down?": a request in a question's shape
    if tokens[0] in lang.question_starts:
        return True
    return lang.intonation_questions and question_mark  # "c'est trop fort ?"


def _split(tokens: list[str], lang: Language) -> list[list[str]]:
    """Split at the language's conjunctions, not inside a number or a refusal.

    'treinta y cinco' is one number, 'anything but 50' one refusal.
    """
    parts: list[list[str]] = [[]]
    for index, token in enumerate(tokens):
        between_numbers = (
            token in lang.number_joiners
            and 0 < index < len(tokens) - 1
            and tokens[index - 1] in lang.numbers
            and tokens[index + 1] in lang.numbers
        )
        kept = index > 0 and tokens[index - 1] in lang.whole_before  # "anything but 50"
        if token in lang.conjunctions and not between_numbers and not kept:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def split_clauses(utterance: str, lang: Language) -> list[list[str]]:
    """The utterance's clauses that are not questions, as tokens."""
    pieces = _CLAUSE_BREAKS.split(utterance)
    clauses = []
    for index in range(0, len(pieces), 2):
        question_mark = "?" in (pieces[index + 1] if index + 1 < len(pieces) else "")
        for part in _split(_tokens(pieces[index], lang), lang):
            start = 0
            while start < len(part) and part[start] in lang.fillers:
                start += 1
            tokens = part[start:]
            if tokens and any_rule(lang.requests, tokens):
                question_mark = False  # "¿puedes bajarlo y poner jazz?": the whole asks
            if tokens and not _is_question(tokens, lang, question_mark):
                clauses.append(tokens)
    return clauses


def _phrase(term: str) -> str:
    return " ".join(_tokens(term))


def utterance_asks_for(
    utterance: str | None,
    action: str,
    extra_terms: Iterable[str] = (),
    *,
    narrow: bool = True,
    language: str | None = None,
    sources: Iterable[str] = (),
) -> bool:
    """True when the user's own words ask for this kind of action (and this target).

    `extra_terms`: names the call targets, which only narrow; `narrow=False`: they need not be
    said; `language`: the turn's (None: English); one without rules asks for nothing
    (docs/security.md, "How the guard reads the user's words (as the code does it)").
    `sources`: the players' source names (device text): one the words ask for as a source
    asks for no other action ("change the input to Standby"; mask_sources).
    """
    names = tuple(sources)
    return any(
        _asks_for(utterance, action, extra_terms, narrow, lang, sources=names)
        for lang in rule_languages(language)
    )


_MASK = "\x00"
"""A token no rule reads: what stands for a source name's words (mask_sources)."""


def mask_sources(
    clauses: list[list[str]], sources: Iterable[str], lang: Language
) -> list[list[str]]:
    """The clauses with the words of each source name they ask for as a source masked.

    A source phrase is the name after a `source_before` word or before a `source_after`
    word ("to Standby", "the Off input"), the test the action "source" uses: a device
    chooses its sources' names (Linn's app asks no password), and "change the input to
    Standby", "use the Off input", "the input to Volume 45" ask for the source, not for
    standby or a volume of 45 (break-it review 51). Words outside such a phrase still
    count ("turn it off" with a source named "Off").
    """
    phrases = [tokens for tokens in (_tokens(name, lang) for name in sources) if tokens]
    if not phrases:
        return clauses
    masked = []
    for clause in clauses:
        out = list(clause)
        for phrase in phrases:
            size = len(phrase)
            for start in range(len(clause) - size + 1):
                if clause[start : start + size] != phrase:
                    continue
                before = clause[start - 1] if start > 0 else ""
                after = clause[start + size] if start + size < len(clause) else ""
                if before in lang.source_before or after in lang.source_after:
                    out[start : start + size] = [_MASK] * size
        masked.append(out)
    return masked


def _asks_for(
    utterance: str | None,
    action: str,
    extra_terms: Iterable[str],
    narrow: bool,
    lang: Language,
    *,
    sources: Sequence[str] = (),
) -> bool:
    clauses = split_clauses(utterance, lang) if utterance else []
    if not clauses:
        return False
    text = " " + " ".join(" ".join(clause) for clause in clauses) + " "
    if action != "source":
        clauses = mask_sources(clauses, sources, lang)
    phrases = [phrase for phrase in (_phrase(term) for term in extra_terms) if phrase]
    if narrow and phrases and not any(f" {phrase} " in text for phrase in phrases):
        return False
    if action in DEVICE_WORD_KINDS:
        clauses = [clause for clause in clauses if not lang.other_devices.intersection(clause)]
    if action in FEATURE_WORD_KINDS:
        clauses = [clause for clause in clauses if not lang.player_features.intersection(clause)]
    if action in _TITLE_WORD_KINDS:
        # the words after "play" are what to hear: "sleep", "hush", "up" are the title's;
        # only a level said as one ("at 25", "volume 25") is a volume there
        hear = [clause for clause in clauses if any_rule(lang.hear_starts, clause)]
        if action == "volume" and level_numbers(hear, lang, unnegated=True):
            return True
        clauses = [clause for clause in clauses if not any_rule(lang.hear_starts, clause)]
    negated_too = action in NEGATED_STILL_ASKS
    if action == "volume":  # "no louder please", "it's loud enough" ask for none
        if any(lang.wants(lang.purposes.get(action, ()), clause) for clause in clauses):
            return True
    elif any(lang.asks_for(clause, action, negated_too=negated_too) for clause in clauses):
        return True
    if action == "volume":
        return bool(level_numbers(clauses, lang, unnegated=True))
    if action == "source":
        return any(
            f" {before} {phrase} " in text or f" {phrase} {after} " in text
            for phrase in phrases
            for before in lang.source_before
            for after in lang.source_after
        )
    return False


# --- volumes the user said ---------------------------------------------------------------


def _number(token: str, lang: Language) -> int | None:
    if token.isdigit():
        return int(token)
    if token in lang.numbers:
        return lang.numbers[token]
    for joiner in lang.number_joiners:  # fünfundzwanzig, vijfentwintig
        ones, _, tens = token.partition(joiner)
        if tens and ones in lang.numbers and tens in lang.numbers and lang.numbers[tens] >= 20:
            return lang.numbers[tens] + lang.numbers[ones]
    return None


def _numbers(clause: list[str], lang: Language) -> list[tuple[int, int, int]]:
    """(value, first index, last index) of each number; 'twenty five' is one number."""
    found: list[tuple[int, int, int]] = []
    index = 0
    while index < len(clause):
        value = _number(clause[index], lang)
        if value is None:
            index += 1
            continue
        end = index
        if 20 <= value < 100 and value % 10 == 0:
            following = index + 1
            if following + 1 < len(clause) and clause[following] in lang.number_joiners:
                following += 1  # treinta y cinco, vingt et un
            if following < len(clause):
                ones = _number(clause[following], lang)
                if ones is not None and 0 < ones < 10 and not clause[following].isdigit():
                    value, end = value + ones, following
        found.append((value, index, end))
        index = end + 1
    return found


def level_numbers(
    clauses: list[list[str]], lang: Language, *, unnegated: bool = False, unrefused: bool = False
) -> set[int]:
    """The numbers in these clauses that can be a volume level (volume_numbers).

    With `unrefused`, not one a negation or refusal before it reaches (Language.refuses:
    "not 50, 20" and "anything but 50" say no 50); with `unnegated`, neither, nor one a
    negation reaches as it reaches action words ("don't turn it up to 100" asks for none).
    """
    numbers: set[int] = set()
    for clause in clauses:
        hear = any_rule(lang.hear_starts, clause)  # "play 99 Luftballons"
        for value, first, last in _numbers(clause, lang):
            before = clause[first - 1] if first > 0 else ""
            after = clause[last + 1] if last + 1 < len(clause) else ""
            if hear and not (
                lang.volume_words & set(clause[max(0, first - 2) : first])
                or before in lang.level_before
            ):
                continue  # in a title only "at 25", "volume 25", "volume to 25" is a volume
            if before in lang.not_volume_before or after in lang.not_volume_after:
                continue
            if unnegated and lang.negated(clause, first, last + 1):
                continue
            if (unnegated or unrefused) and lang.refuses(clause, first):
                continue
            numbers.add(value)
    return numbers


# --- players the user named -----------------------------------------------------------

MIN_NAME_TOKEN = 3
"""A word of a player's name that names it alone ("kitchen" of "Kitchen Streamer")."""


def _name_tokens(text: str) -> list[str]:
    return _WORDS.sub(" ", text.casefold().translate(_APOSTROPHES).replace("'", " ")).split()


def players_named(
    utterance: str | None,
    targets: Sequence[Sequence[str]],
    others: Sequence[Sequence[str]],
    implied: Sequence[bool],
    *,
    planned: bool = False,
) -> bool:
    """True when the user's words name every player a change targets, or imply it.

    `targets`, `others`: per player (the call's; every other offered), the names a user says for
    it; `implied`: per target, whether it counts unnamed (docs/security.md, "How the guard reads
    the user's words (as the code does it)"). A name made only of request words ("Turn Off",
    "It", "The Music"; request_words.py) is named only by `planned` words (a plan's target
    words, the user's own for a player), never by an utterance the word rules read; a word of a
    name that is a request word never names its player alone.
    """
    words = set(_name_tokens(utterance or ""))
    players = [*targets, *others]
    every_name = [name for names in players for name in names]
    token_sets = [{t for name in names for t in _name_tokens(name)} for names in players]
    vocabulary = request_vocabulary()

    def named(index: int) -> bool:
        if any(
            names_whole(utterance, name, every_name)
            for name in players[index]
            if planned or not only_request_words(name)
        ):
            return True
        shared = set().union(*(tokens for i, tokens in enumerate(token_sets) if i != index))
        distinct = {t for t in token_sets[index] - shared - vocabulary if len(t) >= MIN_NAME_TOKEN}
        return bool(distinct & words)

    other_named = any(named(len(targets) + i) for i in range(len(others)))
    return all(
        named(index) or (implied[index] and not other_named) for index in range(len(targets))
    )


def request_text(utterance: str | None, previous: str | None, language: str | None) -> str | None:
    """The words a change in this turn may rest on: this utterance, or with the last one.

    A short answer that asks for nothing itself ("the kitchen", "FIP", "try again") and
    a follow-up ("and the kitchen too") go on with the user's previous request (their
    own words, one turn back); a yes or no, a thank-you and a question do not, and
    neither does anything else that asks for something itself, nor words a negation
    reaches ("no lo apagues" after "apágalo").
    """
    if not utterance or not previous:
        return utterance
    if match_answer(utterance, language) is not Answer.NEITHER:
        return utterance
    if any(_follows_on(utterance, lang) for lang in rule_languages(language)):
        return f"{utterance}. {previous}"
    return utterance


def _follows_on(utterance: str, lang: Language) -> bool:
    clauses = split_clauses(utterance, lang)
    words = {word for clause in clauses for word in clause}
    if not clauses or words <= lang.closers | lang.polite:
        return False
    if any(lang.negates(clause) for clause in clauses):
        return False  # "no lo apagues", "and don't turn it off": not "apágalo" again
    tokens = _tokens(utterance, lang)
    if words <= lang.retry or tokens[0] in lang.follow_on or any_rule(lang.also, clauses[-1]):
        return True  # "try again", "and the kitchen too"
    if any(lang.asks_for_any(clause) for clause in clauses):
        return False
    return not level_numbers(clauses, lang)


def said_verbatim(phrase: str, utterance: str | None) -> bool:
    """True when the phrase is the user's own words: consecutive whole words of the utterance.

    Case, punctuation and apostrophes do not matter; every word must be there, in order,
    and not right after a negation the phrase leaves out ("I never want the volume above
    20" does not say "want the volume above 20"; review 30e, W1): one of the two words
    before it that negates in any language with rules (Language.negation_word, the tables
    requests read too). Every language's, not only the turn's, as the one mixed list before
    the tables did: never looser for a fact in mixed words ("remember: nicht ..."), and a
    needless refusal costs only a fact not kept.
    """
    said = name_tokens(utterance or "")
    wanted = name_tokens(phrase)
    return bool(wanted) and any(
        not any(
            lang.negation_word(word)
            for word in said[max(0, start - 2) : start]
            for lang in LANGUAGES.values()
        )
        for start in phrase_starts(said, wanted)
    )
