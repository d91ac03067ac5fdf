"""A fake Anthropic Messages API over real HTTP (aiohttp), for the real `anthropic` SDK.

It speaks POST /v1/messages (JSON, or server-sent events when `stream` is true, with text,
thinking and tool_use blocks and usage including cache tokens) and GET /v1/models (with each
model's capabilities, models.py); answers 401 to an unknown key; and plays scripted steps
(replies, 401/429/529 errors, stalls) or asks a responder; `delay` holds every Messages
request (model and planning alike) for a fixed time, a model latency for benchmarks.
Thinking models open each reply with a thinking block (unless the reply chooses not to
think; a reply may also interleave thinking between its tool calls), and a request that
does not send it back as the API requires gets the API's 400 (thinking.py); so does a
tool_use without its tool_result in the next message, or a tool_result without its
tool_use (tool_pairing.py). Every request is recorded.

Prompt caching is simulated the way the API documents it (caching.py), with each model's
minimum cacheable length (cache_floors.py) unless a fixed floor is given; a streamed reply
is encoded as the API's server-sent events by sse.py.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
import inspect
import itertools
import json
from typing import Any, Self

from aiohttp import web

from .cache_floors import min_cacheable_tokens
from .caching import estimate_tokens, simulate_cache
from .models import model_info
from .plans import (
    ApiError,
    PlanAnswer,
    RecordedRequest,
    Reply,
    Responder,
    Stall,
    Step,
    ToolUse,
    is_planning,
)
from .sse import write_stream
from .thinking import ThinkingRules
from .tool_pairing import check_tool_pairing

DEFAULT_MODELS: tuple[tuple[str, str], ...] = (
    ("claude-haiku-5-5", "Claude Haiku 5.5"),
    ("claude-haiku-4-5", "Claude Haiku 4.5"),
    ("claude-sonnet-4-5", "Claude Sonnet 4.5"),
)


class FakeAnthropic:
    """The server. Use as `async with FakeAnthropic() as fake:` and point base_url at it."""

    def __init__(
        self,
        *,
        api_key: str = "sk-ant-fake",
        responder: Responder | None = None,
        models: tuple[tuple[str, str], ...] = DEFAULT_MODELS,
        min_cache_tokens: int | None = 0,
        capabilities: bool | dict[str, Any] = True,
        host: str = "127.0.0.1",
        port: int = 0,
        delay: float = 0.0,
    ) -> None:
        self.api_keys = {api_key}
        self.delay = delay
        """Seconds every POST /v1/messages waits before it is answered, model and planning
        requests alike (a fixed model latency, for benchmarks); 0: none."""
        self.responder = responder
        self.models = models
        self.min_cache_tokens = min_cache_tokens
        """A fixed minimum cacheable length for every model; None: each model's own."""
        self.capabilities = capabilities
        """Whether the model list gives each model's capabilities (a local server may not);
        a dict is given as every model's capabilities (a partial answer)."""
        self.thinking = ThinkingRules()
        self.requests: list[RecordedRequest] = []
        self.usages: list[tuple[RecordedRequest, dict[str, int]]] = []
        """Each answered model request with the usage the fake reported for it."""
        self.hangups = 0
        """Requests the client abandoned while the server was still answering."""
        self._plan: deque[Step] = deque()
        self._plans: deque[PlanAnswer] = deque()
        self.planner: Callable[[RecordedRequest], PlanAnswer] | None = None
        """Answers a planning request no test stated a plan for (the stand-in's rules)."""
        self.plan_requests: list[RecordedRequest] = []
        """Planning requests (a forced tool call), kept apart from the model's requests."""
        self.plan_usages: list[dict[str, int]] = []
        self._cache: set[str] = set()
        self._ids = itertools.count(1)
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on host:port (port 0: a free one)."""
        app = web.Application()
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/v1/models/{model_id}", self._model)
        # a client that hangs up cancels its handler, so a stopped call is seen here
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """What the SDK's base_url should be."""
        return f"http://{self._host}:{self.port}"

    # --- scripting -----------------------------------------------------------------------

    def script(self, *steps: Step) -> None:
        """Queue steps; each model request takes the next one."""
        self._plan.extend(steps)

    def plan(self, *answers: PlanAnswer) -> None:
        """Queue the planner's answers; each planning request takes the next one.

        An answer is the forced tool call's input (a dict), an ApiError or a Stall. With
        none queued (and no `planner`), a planning request gets a 500: the turn has no plan.
        """
        self._plans.extend(answers)

    @property
    def unplayed_plans(self) -> list[PlanAnswer]:
        """Stated plans no planning request took."""
        return list(self._plans)

    @property
    def unplayed(self) -> list[Step]:
        """Steps not yet used (a test may assert this is empty)."""
        return list(self._plan)

    def discard_plan(self) -> list[Step]:
        """Drop the steps not yet used (a run that ended early); returns them."""
        unplayed = list(self._plan)
        self._plan.clear()
        return unplayed

    def discard_plans(self) -> list[PlanAnswer]:
        """Drop the stated plans no planning request took; returns them."""
        unplayed = list(self._plans)
        self._plans.clear()
        return unplayed

    def revoke(self, api_key: str) -> None:
        """From now on this key gets 401."""
        self.api_keys.discard(api_key)

    @property
    def message_requests(self) -> list[RecordedRequest]:
        """The recorded POST /v1/messages requests, planning requests left out."""
        planning = {id(r) for r in self.plan_requests}
        return [r for r in self.requests if r.path == "/v1/messages" and id(r) not in planning]

    # --- handlers ------------------------------------------------------------------------

    async def _record(self, request: web.Request) -> RecordedRequest:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        recorded = RecordedRequest(
            request.method,
            request.path,
            {k.lower(): v for k, v in request.headers.items()},
            body,
            raw,
        )
        self.requests.append(recorded)
        return recorded

    def _authorized(self, request: web.Request) -> bool:
        """The key as `x-api-key` (SDK < 2) or as a bearer token (what SDK 2.x sends)."""
        if request.headers.get("x-api-key") in self.api_keys:
            return True
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and token in self.api_keys

    async def _models(self, request: web.Request) -> web.StreamResponse:
        await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        data = [
            model_info(model_id, name, with_capabilities=self.capabilities)
            for model_id, name in self.models
        ]
        return web.json_response(
            {
                "data": data,
                "has_more": False,
                "first_id": data[0]["id"] if data else None,
                "last_id": data[-1]["id"] if data else None,
            }
        )

    async def _model(self, request: web.Request) -> web.StreamResponse:
        await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        wanted = request.match_info["model_id"]
        for model_id, name in self.models:
            if model_id == wanted:
                return web.json_response(
                    model_info(model_id, name, with_capabilities=self.capabilities)
                )
        return self._error(ApiError(404, "not_found_error", f"model: {wanted}"))

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        if recorded.body is None or "messages" not in recorded.body:
            return self._error(ApiError(400, "invalid_request_error", "messages: required"))
        refused = check_tool_pairing(recorded.messages) or self.thinking.check(recorded.body)
        if refused is not None:
            return self._error(refused)
        if self.delay > 0:
            try:
                await asyncio.sleep(self.delay)
            except asyncio.CancelledError:
                self.hangups += 1
                raise
        if is_planning(recorded.body):
            return await self._planning(recorded)
        step = await self._next_step(recorded)
        if isinstance(step, Stall):
            try:
                await asyncio.sleep(step.seconds)
            except asyncio.CancelledError:
                self.hangups += 1
                raise
            step = step.then
        if isinstance(step, ApiError):
            return self._error(step)
        message = self._message(recorded.body, step)
        self.usages.append((recorded, message["usage"]))
        if recorded.stream:
            return await write_stream(request, message, step)
        return web.json_response(message)

    async def _planning(self, recorded: RecordedRequest) -> web.StreamResponse:
        """A forced tool call: the stated plan, the planner's, or a 500 (no plan)."""
        self.plan_requests.append(recorded)
        assert recorded.body is not None
        if self._plans:
            answer = self._plans.popleft()
        elif self.planner is not None:
            answer = self.planner(recorded)
        else:
            answer = ApiError(500, "api_error", "the fake has no plan for this turn")
        if isinstance(answer, Stall):
            await asyncio.sleep(answer.seconds)
            return self._error(ApiError(500, "api_error", "stalled"))
        if isinstance(answer, ApiError):
            return self._error(answer)
        name = recorded.body["tool_choice"]["name"]
        message = self._message(
            recorded.body, Reply(tool_uses=(ToolUse(name, answer),), thinks=False)
        )
        message["stop_reason"] = "tool_use"
        self.plan_usages.append(message["usage"])
        return web.json_response(message)

    async def _next_step(self, recorded: RecordedRequest) -> Step:
        if self._plan:
            return self._plan.popleft()
        if self.responder is not None:
            result = self.responder(recorded)
            if inspect.isawaitable(result):
                return await result
            return result
        return ApiError(500, "api_error", "the fake has no scripted reply left")

    def _error(self, error: ApiError) -> web.Response:
        headers = {}
        if error.retry_after is not None:
            headers["retry-after"] = str(error.retry_after)
        return web.json_response(
            {"type": "error", "error": {"type": error.type, "message": error.message}},
            status=error.status,
            headers=headers,
        )

    # --- building the reply ----------------------------------------------------------------

    def floor(self, model: str) -> int:
        """The minimum cacheable length applied to a model's requests."""
        if self.min_cache_tokens is not None:
            return self.min_cache_tokens
        return min_cacheable_tokens(model)

    def _usage(self, body: dict[str, Any]) -> dict[str, int]:
        uncached, read, write = simulate_cache(
            body, self._cache, self.floor(str(body.get("model", "")))
        )
        return {
            "input_tokens": uncached,
            "cache_creation_input_tokens": write,
            "cache_read_input_tokens": read,
        }

    def _message(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = self.thinking.opening_blocks(body, reply)
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        for number, use in enumerate(reply.tool_uses):
            if number:
                content.extend(self.thinking.between_tools(body, reply))
            content.append(
                {
                    "type": "tool_use",
                    "id": use.id or f"toolu_fake{next(self._ids):04d}",
                    "name": use.name,
                    "input": use.input,
                }
            )
        self.thinking.record(body, content)
        usage = self._usage(body)
        output = reply.output_tokens
        if output is None:
            output = max(1, estimate_tokens(content))
        return {
            "id": f"msg_fake{next(self._ids):04d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": reply.effective_stop_reason,
            "stop_sequence": None,
            "usage": {**usage, "output_tokens": output},
        }


__all__ = ["DEFAULT_MODELS", "FakeAnthropic"]
