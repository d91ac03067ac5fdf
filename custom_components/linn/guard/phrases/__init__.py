"""Per-language word rules: how a user asks for each kind of change, and what a question is.

The rule syntax and how to add a word (docs/evaluation.md, "The design: phrase rules in code
(now the path without a plan)").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

MAX_GAP = 4
"""The most words `...` may stand for."""


@dataclass(frozen=True, slots=True)
class _Word:
    exact: frozenset[str]
    prefixes: tuple[str, ...]

    def matches(self, token: str) -> bool:
        return token in self.exact or any(token.startswith(p) for p in self.prefixes)


@dataclass(frozen=True, slots=True)
class Rule:
    """One compiled pattern; `None` in `words` is a gap of 0 to MAX_GAP words."""

    text: str
    words: tuple[_Word | None, ...]
    at_start: bool
    at_end: bool

    def matches(self, clause: list[str]) -> bool:
        """True when the pattern occurs in the clause (a list of words)."""
        return next(self.spans(clause), None) is not None

    def spans(self, clause: list[str]) -> Iterator[tuple[int, int, frozenset[int]]]:
        """Every occurrence in the clause: (first index, index after the last, own words).

        The own words are the indexes of the pattern's words, not of its gaps.
        """
        starts = range(1) if self.at_start else range(len(clause))
        for start in starts:
            for end, words in self._spans(0, clause, start, ()):
                yield start, end, frozenset(words)

    def _spans(
        self, index: int, clause: list[str], position: int, words: tuple[int, ...]
    ) -> Iterator[tuple[int, tuple[int, ...]]]:
        if index == len(self.words):
            if not self.at_end or position == len(clause):
                yield position, words
            return
        word = self.words[index]
        if word is None:
            last = min(len(clause), position + MAX_GAP)
            for p in range(position, last + 1):
                yield from self._spans(index + 1, clause, p, words)
        elif position < len(clause) and word.matches(clause[position]):
            yield from self._spans(index + 1, clause, position + 1, (*words, position))


def rule(text: str) -> Rule:
    """Compile one pattern (see the module's docstring)."""
    parts = text.casefold().split()
    at_start = bool(parts) and parts[0].startswith("^")
    at_end = bool(parts) and parts[-1].endswith("$")
    if at_start:
        parts[0] = parts[0][1:]
    if at_end:
        parts[-1] = parts[-1][:-1]
    words: list[_Word | None] = []
    for part in parts:
        if part == "...":
            words.append(None)
            continue
        options = part.split("|")
        words.append(
            _Word(
                frozenset(o for o in options if not o.endswith("*")),
                tuple(o[:-1] for o in options if o.endswith("*")),
            )
        )
    if not words or words[0] is None or words[-1] is None:
        raise ValueError(f"a rule needs a word at both ends: {text!r}")
    return Rule(text, tuple(words), at_start, at_end)


def rules(*texts: str) -> tuple[Rule, ...]:
    """Compile several patterns."""
    return tuple(rule(text) for text in texts)


def any_rule(patterns: Iterable[Rule], clause: list[str]) -> bool:
    """True when one of the patterns occurs in the clause."""
    return any(pattern.matches(clause) for pattern in patterns)


@dataclass(frozen=True, slots=True)
class Language:
    """Everything the guard reads in one language's words. Words are casefolded."""

    code: str
    purposes: Mapping[str, tuple[Rule, ...]]
    """Per kind of action (ToolSpec.action): the patterns by which a user asks for it."""
    yes: frozenset[str]
    no: frozenset[str]
    polite: frozenset[str]
    """Stripped from both ends of a yes or no ("yes please", "ja bitte")."""
    conjunctions: frozenset[str]
    """Words that start a new clause ("and", "then", "but")."""
    fillers: frozenset[str]
    """Dropped from a clause's start ("oh", "ok", "now")."""
    question_starts: frozenset[str]
    """A clause starting with one asks for information, not a change."""
    questions: tuple[Rule, ...] = ()
    """Patterns that make a clause a question wherever they are ("tell me", "quoi")."""
    requests: tuple[Rule, ...] = ()
    """Patterns that make a question-shaped clause a request ("could you", "how about")."""
    intonation_questions: bool = False
    """A clause ending in '?' is a question unless it is request-shaped (fr, es)."""
    elision: bool = False
    """Split words at apostrophes ("l'album" is "l album"; fr)."""
    also: tuple[Rule, ...] = ()
    """'and the kitchen too': a follow-up that goes on with the previous request."""
    follow_on: frozenset[str] = frozenset()
    """A first word that makes a short utterance a follow-up ("and", "und")."""
    source_before: frozenset[str] = frozenset()
    """A word right before a source's name that asks for it ("to TV", "auf Phono")."""
    source_after: frozenset[str] = frozenset()
    """A word right after a source's name that asks for it ("TV sound")."""
    volume_up: tuple[Rule, ...] = ()
    volume_down: tuple[Rule, ...] = ()
    loud: frozenset[str] = frozenset()
    quiet: frozenset[str] = frozenset()
    too: frozenset[str] = frozenset()
    """'too loud' asks for less, 'too quiet' for more."""
    numbers: Mapping[str, int] = field(default_factory=dict)
    number_joiners: frozenset[str] = frozenset()
    """'fünfundzwanzig' (one word), 'treinta y cinco' (three): ones and tens joined."""
    not_volume_before: frozenset[str] = frozenset()
    not_volume_after: frozenset[str] = frozenset()
    closers: frozenset[str] = frozenset()
    """Words of a thank-you or goodbye: no follow-up."""
    retry: frozenset[str] = frozenset()
    """Words of 'try again': repeats the previous request."""
    volume_words: frozenset[str] = frozenset()
    """Words that name the volume itself ("volume", "Lautstärke"): after one, a number in a
    clause that names what to hear is still a volume ("play jazz at volume 25")."""
    level_before: frozenset[str] = frozenset()
    """A word right before a number that makes it a level in a clause that names what to
    hear ("play the turntable at 25")."""
    other_devices: frozenset[str] = frozenset()
    """Words that name another kind of device ("lights", "Heizung", "volets"): a clause that
    holds one asks its power and level words of that device ("turn off the lights in the
    living room"), never of a player (DEVICE_WORD_KINDS in utterance.py)."""
    hear_starts: tuple[Rule, ...] = ()
    """A clause that opens with one of these names what to hear after it ("play Hush by
    Deep Purple", "spiel Musik aus den Achtzigern"): its words ask only to play or switch,
    never for another kind of change or a volume ("hush", "aus", "up" are the title's)."""

    player_features: frozenset[str] = frozenset()
    """Words that name something else the player has ("shuffle", "repeat", "Zufallsmodus",
    "aléatoire"): a clause that holds one asks its on and off words of that, never for a
    standby, a wake or a stop ("turn off shuffle"; FEATURE_WORD_KINDS in utterance.py)."""
    negations: tuple[Rule, ...] = ()
    """Patterns that negate the action words they reach ("don't", "do not", "never",
    "nicht", "ne", "pas", "niet", "no"): "don't turn it off" asks for no standby."""
    negation_after: int = 0
    """How many words after the action's words a negation still reaches: German and Dutch
    put it after the verb ("stopp die Musik nicht", "pauzeer het niet"), colloquial French
    drops the "ne" ("éteins-la pas"). Before the action's words it reaches to the clause's
    start."""
    negation_ends: frozenset[str] = frozenset()
    """Words between a negation and the action's words that end its reach ("don't stop the
    music just turn it down", "nicht stoppen sondern leiser")."""
    not_negating_next: frozenset[str] = frozenset()
    """A word right after a negation that makes it none: a level ("nicht so laut", "niet zo
    hard", "pas trop fort", "no tan alto" ask for a volume) or an idiom ("never mind",
    "n'importe quoi", "don't forget to")."""
    fact_negations: frozenset[str] = frozenset()
    """Words that negate the words right after them in a fact to remember, besides the
    one-word `negations` (`negation_word`): ones a request's rules leave out ("not", "no",
    the "t" of "can't" and "won't": "why not turn it off?", "can't you turn it off?" ask for
    it), but a fact without them says the opposite ("I'd rather not have it above 20" is no
    fact "have it above 20"; utterance.said_verbatim)."""

    refusals: tuple[Rule, ...] = ()
    """Patterns beyond `negations` that refuse the numbers after them: no level the user
    said ("not 50", "anything but 50", "except", "other than", "außer", "sauf", "behalve",
    "excepto"; Language.refuses)."""
    whole_before: frozenset[str] = frozenset()
    """Words after which a conjunction starts no clause: "anything but 50" is one refusal."""
    no_more: frozenset[str] = frozenset()
    """Words beyond `negations` that refuse a one-word volume direction right after them:
    "no louder", "not up" (English "no" and "not" are no `negations`: "no set it to 20",
    "not 50, 20"). After a comma the word is its own clause: "no, louder!" asks for more."""
    cessations: tuple[Rule, ...] = ()
    """Patterns that ask to stop a change under way: the volume words after them in the
    clause ask for none ("stop turning it up", "hör auf lauter zu machen", "arrête de monter
    le son", "stop met harder zetten", "deja de subirlo"); a `negation_ends` word between
    ends their reach. "stop, turn it up" is two clauses."""
    enough: frozenset[str] = frozenset()
    """Words that make a `loud` or `quiet` word right next to them enough, no change ("it's
    loud enough", "es ist laut genug", "c'est assez fort", "het is hard genoeg", "ya está
    bastante alto"); with a negation word before it in the clause it is read as before
    ("it's not loud enough" asks for more)."""

    def refuses(self, clause: list[str], first: int) -> bool:
        """True when a negation or refusal before the number at clause[first] reaches it.

        It reaches to the clause's end unless a `negation_ends` word is between ("nicht 50
        sondern 20"); one with a `not_negating_next` or `too` word after it is a complaint
        about the level, none ("not so loud 20", "nicht so laut auf 20"); one after the words
        a clause opens with to name what to hear is the title's.
        """
        hear = self._hear_end(clause)
        for pattern in (*self.negations, *self.refusals):
            for start, after, _own in pattern.spans(clause):
                if after > first or (hear and start >= hear):
                    continue
                if after < len(clause) and clause[after] in self.not_negating_next | self.too:
                    continue
                if not self.negation_ends.intersection(clause[after:first]):
                    return True
        return False

    def asks_for(self, clause: list[str], purpose: str, *, negated_too: bool = False) -> bool:
        """True when the clause holds one of the purpose's patterns that no negation reaches.

        "don't turn it off" asks for no standby; with `negated_too`, a negated pattern counts
        too ("no more shuffle" asks for shuffle: off).
        """
        patterns = self.purposes.get(purpose, ())
        if negated_too:
            return any_rule(patterns, clause)
        return self.unnegated(patterns, clause)

    def unnegated(self, patterns: Iterable[Rule], clause: list[str]) -> bool:
        """True when one of the patterns occurs in the clause where no negation reaches it.

        The reach of `asks_for`, also for the volume's direction ("don't turn it up" asks
        for no more; volume_words.utterance_allows_volume).
        """
        if not self.negations:
            return any_rule(patterns, clause)
        return any(
            not self.negated(clause, start, end, words)
            for pattern in patterns
            for start, end, words in pattern.spans(clause)
        )

    def wants(self, patterns: Iterable[Rule], clause: list[str]) -> bool:
        """True when one of the volume patterns occurs where the user asks for it.

        Where no negation reaches it (`unnegated`) and it is not `holds_off`: "no louder
        please", "stop turning it up", "it's loud enough" ask for no volume and no direction
        (volume_words.utterance_allows_volume, utterance.utterance_asks_for).
        """
        return any(
            not self.negated(clause, start, end, words)
            and not self.holds_off(clause, start, end, words)
            for pattern in patterns
            for start, end, words in pattern.spans(clause)
        )

    def holds_off(
        self, clause: list[str], start: int, end: int, words: frozenset[int] = frozenset()
    ) -> bool:
        """True when the volume words clause[start:end] ask for no more of a change.

        A `loud` or `quiet` word of theirs next to an `enough` word with no negation word
        before it in the clause ("it's loud enough"; "it's not loud enough" is no
        satiety); a one-word direction with a `no_more` word right before it ("no louder");
        a `cessation` before them in the clause with no `negation_ends` word between
        ("stop turning it up").
        """
        for index in words:
            if clause[index] not in self.loud | self.quiet:
                continue
            beside = clause[max(0, index - 1) : index] + clause[index + 1 : index + 2]
            if self.enough.intersection(beside):
                before = (part for word in clause[:index] for part in word.split("'"))
                return not any(self.negation_word(part) for part in before)  # "isn't"
        if end - start == 1 and start > 0 and clause[start - 1] in self.no_more:
            return True
        for cessation in self.cessations:
            for _first, after, _own in cessation.spans(clause):
                if after <= start and not self.negation_ends.intersection(clause[after:start]):
                    return True
        return False

    def negation_word(self, word: str) -> bool:
        """True when the word alone negates what follows it in a fact to remember.

        A one-word pattern of `negations` ("never", "nicht", "jamais", "niet", "nunca") or
        one of `fact_negations` ("not", "no"); `word` is casefolded, apostrophes split
        ("don't" is "don", "t"; "n'aime" is "n", "aime").
        """
        return word in self.fact_negations or any(
            len(negation.words) == 1
            and negation.words[0] is not None
            and negation.words[0].matches(word)
            for negation in self.negations
        )

    def negates(self, clause: list[str]) -> bool:
        """True when the clause holds a negation with a word after it that it reaches.

        "no lo apagues", "and don't turn it off" do; "no" or "esa no" alone do not.
        """
        return any(
            after < len(clause) and clause[after] not in self.not_negating_next
            for negation in self.negations
            for _first, after, _own in negation.spans(clause)
        )

    def negated(
        self, clause: list[str], start: int, end: int, words: frozenset[int] = frozenset()
    ) -> bool:
        """True when a negation of the clause reaches the action words clause[start:end].

        `words`: their indexes that are the pattern's own, never a negation of it ("no
        oigo", "n'entends"). A negation reaches action words anywhere after it in the clause
        unless a `negation_ends` word is between ("don't stop the music just turn it
        down"), action words whose gap holds it ("schalte ihn nicht aus"), and action words
        up to `negation_after` words before it ("pauzeer het niet"). One after the words a
        clause opens with to name what to hear is the title's ("spiel Nicht von dieser
        Welt"), and one with a `not_negating_next` word after it is none ("nicht so laut").
        """
        hear = self._hear_end(clause)
        for negation in self.negations:
            for first, after, _own in negation.spans(clause):
                if words.intersection(range(first, after)) or (hear and first >= hear):
                    continue
                if after < len(clause) and clause[after] in self.not_negating_next:
                    continue
                if start <= first < end:
                    return True  # in the pattern's gap: "schalte ihn nicht aus"
                if after <= start:
                    between = clause[after:start]
                elif end <= first < end + self.negation_after:
                    between = clause[end:first]
                else:
                    continue
                if not self.negation_ends.intersection(between):
                    return True
        return False

    def _hear_end(self, clause: list[str]) -> int:
        """Where the words that name what to hear end (0: none): the title follows them."""
        return max((e for r in self.hear_starts for _s, e, _w in r.spans(clause)), default=0)

    def asks_for_any(self, clause: list[str]) -> bool:
        """True when the clause asks for any kind of change, negated or not.

        "don't turn it off" asks for something itself: it goes on with no earlier request.
        """
        return any(any_rule(patterns, clause) for patterns in self.purposes.values())


def _registry() -> dict[str, Language]:
    from . import de, en, es, fr, nl  # noqa: PLC0415 (the modules import this one)

    return {module.LANGUAGE.code: module.LANGUAGE for module in (en, de, fr, nl, es)}


LANGUAGES: Mapping[str, Language] = _registry()
"""The languages with rules, by code."""


def language_code(language: str | None) -> str:
    """'de-CH' -> 'de'; None -> 'en' (Home Assistant's default)."""
    return (language or "en").split("-")[0].split("_")[0].casefold()


def rules_for(language: str | None) -> Language | None:
    """The rules of this language, or None when it has none (the guard asks for a yes)."""
    return LANGUAGES.get(language_code(language))
