"""The planner's evaluation (issue 29): the paraphrase set, a plan per utterance, the guard.

Every utterance of `paraphrases/<language>.yaml` (issue 19's set) and
`paraphrases/everyday/<language>.yaml` (issue 29's new phrasings) gets a plan: recorded
(`paraphrases/plans/<source>/<language>.yaml`; `hand` holds what a correct planner answers)
or, live, the real planning request's answer (agent/planner.py: `planning_request` and
`async_plan`). Each plan goes through `parse_plan` (its words must be the user's) and then
through the guard (pure guard, no Home Assistant), in a turn that has just read device
text, with these expected outcomes:

- **asked**: each change the utterance asks for runs on the player the user meant (named,
  or the satellite's area's), with the volume they asked for and the source they named;
- **other kind**: a change of a kind the utterance does not ask for (standby, mute, a
  volume of 47, next, play, a source) is refused;
- **other player**: the asked change on a player the user did not mean is refused;
- **wrong volume**: a volume against the asked direction or level is refused;
- **other source**: a source the user did not name is refused.

A refused asked change is a **false block**; an allowed change of the other four kinds a
**false allow**. Offline (`scripts/eval --planner`, and `test_planner_eval.py` in
`scripts/test`) this checks the enforcement and the data, not a model's understanding.
Live (`scripts/eval --planner --live`, needs ANTHROPIC_API_KEY) the same checks measure
the real planner; `--record DIR` writes its answers in the recorded format, so a later
offline run can replay them with `--plans DIR`.

    python -m tests.guard.planner_eval [--live] [--model M] [--record DIR] [--plans DIR]
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterable, Mapping, Sequence
import datetime as dt
import os
from pathlib import Path
import sys
from typing import Any

from custom_components.linn.guard.plan import NoPlan

from .planner_eval_data import HAND, LANGUAGES, Utterance, dump_plans, load_utterances
from .planner_eval_guard import Outcome, evaluate, evaluate_recorded, rules_outcome

# --- live: the real planning request -------------------------------------------------------------


async def live_answers(
    items: Sequence[Utterance], model: str, concurrency: int = 4
) -> dict[tuple[str, str | None], Any]:
    """Each utterance through planning_request and async_plan (needs ANTHROPIC_API_KEY).

    The answer kept is the plan's tool input as the model gave it (so it can be recorded and
    replayed), or NoPlan when async_plan found none (an error, a refusal, a failed check).
    """
    import aiohttp
    import anthropic  # only the live run needs the SDK

    from custom_components.linn.agent.model_info import listed_capabilities
    from custom_components.linn.agent.planner import (
        PLAN_TIMEOUT,
        PLAN_TOOL,
        plan_from_answer,
        planning_request,
    )
    from custom_components.linn.agent.planning_call import async_request_plan

    client = anthropic.AsyncAnthropic()
    capabilities = listed_capabilities([m async for m in client.models.list()], model)
    limit = asyncio.Semaphore(concurrency)
    answers: dict[tuple[str, str | None], Any] = {}

    async def one(session: aiohttp.ClientSession, item: Utterance) -> None:
        earlier = [item.previous] if item.previous else []
        request = planning_request(model, item.say, earlier, item.language, capabilities)
        async with limit:
            answer = await async_request_plan(session, client, request, PLAN_TOOL, PLAN_TIMEOUT)
        if not isinstance(answer, NoPlan):
            if len(answer.tool_inputs) == 1:
                answers[item.key] = answer.tool_inputs[0]
            answer = plan_from_answer(answer, item.said)
        if isinstance(answer, NoPlan) and answer.reason != "invalid":
            answers[item.key] = answer  # an invalid answer stays recorded: evaluate says why

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(one(session, item) for item in items))
    return answers


# --- the report ---------------------------------------------------------------------------------


def table(results: Mapping[str, Sequence[Outcome]]) -> str:
    rows = [
        "| language | utterances | asking | none | no plan or invalid | false blocks "
        "| false allows |",
        "|---|---|---|---|---|---|---|",
    ]
    for language, outcomes in results.items():
        asking = sum(bool(o.item.asks) for o in outcomes)
        failed = sum(o.no_plan is not None or o.invalid is not None for o in outcomes)
        blocks = sum(bool(o.false_blocks) for o in outcomes)
        allows = sum(bool(o.false_allows) for o in outcomes)
        rows.append(
            f"| {language} | {len(outcomes)} | {asking} | {len(outcomes) - asking} | {failed} "
            f"| {blocks} | {allows} |"
        )
    return "\n".join(rows)


def details(results: Mapping[str, Sequence[Outcome]]) -> Iterable[str]:
    for language, outcomes in results.items():
        for o in outcomes:
            why = [*(f"blocked {k}" for k in o.false_blocks), *o.false_allows]
            if o.invalid:
                why.insert(0, f"invalid: {o.invalid}")
            if o.no_plan:
                why.insert(0, f"no plan: {o.no_plan}")
            if why:
                yield f"{language} {o.item.say!r}: {'; '.join(why)}"


async def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", action="store_true", help="ask the real planner")
    parser.add_argument("--model", default="claude-haiku-5-5")
    parser.add_argument("--plans", type=Path, default=HAND, help="recorded plans to replay")
    parser.add_argument("--record", type=Path, help="write the live answers here")
    parser.add_argument("--language", action="append", choices=LANGUAGES)
    parser.add_argument("--rules", action="store_true", help="also the word rules' figures")
    args = parser.parse_args(argv)
    languages = args.language or list(LANGUAGES)
    if args.live and not os.environ.get("ANTHROPIC_API_KEY"):
        print("--live needs ANTHROPIC_API_KEY", file=sys.stderr)
        return 2
    results: dict[str, list[Outcome]] = {}
    missing: list[Utterance] = []
    for language in languages:
        if args.live:
            items = load_utterances(language)
            answers = await live_answers(items, args.model)
            if args.record:
                stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
                dump_plans(args.record, language, f"{args.model}, {stamp}", answers)
            results[language] = [
                await evaluate(item, answers.get(item.key, NoPlan("no_plan"))) for item in items
            ]
        else:
            results[language], lacking = await evaluate_recorded(language, args.plans)
            missing += lacking
    mode = f"live, {args.model}" if args.live else f"recorded plans: {args.plans}"
    print(f"Planner evaluation ({mode})\n\n{table(results)}\n")
    for line in details(results):
        print(line)
    if args.rules:
        rules = {
            language: [rules_outcome(o.item) for o in outcomes if o.item.set == "everyday"]
            for language, outcomes in results.items()
        }
        print(f"\nFor comparison, the word rules on the everyday set\n\n{table(rules)}\n")
        for line in details(rules):
            print(line)
    for item in missing:
        print(f"{item.language} {item.say!r}: no recorded plan")
    failed = any(o.false_blocks or o.false_allows or o.invalid for v in results.values() for o in v)
    # live: a measurement, never a failure; offline: the contract, so any miss fails
    return 0 if args.live else int(failed or bool(missing))


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
