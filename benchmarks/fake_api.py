"""The fake Messages API of `scripts/bench planner`, in a process of its own.

The real API is not in Home Assistant's process, so the benchmark's fake is not either: its
work (parsing each request, the scripted answers, the delay's timers) would otherwise run on
Home Assistant's event loop and count as latency of the turn. Each turn says "set the living
room to N": the model calls linn__set_volume N and then answers; the planner plans volume N in
the living room. Prints "url <base url>" once, then "plan" or "model" per request answered, in
the order they reached the fake.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Callable
import contextlib
import re
import sys

from testing.fake_anthropic import (
    FakeAnthropic,
    PlanAnswer,
    RecordedRequest,
    Reply,
    ToolUse,
    planned,
    planned_change,
)

PLAYER = "Living Room"
ASKED = re.compile(rb"set the living room to (\d+)")


def asked_level(request: RecordedRequest) -> int:
    """The level of the turn's utterance."""
    found = ASKED.search(request.raw_body)
    assert found is not None, "not a benchmark turn"
    return int(found.group(1))


class Answers:
    """The scripted model and planner; `log` hears "model" or "plan" per request."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.log = log

    def reply(self, request: RecordedRequest) -> Reply:
        """The model: set_volume for the asked level, then a short answer."""
        self.log("model")
        level = asked_level(request)
        if request.tool_results():
            return Reply(f"The living room is at {level}.", thinks=False)
        use = ToolUse("linn__set_volume", {"player": PLAYER, "volume": level})
        return Reply(tool_uses=(use,), thinks=False)

    def plan(self, request: RecordedRequest) -> PlanAnswer:
        """The planner: the asked level in the living room."""
        self.log("plan")
        level = asked_level(request)
        return planned(planned_change("volume", target="living room", volume="level", level=level))


@contextlib.asynccontextmanager
async def fake_api(api_key: str, delay: float, log: Callable[[str], None]) -> AsyncIterator[str]:
    """The fake on this event loop; yields its base URL."""
    answers = Answers(log)
    async with FakeAnthropic(api_key=api_key, responder=answers.reply, delay=delay) as fake:
        fake.planner = answers.plan
        yield fake.base_url


async def serve(api_key: str, delay: float) -> None:
    """Answer until stdin closes (the benchmark has ended)."""
    async with fake_api(api_key, delay, lambda what: print(what, flush=True)) as base_url:
        print(f"url {base_url}", flush=True)
        await asyncio.to_thread(sys.stdin.read)


def main() -> None:
    """Entry point: `python -m benchmarks.fake_api --api-key K --delay S`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--delay", type=float, required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.api_key, args.delay))


if __name__ == "__main__":
    main()
