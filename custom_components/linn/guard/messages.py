"""The texts the guard answers with: refusals, failures and the notes on its records."""

from __future__ import annotations

from .pending import PendingKind, PendingRequest

NOTE_CONFIRMED = "confirmed by the user"
"""The note on the record of a change the user's own yes let run (its outcome is APPROVED)."""
NOTE_UNTIED_READ = (
    "device text was read by this caller without a chat log: an administrator decides"
)
MSG_UNKNOWN_TOOL = "Invalid: unknown tool"
MSG_NOT_AN_OBJECT = "Invalid argument: arguments must be an object"
MSG_ID_REUSED = "Invalid argument: this call id was already used with other arguments"
MSG_NO_USER = "Denied: an unidentified caller may only read"
MSG_NOT_ADMIN = "Denied: only an administrator may do this"
MSG_NO_CONTROL = "Denied: you may not control this player"
MSG_NO_READ = "Denied: you may not read this player"
MSG_TURNED_OFF = "Denied: this action is turned off"
MSG_SAID_NO = "Denied: the user said no"
MSG_TOO_MANY_REFUSED = "Rate limited: too many refused calls; try again in {seconds} s"
MSG_TOO_MANY_DECISIONS = "Rate limited: too many answers to requests; try again in {seconds} s"
MSG_FORGED = "Denied: this answer did not come from the request's own notification"
MSG_NOT_ASKED = "Denied: device text was read this turn and the user did not ask for this"
MSG_NOT_THIS_VOLUME = (
    "Denied: device text was read this turn and the user did not ask for this volume"
)
MSG_NOT_ASKED_CONVERSATION = (
    "Denied: device text was read in this conversation and the user did not ask for this"
)
MSG_NOT_THIS_PLAYER = (
    "Denied: device text was read in this conversation and the user did not name this player"
)
MSG_NOT_ASKED_WORDS = "Denied: the user's own words do not ask for this"
MSG_NOT_THIS_PLAYER_WORDS = "Denied: the user's own words name another player"
MSG_NOT_THIS_VOLUME_WORDS = "Denied: the user's own words do not ask for this volume"
MSG_SAY_THE_VOLUME = (
    "Denied: this volume needs the user's yes; the user must say the level they want"
)
MSG_ASK_AGAIN = (
    "Denied: device text was read this turn; the user must ask for this again in a new turn"
)
MSG_ONE_AT_A_TIME = (
    "Denied: another request already waits for the user's yes; ask about one at a time, "
    "and call this again after the user answered"
)
MSG_OTHER_PLAYER = "Denied: the request's player is no longer the one it was made for"
MSG_TIMED_OUT = "Timed out: the player did not answer in time; its state was re-read"
MSG_FAILED = "Failed: the player did not carry out the command"
MSG_NOT_RECORDED = "Failed: the guard could not record the call, so it did not run it"
MSG_INTERRUPTED = (
    "Failed: Home Assistant stopped while this ran; the player may or may not have done it"
)
MSG_CANCELLED = "Failed: the call was cancelled; the player may or may not have done it"
MSG_MEMORY_AFTER_DEVICE_TEXT = (
    "Denied: this conversation has read device text, so it cannot change remembered facts; "
    "the user may ask again in a new conversation"
)
MSG_MEMORY_NOT_ASKED = "Denied: only the user's own request can change remembered facts"
MSG_MEMORY_NOT_SAID = (
    "Denied: a fact is remembered only in the user's own words: use the words they said"
)


def pending_message(request: PendingRequest) -> str:
    """What a call told to wait hears: the user's yes, or an admin's approval."""
    if request.kind is PendingKind.CONFIRM:
        return (
            f"Needs confirmation: ask the user to say yes to request {request.request_id}, "
            "then call the tool again with the same arguments"
        )
    return f"Needs approval: request {request.request_id} was sent to an admin"
