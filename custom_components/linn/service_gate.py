"""The gate in front of every change to a Linn player that belongs to a conversation turn.

How a call is known to come from a conversation or an MCP client, and how it is decided
(docs/security.md, "How the gate knows a call came from a conversation").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import TYPE_CHECKING, Any, Final, cast

from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.util.hass_dict import HassKey

from .const import DOMAIN
from .guard import Outcome, PendingKind, ToolCall, ToolFailure
from .guard.messages import MSG_NO_USER, MSG_TURNED_OFF
from .llm import API_CONTEXT, LinnHandler, note_unguarded_results, untied_llm_call
from .tools.ha_adapter import (
    DATA_GUARD,
    active_chat_log,
    async_caller,
    async_planned_turn,
    current_turn,
)
from .tools.linn_tools import TOOLS_BY_NAME
from .tools.players import async_players, control_state

if TYPE_CHECKING:
    from .guard import Caller

GATED: ContextVar[bool] = ContextVar("linn_gate_gated", default=False)
"""True while a change the gate (or a guarded Linn tool) let through runs."""
ASSISTANT: ContextVar[str | None] = ContextVar("linn_gate_assistant", default=None)
"""The Linn assistant (conversation entity id) whose turn runs: its policies apply."""
CONFIRMED: ContextVar[str | None] = ContextVar("linn_gate_confirmed", default=None)
"""The confirmation (request id) the user's yes approved, while confirm.py runs its call:
the change it reaches is decided in the turn before (which asked), and that yes answers
the one it needs."""
LIMITED: ContextVar[list[str] | None] = ContextVar("linn_gate_limited", default=None)
"""Set by limited mode: no planner runs (the model is down), and what the gate refused is
collected here, so the spoken reply says it (an intent's own error speech is generic)."""

REFUSALS: ContextVar[list[str] | None] = ContextVar("linn_gate_refusals", default=None)
"""The translation keys of the gate's refusals, while gate_refusals() collects them."""

GATE_RECORDS: HassKey[deque[int]] = HassKey(f"{DOMAIN}_gate_records")
"""The audit sequence numbers of the gate's own records (newest 1,000): a change through an
intent of our agent has two, the intent's and the player's, and diagnostics and tests tell
them apart."""

Work = Callable[[], Awaitable[Any]]


class _ServiceCall:
    """A service call's context for one entity, taken once by the method it runs."""

    __slots__ = ("context", "entity_id", "taken")

    def __init__(self, entity_id: str, context: Context) -> None:
        self.entity_id = entity_id
        self.context = context
        self.taken = False


SERVICE_CALL: ContextVar[_ServiceCall | None] = ContextVar("linn_gate_service_call", default=None)
"""The service call setting an entity's context, for the code that call runs (the task Home
Assistant creates for the method copies it; the method takes it once)."""


class ServiceCallContext:
    """An entity that knows whether its context was set by the service call now running.

    Home Assistant sets an entity's context just before it runs the service's method (in a
    task it creates then, which copies the context variable set here); a method called any
    other way sees the context of an earlier call, and a mark already taken or none.
    """

    entity_id: str

    @callback
    def async_set_context(self, context: Context) -> None:
        """Set the context, and mark it as the running service call's."""
        super().async_set_context(context)  # type: ignore[misc]
        SERVICE_CALL.set(_ServiceCall(self.entity_id, context))

    def service_call_context(self) -> Context | None:
        """The running service call's context (taken once); None for any other call."""
        call = SERVICE_CALL.get()
        if call is None or call.taken or call.entity_id != self.entity_id:
            return None
        call.taken = True
        return call.context


def direct_call_context() -> Context | None:
    """Whose call a player's method is when Home Assistant's code called it directly.

    In a conversation: its LLM API instance's context (any agent with an LLM API: its
    user), else none (the default agent has no API; a timer's command runs with no user).
    With no chat log: the Assist API instance's last built in this task (the MCP server's).
    """
    chat_log = active_chat_log()
    if chat_log is not None:
        return chat_log.llm_api.llm_context.context if chat_log.llm_api is not None else None
    return API_CONTEXT.get()


def in_conversation() -> bool:
    """Whether the current call runs inside a conversation turn (a chat log is set)."""
    return active_chat_log() is not None


def turn_agent() -> str | None:
    """The agent of the current conversation turn, as Home Assistant's chat log records it.

    What an agent adds to the chat log after the user's words carries its id, set by Home
    Assistant's code (never by a model): the default agent's record of a local intent it is
    about to run (a voice pipeline's "Prefer handling commands locally" runs them under the
    pipeline's agent, before that agent's turn), an agent's tool calls and their results.
    None: no chat log, or nothing of this turn's agent in it yet (the first tool of a
    streamed reply runs before its message is added).
    """
    chat_log = active_chat_log()
    if chat_log is None:
        return None
    from homeassistant.components.conversation.chat_log import UserContent  # noqa: PLC0415

    for content in reversed(chat_log.content):
        if isinstance(content, UserContent):  # the turn starts here: an earlier one's agent
            return None
        agent_id = getattr(content, "agent_id", None)
        if isinstance(agent_id, str) and agent_id:
            return agent_id
    return None


class _GateHandler(LinnHandler):
    """The Linn tool's checks (schema, targets, risk, names); execute is the entity's work."""

    def __init__(self, *args: Any, work: Work, entity_id: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._work = work
        self._entity_id = entity_id
        self.error: HomeAssistantError | None = None

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        token = GATED.set(True)
        try:
            await self._work()
        except HomeAssistantError as err:
            self.error = err
            raise ToolFailure from err
        finally:
            GATED.reset(token)
        ctx = self._context()
        player = next((p for p in ctx.players if p.entity_id == self._entity_id), None)
        return {"done": True, **({"state": control_state(self.hass, player)} if player else {})}


def _refuse(key: str, reason: str | None = None) -> HomeAssistantError:
    if (refusals := REFUSALS.get()) is not None:
        refusals.append(key)
    limited = LIMITED.get()
    if limited is not None:
        limited.append(_SPOKEN[key].format(reason=(reason or "").rstrip(".")))
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders={"reason": reason or ""} if key in _WITH_REASON else None,
    )


_WITH_REASON = frozenset({"gate_needs_yes", "gate_refused"})

GATE_FAILURES: Final = {
    "gate_denied": "Refused: that change to the Linn player is turned off for this assistant",
    "gate_needs_yes": (
        "Refused: that change to the Linn player needs the user's yes, which this path "
        "cannot ask for"
    ),
    "gate_needs_approval": (
        "Waiting: that change to the Linn player needs an administrator's approval"
    ),
    "gate_refused": "Refused: the Linn guard refused that change to the player",
    "gate_no_user": (
        "Refused: the Linn guard cannot tell who asked for that change (no user; for the "
        "volume a level, not a step, can be set by a signed-in user)"
    ),
}
"""The gate's refusals as a model may read them: fixed texts, no reason (it may name a player)."""


@contextmanager
def gate_refusals() -> Iterator[list[str]]:
    """Collect what the gate refuses while the block runs.

    An intent's service calls run in tasks of their own, which copy the context (the list
    is shared), and an intent does not chain the error it caught to the one it raises.
    """
    refusals: list[str] = []
    token = REFUSALS.set(refusals)
    try:
        yield refusals
    finally:
        REFUSALS.reset(token)


_SPOKEN = {
    "gate_denied": "That change to the Linn player is turned off for this assistant.",
    "gate_needs_yes": "That change to the Linn player needs your yes, which I cannot ask for "
    "here. Ask the Linn assistant again, or use the app.",
    "gate_needs_approval": "That change to the Linn player needs an administrator's approval; "
    "the request is waiting for it.",
    "gate_refused": "That change to the Linn player was refused ({reason}).",
    "gate_no_user": "I cannot tell who asked for that change to the Linn player, so it was "
    "refused. For the volume, say a level, for example: set the volume to 40.",
}
"""What limited mode says for a refusal (English: the local intents' own replies are)."""


async def async_gate(  # noqa: PLR0917
    hass: HomeAssistant,
    entity_id: str,
    context: Context | None,
    tool: str,
    arguments: Mapping[str, Any],
    work: Work,
) -> None:
    """Run `work` (a Linn player's service handler) as the guard decides for `tool`.

    `arguments` are the tool's, without `player` (added here by the player's name).
    """
    runtime = hass.data.get(DATA_GUARD)
    definition = TOOLS_BY_NAME.get(tool)
    player = next((p for p in async_players(hass, None) if p.entity_id == entity_id), None)
    if runtime is None or definition is None or player is None:
        raise _refuse("gate_refused", "the guard is not available")
    # our assistant's turn says so; else the turn's agent as the chat log records it: a
    # local intent run for a pipeline whose agent is our assistant gets its policies too
    agent_id = ASSISTANT.get() or turn_agent()
    caller: Caller = await async_caller(hass, context, agent_id)
    language = hass.config.language
    limited = LIMITED.get() is not None
    confirmed = CONFIRMED.get()
    # the yes turn has no words to check: the call is the previous turn's, as it asked
    earlier = 1 if confirmed is not None else 0
    turn = (
        current_turn(language, earlier)
        if limited
        else await async_planned_turn(hass, language, definition.name, caller, earlier)
    )
    note_unguarded_results(runtime, caller, turn, earlier)
    handler = _GateHandler(
        hass,
        definition,
        None,
        runtime,
        turn.conversation_id or f"user:{caller.user_id}",
        work=work,
        entity_id=entity_id,
    )
    if definition.prepare is not None:
        await definition.prepare(async_players(hass, None))
    call = ToolCall(
        definition.name,
        {"player": player.name, **arguments},
        caller,
        turn,
        confirmed_by=confirmed,
    )
    result = await runtime.guard.run(call, handler)
    if result.record is not None:
        hass.data.setdefault(GATE_RECORDS, deque(maxlen=1000)).append(result.record.seq)
    if handler.error is not None:
        raise handler.error
    if not result.error:
        return
    reason = str(result.data.get("error", "refused"))
    if result.outcome is Outcome.PENDING and result.request_id is not None:
        request = runtime.guard.pending.get(result.request_id)
        if request is not None and request.kind is PendingKind.CONFIRM:
            # no yes can answer it on this path: it lapses now, with its record
            runtime.guard.lapse([request], caller)
            raise _refuse("gate_needs_yes", reason)
        raise _refuse("gate_needs_approval", reason)
    if result.outcome is Outcome.DENIED and reason == MSG_TURNED_OFF:
        raise _refuse("gate_denied", reason)
    if result.outcome is Outcome.DENIED and reason == MSG_NO_USER:
        raise _refuse("gate_no_user")
    raise _refuse("gate_refused", reason)


def gated[F: Callable[..., Awaitable[Any]]](
    tool: str | Callable[..., str | None],
    arguments: Callable[..., Mapping[str, Any]] | None = None,
) -> Callable[[F], F]:
    """A media player service handler behind the gate, as the Linn tool `tool`.

    `tool` may be a function of the call (`tool(entity, *args, **kwargs)`): None then means
    the handler decides nothing itself, because the gated handler it calls decides (a
    play_media of a source is decided as select_source, never as a bare play).
    `arguments(entity, *args, **kwargs)`: the tool's arguments for this call, without
    `player`.
    """

    def wrap(func: F) -> F:
        @wraps(func)
        async def wrapper(entity: Any, *args: Any, **kwargs: Any) -> None:
            name = tool(entity, *args, **kwargs) if callable(tool) else tool
            if name is None or GATED.get():
                await func(entity, *args, **kwargs)
                return
            context = entity.service_call_context()
            if context is None:  # Home Assistant's code called the method directly
                context = direct_call_context() or Context()
            elif not (in_conversation() or untied_llm_call(entity.hass, context)):
                await func(entity, *args, **kwargs)  # the UI, an automation, a script
                return
            await async_gate(
                entity.hass,
                entity.entity_id,
                context,
                name,
                arguments(entity, *args, **kwargs) if arguments is not None else {},
                lambda: func(entity, *args, **kwargs),
            )

        return cast(F, wrapper)

    return wrap


def member_names(hass: HomeAssistant, entity_ids: list[str], own: str) -> list[str]:
    """The players' names as the Linn tools know them (an unknown one keeps its id)."""
    names = {p.entity_id: p.name for p in async_players(hass, None)}
    return [names.get(entity_id, entity_id) for entity_id in entity_ids if entity_id != own]
