"""A local rule-based stand-in for Claude, served over the Anthropic Messages API.

scripts/develop starts it when ANTHROPIC_API_KEY is not set, so the assistant works with no
key: it understands a handful of English commands by keyword (play, pause, stop, next,
previous, volume N, louder, quieter, mute, unmute, pin N, standby, what's playing, remember,
forget) and answers with the same tool calls a model would send. It is not a model: anything
else gets a short list of what it understands. The HTTP side is the test suite's fake
Messages API (tests/fake_anthropic), so the integration talks to it exactly as to Anthropic.

    python -m scripts.standin_model --port 8124 --api-key local-standin
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from typing import Any

from tests.fake_anthropic import FakeAnthropic, RecordedRequest, Reply, ToolUse

MODEL_ID = "local-standin"
HELP = (
    "I am the local stand-in, not Claude: I understand play, pause, stop, next, previous, "
    "volume 30, louder, quieter, mute, unmute, pin 3, standby, what's playing, "
    "remember ... and forget everything."
)
KEPT_REQUESTS = 20
_FACTS = re.compile(r"<turn_facts>(.*?)</turn_facts>", re.DOTALL)
_NUMBER = re.compile(r"\b(\d{1,3})\b")


def _last_user_blocks(request: RecordedRequest) -> list[dict[str, Any]]:
    messages = request.messages
    if not messages or messages[-1]["role"] != "user":
        return []
    content = messages[-1]["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _turn_facts(request: RecordedRequest) -> dict[str, Any]:
    for block in _last_user_blocks(request):
        if block.get("type") == "text" and (found := _FACTS.search(block["text"])):
            facts: dict[str, Any] = json.loads(found.group(1))
            return facts
    return {}


def _after_tools(results: list[dict[str, Any]]) -> Reply:
    """What to say once the tools answered."""
    spoken = []
    for block in results:
        data = json.loads(block["content"]) if isinstance(block["content"], str) else {}
        if "error" in data:
            spoken.append(str(data["error"]))
        elif "players" in data:
            for player in data["players"]:
                text = player.get("device_text", {})
                playing = " by ".join(v for v in (text.get("title"), text.get("artist")) if v)
                spoken.append(
                    f"{player['player']} is {player['state']} at volume {player['volume']}"
                    + (f", with {playing}" if playing else "")
                )
        elif "remembered" in data:
            spoken.append("I will remember that")
    return Reply((". ".join(spoken) + ".") if spoken else "Done.")


def _command(text: str) -> tuple[str, dict[str, Any]] | None:
    """The tool and arguments (without the player) a command asks for."""
    words = set(re.findall(r"[a-z']+", text))
    number = _NUMBER.search(text)
    if text.startswith(("remember", "please remember")):
        fact = text.split("remember", 1)[1].strip(" ,.:") or text
        return "remember", {"fact": fact[:120]}
    if "forget" in words:
        return "forget", {"id": "all"}
    if "pin" in words and number:
        return "linn__play_pin", {"pin": int(number.group(1))}
    if "volume" in words and number:
        return "linn__set_volume", {"volume": int(number.group(1))}
    simple: list[tuple[set[str], str, dict[str, Any]]] = [
        ({"louder"}, "linn__change_volume", {"change": 5}),
        ({"quieter", "softer"}, "linn__change_volume", {"change": -5}),
        ({"unmute"}, "linn__mute", {"muted": False}),
        ({"mute"}, "linn__mute", {"muted": True}),
        ({"pause"}, "linn__pause", {}),
        ({"stop"}, "linn__stop", {}),
        ({"next", "skip"}, "linn__next", {}),
        ({"previous", "back"}, "linn__previous", {}),
        ({"standby", "off"}, "linn__standby", {}),
        ({"playing", "status", "state"}, "linn__get_state", {}),
        ({"play", "resume"}, "linn__play", {}),
    ]
    for keys, tool, arguments in simple:
        if words & keys:
            return tool, arguments
    return None


def respond(request: RecordedRequest) -> Reply:
    """One reply for one Messages API request."""
    results = [b for b in _last_user_blocks(request) if b.get("type") == "tool_result"]
    if results:
        return _after_tools(results)
    text = request.last_user_text.casefold().strip()
    command = _command(text)
    if command is None:
        return Reply(HELP)
    tool, arguments = command
    offered = {tool_param["name"] for tool_param in (request.body or {}).get("tools", [])}
    if tool not in offered:
        return Reply("I cannot do that for you: sign in as a Home Assistant user first.")
    if tool.startswith("linn__"):
        facts = _turn_facts(request)
        names = [p["name"] for p in facts.get("players", [])]
        named = [name for name in names if name.casefold() in text]
        player = named[0] if named else facts.get("default_player")
        if player is None:
            return Reply(
                tool_uses=(ToolUse("ask_user", {"question": "Which player: " + ", ".join(names)}),)
            )
        arguments = {"player": player, **arguments}
    return Reply(tool_uses=(ToolUse(tool, arguments),))


async def serve(host: str, port: int, api_key: str) -> None:
    """Serve until cancelled; keep only the newest requests in memory."""

    def responder(request: RecordedRequest) -> Reply:
        del fake.requests[:-KEPT_REQUESTS]
        return respond(request)

    fake = FakeAnthropic(
        api_key=api_key,
        responder=responder,
        models=((MODEL_ID, "Local rule-based stand-in"),),
        host=host,
        port=port,
    )
    async with fake:
        print(f"stand-in Messages API on {fake.base_url} (model {MODEL_ID})", flush=True)
        await asyncio.Event().wait()


def main() -> None:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8124)
    parser.add_argument("--api-key", default="local-standin")
    args = parser.parse_args()
    asyncio.run(serve(args.host, args.port, args.api_key))


if __name__ == "__main__":
    main()
