"""The planning request's HTTP call: Home Assistant's aiohttp session, the SDK client's settings.

The request goes to the SDK client's base URL with the SDK client's own headers (its key,
API version and user agent), but not through the SDK: the SDK's request and response
handling costs about 1 ms of event loop CPU per request, several times a plain POST, and the
planning request runs beside the turn's first model call, where that CPU adds to the turn
(docs/benchmarks.md, "Planner latency").
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
import logging
from typing import Any

import aiohttp
import anthropic

from ..guard.plan import NoPlan
from .usage import Usage

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PlanningAnswer:
    """What the API answered a planning request with."""

    stop_reason: str | None
    tool_inputs: list[Any]
    """The input of each use of the planning tool (one, from a well-behaved model)."""
    usage: Usage


async def async_request_plan(
    session: aiohttp.ClientSession,
    client: anthropic.AsyncAnthropic,
    request: dict[str, Any],
    tool_name: str,
    time_limit: float,
) -> PlanningAnswer | NoPlan:
    """POST the planning request; NoPlan ("timeout" or "error") when no answer came in time.

    Never raises for the network's or the API's faults.
    """
    url = f"{str(client.base_url).rstrip('/')}/v1/messages"
    headers = {
        key: value for key, value in client.default_headers.items() if isinstance(value, str)
    }
    try:
        async with session.post(
            url, json=request, headers=headers, timeout=aiohttp.ClientTimeout(total=time_limit)
        ) as response:
            if response.status != HTTPStatus.OK:
                _LOGGER.debug("The planning request failed: HTTP %s", response.status)
                return NoPlan("error")
            body = await response.json()
    except TimeoutError:
        return NoPlan("timeout")
    except (aiohttp.ClientError, ValueError) as err:
        _LOGGER.debug("The planning request failed: %r", err)
        return NoPlan("error")
    if not isinstance(body, dict):
        return NoPlan("error")
    return _answer(body, tool_name)


def _answer(body: dict[str, Any], tool_name: str) -> PlanningAnswer:
    """The answer's stop reason, planning tool inputs and usage, whatever shape it has."""
    reported = body.get("usage")
    usage_data = reported if isinstance(reported, dict) else {}

    def count(key: str) -> int:
        value = usage_data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    content = body.get("content")
    blocks = content if isinstance(content, list) else []
    stop_reason = body.get("stop_reason")
    return PlanningAnswer(
        stop_reason=stop_reason if isinstance(stop_reason, str) else None,
        tool_inputs=[
            block.get("input")
            for block in blocks
            if isinstance(block, dict)
            and block.get("type") == "tool_use"
            and block.get("name") == tool_name
        ],
        usage=Usage(
            input_tokens=count("input_tokens"),
            output_tokens=count("output_tokens"),
            cache_read_tokens=count("cache_read_input_tokens"),
            cache_write_tokens=count("cache_creation_input_tokens"),
        ),
    )
