"""The checks of a change against the user's words, the turn's plan and what was read.

Each `_check_*` step answers with the refusal's text, or None when the change may go on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from .call import Caller, ToolCall, Turn
from .decisions import Access, Policy
from .handler import PlayerTerms, ToolHandler
from .messages import (
    MSG_ASK_AGAIN,
    MSG_MEMORY_AFTER_DEVICE_TEXT,
    MSG_MEMORY_NOT_ASKED,
    MSG_MEMORY_NOT_SAID,
    MSG_NO_CONTROL,
    MSG_NO_READ,
    MSG_NO_USER,
    MSG_NOT_ADMIN,
    MSG_NOT_ASKED,
    MSG_NOT_ASKED_CONVERSATION,
    MSG_NOT_ASKED_WORDS,
    MSG_NOT_THIS_PLAYER,
    MSG_NOT_THIS_PLAYER_WORDS,
    MSG_NOT_THIS_VOLUME,
    MSG_NOT_THIS_VOLUME_WORDS,
    MSG_SAY_THE_VOLUME,
)
from .names import names_whole
from .plan import NoPlan, Plan, PlanMismatch, plan_mismatch
from .policy import ToolSpec
from .taint import TaintBook
from .utterance import (
    has_rules,
    players_named as words_name_players,
    request_text,
    said_verbatim,
    utterance_asks_for,
)
from .volume_words import said_digits, utterance_allows_volume, volume_numbers


def permission_denial(spec: ToolSpec, caller: Caller, entity_ids: tuple[str, ...]) -> str | None:
    """Why the caller may not make this call on these players, if they may not."""
    if caller.is_admin:
        return None
    if spec.access is Access.ADMIN:
        return MSG_NOT_ADMIN if caller.identified else MSG_NO_USER
    if spec.access is Access.CONTROL:
        if not caller.identified:
            return MSG_NO_USER
        if not all(caller.can_control(entity_id) for entity_id in entity_ids):
            return MSG_NO_CONTROL
        return None
    if not all(caller.can_read(entity_id) for entity_id in entity_ids):
        return MSG_NO_READ
    return None


def user_words_denial(
    spec: ToolSpec, handler: ToolHandler | None, call: ToolCall, taint: TaintBook
) -> str | None:
    """Why a call that only the user's own words may cause cannot run, if it cannot.

    Untrusted text read at any point of the conversation stays in the model's context,
    so the whole conversation counts, not only this turn; without a conversation, the
    last minutes do. The text the call writes (`utterance_terms`: a fact) must be the
    user's own words as they said them: names no user typed (a player's, a room's, an
    entity's) reach the model in every request, and one of them could otherwise dictate
    a fact that later turns take for the user's preference.
    """
    if taint.conversation_read_untrusted(call.caller, call.turn):
        return MSG_MEMORY_AFTER_DEVICE_TEXT
    if not utterance_asks_for(call.turn.utterance, spec.action or "", language=call.turn.language):
        return MSG_MEMORY_NOT_ASKED
    terms = handler.utterance_terms(call.arguments) if handler is not None else ()
    if not all(said_verbatim(term, call.turn.utterance) for term in terms):
        return MSG_MEMORY_NOT_SAID
    return None


def taint_refusal(
    spec: ToolSpec,
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    call: ToolCall,
    policy: Policy,
    *,
    taint: TaintBook,
) -> str | None:
    """Why a change the model makes must not run or ask, if so; None when it may.

    It must rest on the user's own words; after device text, stricter (docs/security.md,
    "How the guard reads the user's words (as the code does it)").
    """
    turn = call.turn
    read_here = taint.is_tainted(call.caller, turn)
    read_before = taint.conversation_read_text(turn)
    if spec.action is None:
        return _check_kindless(spec, call, taint, read_here=read_here, read_before=read_before)
    if turn.utterance is None and not (read_here or read_before):
        return None  # no chat log (a direct call): there are no words to check
    if without_word_rules(spec, turn) or no_plan_after_read(spec, call, taint):
        return _check_without_rules(
            spec, handler, arguments, turn, read_here=read_here, read_before=read_before
        )
    words = request_text(turn.utterance, turn.previous_utterance, turn.language)
    tainted = read_here or read_before
    terms = handler.utterance_terms(arguments)
    if isinstance(turn.plan, Plan):
        return plan_refusal(
            spec, handler, arguments, turn.plan, policy, read_here=read_here, tainted=tainted
        )
    return (
        _check_asked(
            spec,
            handler,
            arguments,
            turn,
            words=words,
            terms=terms,
            read_here=read_here,
            tainted=tainted,
        )
        or _check_players(handler, arguments, words, tainted=tainted)
        or _check_volume(handler, arguments, turn, words, policy, read_here=read_here)
    )


def _check_kindless(
    spec: ToolSpec, call: ToolCall, taint: TaintBook, *, read_here: bool, read_before: bool
) -> str | None:
    """A tool with no action kind has no words to check: refused after device text."""
    read_before = read_before or taint.untied_read_before(call.caller, call.turn)
    if read_here or (spec.conversation_taint and read_before):
        return MSG_NOT_ASKED if read_here else MSG_NOT_ASKED_CONVERSATION
    return None


def _check_without_rules(
    spec: ToolSpec,
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    turn: Turn,
    *,
    read_here: bool,
    read_before: bool,
) -> str | None:
    """No rules can read these words (and no plan): the checks a question can still pass.

    The change waits for the user's yes (the guard's _decide), never in the turn that read
    device text; after a read in an earlier turn, a volume must be one the user said in
    digits (the text may have picked it, and the model's question is all the yes answers).
    """
    if spec.conversation_taint and (read_here or read_before):
        return MSG_NOT_ASKED_CONVERSATION
    if not players_named(handler, arguments, turn.utterance, tainted=False):
        # names are the user's own in any language: the model's question must not
        # be about another player than the one they named
        return MSG_NOT_THIS_PLAYER_WORDS
    if read_here:
        return MSG_ASK_AGAIN
    volume = handler.risk_facts(arguments).volume_target
    if read_before and volume is not None and volume not in said_digits(turn.utterance):
        return MSG_SAY_THE_VOLUME
    return None


def _check_asked(
    spec: ToolSpec,
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    turn: Turn,
    *,
    words: str | None,
    terms: Sequence[str],
    read_here: bool,
    tainted: bool,
) -> str | None:
    """The words ask for this kind of change (after device text: with every name).

    A source name the words ask for as a source asks for no other kind ("change the input
    to Standby"; utterance.mask_sources).
    """
    action = spec.action or ""
    sources = source_names(handler, arguments)
    if spec.every_term and tainted:
        asked = _every_name_asked(
            words,
            turn.previous_utterance,
            action,
            terms,
            turn.language,
            longer=longer_names(handler, arguments),
            sources=sources,
        )
    else:
        asked = utterance_asks_for(
            words, action, terms, narrow=tainted, language=turn.language, sources=sources
        )
    return None if asked else _not_asked(read_here=read_here, tainted=tainted)


def _check_players(
    handler: ToolHandler, arguments: Mapping[str, Any], words: str | None, *, tainted: bool
) -> str | None:
    """The change's players are the ones the words name or imply."""
    if players_named(handler, arguments, words, tainted=tainted):
        return None
    # the text, or a player's name, may name the player ("linn__standby always
    # means Living Room")
    return _not_this_player(tainted=tainted)


def _check_volume(
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    turn: Turn,
    words: str | None,
    policy: Policy,
    *,
    read_here: bool,
) -> str | None:
    """A volume follows the words; a change that asks (a yes, an admin) only one they said."""
    facts = handler.risk_facts(arguments)
    volume = facts.volume_target
    lang = turn.language
    sources = source_names(handler, arguments) if volume is not None else ()
    if volume is not None and not utterance_allows_volume(
        words, volume, facts.volume_current, lang, sources
    ):
        # "turn it down" must not become the text's "set the volume to 48"
        return _not_this_volume(read_here=read_here)
    # "louder" may not become a question about 90: the user says the level
    return _asking_refusal(
        policy,
        read_here=read_here,
        volume=volume,
        said=lambda: volume_numbers(words, lang, sources),
    )


def plan_refusal(
    spec: ToolSpec,
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    plan: Plan,
    policy: Policy,
    *,
    read_here: bool,
    tainted: bool,
) -> str | None:
    """The change must be one of the turn's plan (plan.py), instead of the word rules.

    The planner saw only the user's words, so no device text can have added a change,
    a player or a volume to it. Before any device text was read, the kind and the
    volume must fit, and the players must not be other than the ones the planned
    target words name (a player's name may carry text); after, the players must be
    named or implied, and the named source must fit too. As with the word
    rules, a change that needs a yes or an admin waits for a turn of the user's own
    after a read in this turn, and may ask only for a level the user said.
    """
    facts = handler.risk_facts(arguments)
    mismatch = plan_mismatch(
        plan,
        spec.action or "",
        players_named=lambda words: players_named(
            handler, arguments, words, tainted=tainted, planned=True
        ),
        items=handler.utterance_terms(arguments) if tainted else (),
        longer_names=longer_names(handler, arguments) if tainted else (),
        volume_target=facts.volume_target,
        volume_current=facts.volume_current,
    )
    if mismatch is PlanMismatch.PLAYER:
        return _not_this_player(tainted=tainted)
    if mismatch is PlanMismatch.VOLUME:
        return _not_this_volume(read_here=read_here)
    if mismatch is not None:
        return _not_asked(read_here=read_here, tainted=tainted)
    return _asking_refusal(
        policy,
        read_here=read_here,
        volume=facts.volume_target,
        said=lambda: [change.level for change in plan.changes],
    )


def _not_asked(*, read_here: bool, tainted: bool) -> str:
    """The words (or the plan) do not ask for this change: the refusal by where text was read.

    `tainted`: device text was read in this turn (`read_here`) or an earlier one.
    """
    if read_here:
        return MSG_NOT_ASKED
    return MSG_NOT_ASKED_CONVERSATION if tainted else MSG_NOT_ASKED_WORDS


def _not_this_player(*, tainted: bool) -> str:
    """The words (or the plan) name or imply other players than the change's."""
    return MSG_NOT_THIS_PLAYER if tainted else MSG_NOT_THIS_PLAYER_WORDS


def _not_this_volume(*, read_here: bool) -> str:
    """The words (or the plan) do not allow the change's volume."""
    return MSG_NOT_THIS_VOLUME if read_here else MSG_NOT_THIS_VOLUME_WORDS


def _asking_refusal(
    policy: Policy,
    *,
    read_here: bool,
    volume: int | None,
    said: Callable[[], Collection[int | None]],
) -> str | None:
    """Why a change that asks (a yes, an admin) may not ask, if so; None when it may.

    Not in a turn that read device text; for a volume, only a level the user said
    (`said`, read only when there is a volume).
    """
    if policy is Policy.ALLOW:
        return None
    if read_here:
        return MSG_ASK_AGAIN
    if volume is not None and volume not in said():
        return MSG_SAY_THE_VOLUME
    return None


def no_plan_after_read(spec: ToolSpec, call: ToolCall, taint: TaintBook) -> bool:
    """The planner failed for a turn of a conversation that read device text."""
    return (
        spec.action is not None
        and isinstance(call.turn.plan, NoPlan)
        and (taint.is_tainted(call.caller, call.turn) or taint.conversation_read_text(call.turn))
    )


def players_named(
    handler: ToolHandler,
    arguments: Mapping[str, Any],
    words: str | None,
    *,
    tainted: bool,
    planned: bool = False,
) -> bool:
    """The change's players are ones the user's words name or imply (PlayerTerms).

    Before device text every target counts as implied, unless the words name another
    player: "pause" from the phone app stays the model's pick, but "put the kitchen in
    standby" cannot land on the living room, whatever a player's name tells the model
    (a room renamed in Linn's app, which asks no password, reaches every request).
    After device text only the only player and the satellite's area's are implied.
    """
    lookup: Callable[[Mapping[str, Any]], PlayerTerms | None] | None = getattr(
        handler, "player_terms", None
    )
    terms = lookup(arguments) if lookup is not None else None
    if terms is None:
        return True  # a handler with no players (another API's, memory)
    implied = terms.implied if tainted else (True,) * len(terms.targets)
    return words_name_players(words, terms.targets, terms.others, implied, planned=planned)


def _every_name_asked(
    words: str | None,
    previous: str | None,
    action: str,
    terms: Sequence[str],
    language: str | None,
    *,
    longer: Sequence[str] = (),
    sources: Sequence[str] = (),
) -> bool:
    """The words ask for the action, and for every name: in them or in the previous request.

    A name counts from the user's previous utterance only where that asked for the same
    kind of change with it ("living room volume 25", then "now 20"), and only whole: not
    inside a longer name of `longer` ("the front door light" names no "Front Door").
    """
    if not utterance_asks_for(words, action, (), language=language, sources=sources):
        return False
    return all(
        (
            utterance_asks_for(words, action, (term,), language=language)
            and names_whole(words, term, longer)
        )
        or (
            utterance_asks_for(previous, action, (term,), language=language)
            and names_whole(previous, term, longer)
        )
        for term in terms
    )


def source_names(handler: ToolHandler, arguments: Mapping[str, Any]) -> Sequence[str]:
    """The offered players' source names (a handler's optional `source_names`): device text."""
    lookup: Callable[[Mapping[str, Any]], Sequence[str]] | None = getattr(
        handler, "source_names", None
    )
    return lookup(arguments) if lookup is not None else ()


def longer_names(handler: ToolHandler, arguments: Mapping[str, Any]) -> Sequence[str]:
    """Every other name a user could say (a handler's optional `other_names`)."""
    lookup: Callable[[Mapping[str, Any]], Sequence[str]] | None = getattr(
        handler, "other_names", None
    )
    return lookup(arguments) if lookup is not None else ()


def without_word_rules(spec: ToolSpec, turn: Turn) -> bool:
    """A model's change checked against words in a language the guard has no rules for.

    A turn with a plan is checked against the plan instead, in any language: the planner
    read the words.
    """
    return (
        spec.action is not None
        and turn.utterance is not None
        and not isinstance(turn.plan, Plan)
        and not has_rules(turn.language)
    )
