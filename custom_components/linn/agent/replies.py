"""What the assistant says itself (not the model): short, in English or German."""

from __future__ import annotations

from enum import StrEnum
from typing import Final
import unicodedata


class Say(StrEnum):
    """The replies the code speaks."""

    DONE = "done"
    NOT_DONE = "not_done"
    SAID_NO = "said_no"
    MAX_STEPS = "max_steps"
    LIMITED = "limited"
    LIMITED_NO_MATCH = "limited_no_match"
    BUDGET_CONVERSATION = "budget_conversation"
    BUDGET_DAY = "budget_day"
    BUDGET_SHARE = "budget_share"
    AUTH = "auth"
    INTERRUPTED = "interrupted"
    MODEL_ERROR = "model_error"
    REFUSED = "refused"
    NO_ANSWER = "no_answer"
    TOO_LONG = "too_long"


_REPLIES: dict[str, dict[Say, str]] = {
    "en": {
        Say.DONE: "Done.",
        Say.NOT_DONE: "That did not work: {reason}.",
        Say.SAID_NO: "OK, I left it as it was.",
        Say.MAX_STEPS: "Sorry, that needed more steps than I may take. Please ask in smaller "
        "parts.",
        Say.LIMITED: "The assistant is in limited mode right now. {reply}",
        Say.LIMITED_NO_MATCH: "The assistant is in limited mode right now, and I could not do "
        "that locally.",
        Say.BUDGET_CONVERSATION: "This conversation has used up its assistant budget. "
        "Please start a new one.",
        Say.BUDGET_DAY: "The assistant has used up today's budget.",
        Say.BUDGET_SHARE: "You have used up your share of the assistant's budget for today. "
        "An administrator can change the share.",
        Say.AUTH: "The assistant's API key was rejected; an administrator needs to enter it again.",
        Say.INTERRUPTED: "Sorry, the assistant stopped answering part way; some of it may "
        "have been done. Please check and ask again.",
        Say.MODEL_ERROR: "Sorry, the assistant could not answer that.",
        Say.REFUSED: "I can't help with that one.",
        Say.NO_ANSWER: "Sorry, I have no answer to that.",
        Say.TOO_LONG: "That request is too long for me. Please say it in fewer words.",
    },
    "de": {
        Say.DONE: "Erledigt.",
        Say.NOT_DONE: "Das hat nicht geklappt: {reason}.",
        Say.SAID_NO: "In Ordnung, ich lasse es, wie es ist.",
        Say.MAX_STEPS: "Das braucht mehr Schritte, als ich machen darf. Bitte frag in "
        "kleineren Teilen.",
        Say.LIMITED: "Der Assistent ist gerade eingeschränkt. {reply}",
        Say.LIMITED_NO_MATCH: "Der Assistent ist gerade eingeschränkt, und lokal konnte ich "
        "das nicht erledigen.",
        Say.BUDGET_CONVERSATION: "Dieses Gespräch hat sein Budget aufgebraucht. Bitte "
        "beginne ein neues.",
        Say.BUDGET_DAY: "Der Assistent hat das Budget für heute aufgebraucht.",
        Say.BUDGET_SHARE: "Du hast deinen Anteil am Budget des Assistenten für heute "
        "aufgebraucht. Ein Administrator kann den Anteil ändern.",
        Say.AUTH: "Der API-Schlüssel des Assistenten wurde abgelehnt; ein Administrator muss "
        "ihn neu eingeben.",
        Say.INTERRUPTED: "Der Assistent hat mittendrin aufgehört; ein Teil ist vielleicht "
        "erledigt. Bitte prüfe es und frag noch einmal.",
        Say.MODEL_ERROR: "Das konnte der Assistent leider nicht beantworten.",
        Say.REFUSED: "Dabei kann ich nicht helfen.",
        Say.NO_ANSWER: "Darauf habe ich leider keine Antwort.",
        Say.TOO_LONG: "Das ist mir zu lang. Bitte sag es mit weniger Worten.",
    },
}


def say(what: Say, language: str | None, **placeholders: str) -> str:
    """The reply in the conversation's language (English when it has none)."""
    base = (language or "en").split("-")[0].split("_")[0].lower()
    text = _REPLIES.get(base, _REPLIES["en"])[what]
    return text.format(**placeholders) if placeholders else text


_INVISIBLE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
"""Control, format (zero-width, bidi marks), surrogate, private, unassigned, separators."""


def has_visible_text(text: str) -> bool:
    """True when the text holds a character a voice can speak or a screen can show.

    str.strip() keeps zero-width spaces, word joiners, bidi marks and the BOM: an answer
    or a question made only of them is silence.
    """
    return any(unicodedata.category(char) not in _INVISIBLE_CATEGORIES for char in text)
