"""One conversation turn: a pending confirmation, then the model and tool loop over the chat log.

Before every model call the budgets are checked, counting the estimates of the calls in
flight; each call's usage goes to the guard's ledger. A rate limit or overload is retried
once; any other failure of the model (and a used-up budget, an open circuit, a rejected
key) hands the utterance to Home Assistant's local intents, in limited mode. The person
never hears a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, cast

import anthropic
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir, llm

from ..const import DOMAIN
from ..guard import OTHER_API_TOOLS, Policy
from ..guard.plan import NoPlan, Plan
from ..service_gate import ASSISTANT
from ..tools.ha_adapter import DATA_GUARD, async_caller, current_turn
from ..tools.players import async_players
from .caching import cache_report
from .confirm import async_resolve_confirmation
from .const import (
    CONF_INSTRUCTIONS,
    CONF_LLM_APIS,
    CONF_MAX_STEPS,
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    MAX_RETRY_DELAY,
    MAX_UTTERANCE_CHARS,
    RETRY_DELAY,
    option,
)
from .fallback import async_local_reply
from .history import ConversationRecord, messages_to_send
from .memory import async_get_memory
from .messages import chat_messages
from .model_info import ModelCapabilities, async_fetch_capabilities
from .native import ModelMessage
from .planner import async_plan_counted, planning_request
from .prompt import SYSTEM_PROMPT, system_blocks, tool_params, turn_facts
from .ran import changes_that_ran
from .refusal import RefusedTurn
from .replies import Say, has_visible_text, say
from .runtime import AssistantConfigEntry
from .stream import DeltaStream, MalformedToolInput
from .thinking_notice import warn_if_not_applied
from .thinking_params import EFFORT_OFF, thinking_params, too_few_tokens_for_thinking
from .tools import ASK_USER, AssistantAPI, AssistantAPIInstance, ForeignTool
from .usage import BudgetExceeded, budget_near, exceeded_budget, in_flight_estimate

_LOGGER = logging.getLogger(__name__)

MODEL_CIRCUIT = "model"
RETRIED = (
    anthropic.RateLimitError,
    anthropic.OverloadedError,
    anthropic.ServiceUnavailableError,
    anthropic.InternalServerError,
)
"""429, 529 (overloaded) and other 5xx: worth one more try."""


def auth_issue_id(entry_id: str) -> str:
    """The repair issue raised when the API rejects the key."""
    return f"assistant_auth_{entry_id}"


class _Limited(Exception):
    """The model cannot answer this turn: use the local intents (or say why not).

    `local=False`: say why, with no local intents (a member over their share of the day
    budget must not reach them).
    """

    def __init__(self, prefix: Say | None = None, *, local: bool = True) -> None:
        super().__init__(prefix)
        self.prefix = prefix
        self.local = local


class AssistantTurn:
    """Handles one user input for one assistant entry."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: AssistantConfigEntry,
        agent_id: str,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> None:
        self.hass = hass
        self.entry = entry
        self.runtime = entry.runtime_data
        self.options = entry.options
        self.agent_id = agent_id
        self.user_input = user_input
        self.chat_log = chat_log
        self.language = user_input.language
        self.ledger = hass.data[DATA_GUARD].guard.ledger
        self.model: str = option(self.options, CONF_MODEL)
        self.first_index = len(chat_log.content)
        self.identified = False
        self.is_admin = False
        self._plan_task: asyncio.Task[Plan | NoPlan] | None = None

    async def async_run(self) -> conversation.ConversationResult:
        """The reply to the user's input.

        A change to a Linn player that reaches its service handlers in this turn (an intent
        of another API, a local intent of limited mode) is decided with this assistant's
        policies (service_gate).
        """
        token = ASSISTANT.set(self.agent_id)
        try:
            return await self._async_run()
        finally:
            ASSISTANT.reset(token)

    async def _async_run(self) -> conversation.ConversationResult:
        if len(self.user_input.text) > MAX_UTTERANCE_CHARS:
            # before any model call or local intent: a flood of text buys nothing
            self._say(say(Say.TOO_LONG, self.language))
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        llm_context = self.user_input.as_llm_context(DOMAIN)
        caller = await async_caller(self.hass, self.user_input.context, self.agent_id)
        self.identified = caller.identified
        self.is_admin = caller.is_admin
        turn = current_turn(self.language)
        resolution = await async_resolve_confirmation(
            self.hass, self.chat_log, self.agent_id, llm_context, caller, turn
        )
        if resolution is not None:
            self._say(resolution.speech)
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)

        api = AssistantAPI(self.hass, option(self.options, CONF_LLM_APIS), self.agent_id)
        try:
            await self.chat_log.async_provide_llm_data(
                llm_context, api, SYSTEM_PROMPT, self.user_input.extra_system_prompt
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        instance = cast(AssistantAPIInstance, self.chat_log.llm_api)
        if self._sends_names_no_user_chose(instance):
            # before the model's first tool call: this turn and the rest of its conversation
            # follow the rules of a conversation that read device text
            self.hass.data[DATA_GUARD].guard.request_carries_untrusted_text(
                caller, current_turn(self.language)
            )
        try:
            await self._async_loop(instance, llm_context)
        except asyncio.CancelledError:
            instance.cancel_running()
            if self._plan_task is not None:
                self._plan_task.cancel()
            raise
        except _Limited as limited:
            await self._async_plan_settled()
            return await self._async_limited(limited.prefix, local=limited.local)
        await self._async_plan_settled()
        result = conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        if self._waits_for_user():
            result.continue_conversation = True
        return result

    def _sends_names_no_user_chose(self, instance: AssistantAPIInstance) -> bool:
        """The request carries text no user chose that can steer another API's change.

        Other APIs' prompt (Assist's static context: every exposed entity's, alias's and
        area's name, which devices and integrations pick), an extra system prompt (an
        automation's or a satellite's), and any request that offers another API's tools,
        whose changes have no soft limit or per-player settings behind them (the turn
        facts' player and area names reach them too). The Linn tools need the user's own
        words for every change in any case.
        """
        return (
            bool(instance.other_api_prompt.strip())
            or bool((self.user_input.extra_system_prompt or "").strip())
            or any(isinstance(tool, ForeignTool) for tool in instance.tools)
        )

    # --- the loop ------------------------------------------------------------------------

    async def _async_loop(
        self, instance: AssistantAPIInstance, llm_context: llm.LLMContext
    ) -> None:
        tools = tool_params(instance.tools, instance.custom_serializer)
        tool_names = {tool.name for tool in instance.tools}
        players = async_players(self.hass, llm_context.assistant)
        memory = await async_get_memory(self.hass)
        remembered = [fact.as_data() for fact in memory.facts(self.user_input.context.user_id)]
        record = self.runtime.conversations.get(
            self.chat_log.conversation_id, self.chat_log.content
        )
        self._add_facts(
            record.facts,
            turn_facts(self.hass, self.user_input.device_id, players, remembered, self.language),
        )
        api_prompt = instance.other_api_prompt
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": option(self.options, CONF_MAX_TOKENS),
            "system": system_blocks(
                option(self.options, CONF_INSTRUCTIONS), api_context=bool(api_prompt.strip())
            ),
            "tools": tools,
            **self._thinking_params(await self._async_capabilities()),
        }
        self.runtime.thinking_params = {
            key: request[key] for key in ("thinking", "output_config") if key in request
        }
        # the first call's budget check comes before the planning request reserves its
        # estimate: a turn is never refused for its own plan
        self._check_budget()
        # before the turn's first call only: the active tool loop's thinking is bound to
        # the history it was produced under
        self._trim_if_budget_near(record)
        self._start_planner()
        for step in range(option(self.options, CONF_MAX_STEPS)):
            if step:
                self._check_budget()
            request["messages"] = messages_to_send(
                record,
                self.chat_log.content,
                self.model,
                {key: value for key, value in request.items() if key != "messages"},
                lambda dropped: chat_messages(
                    self.chat_log.content,
                    record.facts,
                    tool_names,
                    api_prompt,
                    agent_id=self.agent_id,
                    model=self.model,
                    drop_thinking=dropped,
                    trim_before=record.trim_before,
                ),
                active=self._active_model_message(),
            ).messages
            # no await since the check: a parallel turn's check counts this call in flight
            with self.ledger.reserved(
                self.chat_log.conversation_id,
                in_flight_estimate(request),
                user_id=self.user_input.context.user_id,
            ):
                stop_reason = await self._async_model_call(request)
            if stop_reason == "refusal":
                # the refused turn (from its utterance) is never sent again
                self._say(say(Say.REFUSED, self.language), native=RefusedTurn())
                return
            if (question := self._asked()) is not None:
                self._say(question)
                return
            if not self.chat_log.unresponded_tool_results:
                if not self._spoken():
                    # never silence: a cut-off or empty answer gets a short reply of ours
                    what = Say.MODEL_ERROR if stop_reason == "max_tokens" else Say.NO_ANSWER
                    self._say(say(what, self.language))
                return
        self._say(say(Say.MAX_STEPS, self.language))

    async def _async_capabilities(self) -> ModelCapabilities:
        """The model's capabilities, looked up at setup.

        Looked up again for another model (the option changed) or after a failed look-up
        (at most every few minutes).
        """
        known = self.runtime.capabilities
        if known is None or known.model != self.model or known.stale:
            known = await async_fetch_capabilities(self.runtime.client, self.model)
            self.runtime.capabilities = known
        return known

    def _thinking_params(self, capabilities: ModelCapabilities) -> dict[str, Any]:
        effort = option(self.options, CONF_THINKING_EFFORT)
        if too_few_tokens_for_thinking(effort, option(self.options, CONF_MAX_TOKENS)):
            # stored before the options form required room for thinking: the small output
            # limit the user chose wins, since thinking would use it up before any reply
            effort = EFFORT_OFF
        warn_if_not_applied(self.runtime, self.entry.title, capabilities, effort)
        return thinking_params(capabilities, effort)

    def _add_facts(self, sent: dict[int, str], facts: str) -> None:
        """The facts of this turn for its utterance, beside those sent with earlier utterances."""
        last_user = self._last_utterance()
        if last_user is not None:
            sent[last_user] = facts

    def _active_model_message(self) -> int | None:
        """The chat-log index of this turn's last model message (the active tool loop's)."""
        for index in range(len(self.chat_log.content) - 1, self.first_index - 1, -1):
            item = self.chat_log.content[index]
            if isinstance(item, conversation.AssistantContent) and isinstance(
                item.native, ModelMessage
            ):
                return index
        return None

    def _start_planner(self) -> None:
        """Plan the turn from the user's words alone, beside its first model call.

        A change after device text waits for the plan (guard/turn_plans.py).
        """
        utterances = [
            item.content
            for item in self.chat_log.content
            if isinstance(item, conversation.UserContent)
        ]
        if not utterances or self._exceeded_budget() is BudgetExceeded.SHARE:
            # a member over their share is refused with no model call, this one included
            return
        request = planning_request(
            self.model, utterances[-1], utterances[:-1], self.language, self.runtime.capabilities
        )
        # eager: the request is on its way before the first model request is built, so its
        # answer comes first and is handled while the loop waits for the model's
        self._plan_task = self.hass.async_create_task(
            self._async_planned(request, utterances), "linn turn plan", eager_start=True
        )
        self.hass.data[DATA_GUARD].plans.add(
            self.chat_log.conversation_id, len(utterances), self._plan_task
        )

    async def _async_plan_settled(self) -> None:
        """The turn's planning request has ended (usually long before the turn).

        No request of a turn outlives it: its usage is counted in its turn, and the next
        turn's plan cannot be answered to this one's request. async_plan never raises and
        is bounded by its own timeout.
        """
        if self._plan_task is not None:
            await self._plan_task

    async def _async_planned(self, request: dict[str, Any], utterances: list[str]) -> Plan | NoPlan:
        return await async_plan_counted(
            self.hass,
            self.runtime,
            request,
            utterances,
            conversation_id=self.chat_log.conversation_id,
            user_id=self.user_input.context.user_id,
            counter="planner_calls",
        )

    def _trim_if_budget_near(self, record: ConversationRecord) -> None:
        """Near a budget, leave out the results and facts of the turns before this one."""
        if budget_near(
            self.ledger,
            self.chat_log.conversation_id,
            self.user_input.context.user_id,
            self.options,
        ):
            utterance = self._last_utterance()
            if utterance is not None and utterance > record.trim_before:
                _LOGGER.debug(
                    "Budget near: trimming %s before %s", self.chat_log.conversation_id, utterance
                )
                record.trim_before = utterance

    def _last_utterance(self) -> int | None:
        return max(
            (
                index
                for index, item in enumerate(self.chat_log.content)
                if isinstance(item, conversation.UserContent)
            ),
            default=None,
        )

    def _exceeded_budget(self) -> BudgetExceeded | None:
        return exceeded_budget(
            self.ledger,
            self.chat_log.conversation_id,
            self.user_input.context.user_id,
            self.options,
            is_admin=self.is_admin,
        )

    def _check_budget(self) -> None:
        exceeded = self._exceeded_budget()
        if exceeded is BudgetExceeded.SHARE:
            raise _Limited(Say.BUDGET_SHARE, local=False)
        if exceeded is BudgetExceeded.CONVERSATION:
            raise _Limited(Say.BUDGET_CONVERSATION)
        if exceeded is BudgetExceeded.DAY:
            raise _Limited(Say.BUDGET_DAY)

    async def _async_model_call(self, request: dict[str, Any]) -> str | None:
        """Stream one model message into the chat log (its tools start as they arrive)."""
        breaker = self.runtime.breaker
        if not breaker.allow(MODEL_CIRCUIT):
            raise _Limited
        try:
            stop_reason = await self._async_stream_with_retry(request)
        except (anthropic.AuthenticationError, anthropic.PermissionDeniedError) as err:
            breaker.release(MODEL_CIRCUIT)
            _LOGGER.warning("The API rejected the assistant's key: %s", err.message)
            self._start_reauth()
            raise _Limited(Say.AUTH) from err
        except anthropic.APIError as err:
            breaker.failure(MODEL_CIRCUIT)
            _LOGGER.warning("The model is not available (%s): %s", type(err).__name__, err)
            raise _Limited from err
        except MalformedToolInput as err:
            breaker.success(MODEL_CIRCUIT)
            _LOGGER.warning("The model sent malformed input for tool %s", err)
            self._say(say(Say.MODEL_ERROR, self.language))
            return None
        breaker.success(MODEL_CIRCUIT)
        return stop_reason

    async def _async_stream_with_retry(self, request: dict[str, Any]) -> str | None:
        # A per-request timeout, not client.with_options(): anthropic SDK 0.125.0 reads its
        # profile file there, a blocking call in the event loop.
        messages, timeout = self.runtime.client.messages, self.runtime.model_timeout
        try:
            stream = await messages.create(**request, stream=True, timeout=timeout)
        except RETRIED as err:
            delay = _retry_delay(err)
            _LOGGER.info("Model call failed (%s); one retry in %.1f s", err.status_code, delay)
            await asyncio.sleep(delay)
            stream = await messages.create(**request, stream=True, timeout=timeout)
        deltas = DeltaStream(stream, self.model)
        try:
            async with stream:
                async for _content in self.chat_log.async_add_delta_content_stream(
                    self.agent_id, deltas
                ):
                    pass
        finally:
            self.ledger.add_amounts(
                self.chat_log.conversation_id,
                deltas.usage.ledger_amounts(self.model),
                user_id=self.user_input.context.user_id,
            )
            self.hass.data[DATA_GUARD].async_ledger_changed()
            self.chat_log.async_trace({"stats": deltas.usage.ledger_amounts(self.model)})
            if deltas.usage.prompt_tokens:
                self.runtime.last_cache = cache_report(
                    self.model,
                    deltas.usage,
                    len(json.dumps([request["tools"], request["system"]])),
                    len(json.dumps([request["tools"], request["system"], request["messages"]])),
                )
        return deltas.stop_reason

    # --- endings ---------------------------------------------------------------------------

    async def _async_limited(
        self, prefix: Say | None, *, local: bool = True
    ) -> conversation.ConversationResult:
        """Local intents, unless tools already ran this turn (the intent could repeat them).

        `local=False`: only what ran and why the turn stopped, never local intents.
        """
        prefix_text = say(prefix, self.language) if prefix is not None else None
        if self._tools_ran() or not local:
            # what ran is said first, whatever stopped the turn afterwards
            ran = changes_that_ran(self._this_turn(), self.language)
            why = prefix_text or say(Say.INTERRUPTED, self.language)
            self._say(f"{ran} {why}" if ran else why)
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        response = await async_local_reply(
            self.hass,
            self.user_input,
            self.chat_log,
            prefix_text,
            identified=self.identified,
            changes=self._local_changes_allowed(),
        )
        self._say(response.speech["plain"]["speech"])
        return conversation.ConversationResult(
            response=response, conversation_id=self.chat_log.conversation_id
        )

    def _local_changes_allowed(self) -> bool:
        """Whether limited mode may run local intents that change something.

        Not when the owner turned Home Assistant's own tools ("Tools of other APIs") off
        for this assistant: the local intents are those tools.
        """
        guard = self.hass.data[DATA_GUARD].guard
        policy = guard.default_settings().policy(OTHER_API_TOOLS)
        if (agent := guard.agent_settings_for(self.agent_id)) is not None:
            policy = max(policy, agent.policies.get(OTHER_API_TOOLS, Policy.ALLOW))
        return policy is not Policy.DENY

    def _start_reauth(self) -> None:
        self.entry.async_start_reauth(self.hass)
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            auth_issue_id(self.entry.entry_id),
            is_fixable=False,
            severity=ir.IssueSeverity.ERROR,
            translation_key="assistant_auth_failed",
            translation_placeholders={"title": self.entry.title},
        )

    def _say(self, speech: str, native: object = None) -> None:
        self.chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.agent_id, content=speech, native=native)
        )

    # --- what happened this turn --------------------------------------------------------------

    def _this_turn(self) -> list[conversation.Content]:
        return self.chat_log.content[self.first_index :]

    def _tools_ran(self) -> bool:
        return any(isinstance(c, conversation.ToolResultContent) for c in self._this_turn())

    def _spoken(self) -> bool:
        last = self.chat_log.content[-1]
        return (
            isinstance(last, conversation.AssistantContent)
            and bool(last.content)
            and has_visible_text(str(last.content))
        )

    def _asked(self) -> str | None:
        """The question of an accepted ask_user call in the model's last message, if any.

        A question the tool refused (empty, too long) is no question: the model hears why
        and goes on.
        """
        for index in range(len(self.chat_log.content) - 1, self.first_index - 1, -1):
            content = self.chat_log.content[index]
            if isinstance(content, conversation.AssistantContent) and content.tool_calls:
                for call in content.tool_calls:
                    if call.tool_name == ASK_USER and not self._refused(call.id):
                        question = str(call.tool_args.get("question", ""))
                        return question if has_visible_text(question) else None
                return None
        return None

    def _refused(self, tool_call_id: str) -> bool:
        """The tool call's result in this turn is an error."""
        return any(
            isinstance(c, conversation.ToolResultContent)
            and c.tool_call_id == tool_call_id
            and c.result.error
            for c in self._this_turn()
        )

    def _waits_for_user(self) -> bool:
        """A confirmation or approval is pending, or the model asked a question."""
        for content in self._this_turn():
            if isinstance(content, conversation.ToolResultContent) and (
                content.tool_name == ASK_USER or "request_id" in content.result.data
            ):
                return True
        return False


def _retry_delay(err: anthropic.APIStatusError) -> float:
    """The server's retry-after when it gives one (capped), else our own backoff."""
    header = err.response.headers.get("retry-after")
    try:
        return min(MAX_RETRY_DELAY, max(0.0, float(header))) if header else RETRY_DELAY
    except ValueError:
        return RETRY_DELAY
