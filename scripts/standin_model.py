"""A local rule-based stand-in for Claude, served over the Anthropic Messages API.

scripts/develop starts it when ANTHROPIC_API_KEY is not set, so the assistant works with no
key: it understands a handful of English commands by keyword (play, pause, stop, next,
previous, volume N, louder, turn it up, quieter, mute, unmute, pin N, standby, turn it on /
wake up, shuffle on/off, repeat on/off, back 30 seconds, play <a name> (searched, the play
queue included, then played; two equal hits make it ask which), the volume limit N (a
request an administrator decides), what's playing, remember, forget) and answers with the
same tool calls a model would send. It is not a model: anything else gets a short list of
what it understands. It never speaks the guard's notes to the model ("Needs approval ...").
The HTTP side is the test suite's fake Messages API (tests/fake_anthropic), so the
integration talks to it exactly as to Anthropic.

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
    "volume 30, louder, quieter, mute, unmute, pin 3, standby, turn it on, shuffle on, "
    "repeat off, back 30 seconds, play <a name>, volume limit 70, what's playing, "
    "remember ... and forget everything."
)
ASKED_ADMIN = "I have asked an administrator to approve that; they will decide."
SAY_YES = "That needs your yes first: say yes to go ahead."
_PLAY_WORDS = ("play ", "listen to ", "put on ", "i want to hear ")
_GENERIC = frozenset({"", "it", "music", "something", "again", "on", "please"})
_SEEK = re.compile(
    r"\b(back|backwards|rewind|forward|ahead)\b\D*?(\d{1,4})\s*(seconds?|secs?|minutes?|mins?)\b"
)
_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "last": -1}
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


def _last_tool_use(request: RecordedRequest) -> dict[str, Any] | None:
    """The tool call the model made last (the one these results answer)."""
    for message in reversed(request.messages):
        if message["role"] == "assistant" and isinstance(message["content"], list):
            uses = [b for b in message["content"] if b.get("type") == "tool_use"]
            return uses[-1] if uses else None
    return None


def _choose(found: dict[str, Any], player: str, query: str) -> Reply:
    """Play the one hit that fits; ask which when two fit equally well."""
    results = found.get("results", [])
    exact = [r for r in results if r.get("match") == "title"]
    candidates = exact or results
    if not candidates:
        return Reply(f"I found nothing called {query}.")
    if len(candidates) == 1:
        return Reply(
            tool_uses=(
                ToolUse("linn__play_music", {"player": player, "item": candidates[0]["id"]}),
            )
        )
    options = []
    for result in candidates[:5]:
        text = result.get("device_text", {})
        by = f" by {text['artist']}" if text.get("artist") else ""
        options.append(f"{result['id']} ({text.get('title', '?')}{by})")
    return Reply(tool_uses=(ToolUse("ask_user", {"question": "Which one: " + ", ".join(options)}),))


def _error_words(error: str) -> str:
    """The guard's answer as words for the user, never its notes to the model."""
    if error.startswith("Needs approval"):
        return ASKED_ADMIN
    if error.startswith("Needs confirmation"):
        return SAY_YES
    return error.split(": ", 1)[-1][:1].upper() + error.split(": ", 1)[-1][1:]


def _after_tools(results: list[dict[str, Any]], request: RecordedRequest | None = None) -> Reply:
    """What to say once the tools answered (or the next call, after a search to play)."""
    last = _last_tool_use(request) if request is not None else None
    if last is not None and last.get("name") == "linn__search_music" and len(results) == 1:
        data = json.loads(results[0]["content"]) if isinstance(results[0]["content"], str) else {}
        if "results" in data:
            return _choose(data, last["input"]["player"], last["input"]["query"])
    spoken = []
    for block in results:
        data = json.loads(block["content"]) if isinstance(block["content"], str) else {}
        if "error" in data:
            spoken.append(_error_words(str(data["error"])))
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
    text = ". ".join(part.rstrip(".") for part in spoken)
    return Reply((text + ".") if spoken else "Done.")


def _command(text: str) -> tuple[str, dict[str, Any]] | None:
    """The tool and arguments (without the player) a command asks for."""
    words = set(re.findall(r"[a-z']+", text))
    number = _NUMBER.search(text)
    if text.startswith(("remember", "please remember")):
        fact = text.split("remember", 1)[1].strip(" ,.:") or text
        return "remember", {"fact": fact[:120]}
    if "forget" in words:
        return "forget", {"id": "all"}
    if (item := re.fullmatch(r"(?:play\s+)?(m\d{1,3})", text.strip(" .!"))) is not None:
        return "linn__play_music", {"item": item.group(1)}
    if "limit" in words and number:
        return "linn__set_volume_limit", {"limit": int(number.group(1))}
    if "shuffle" in words:
        return "linn__set_shuffle", {"shuffle": "off" not in words}
    if "repeat" in words:
        return "linn__set_repeat", {"repeat": "off" not in words}
    if (seek := _SEEK.search(text)) is not None:
        seconds = int(seek.group(2)) * (60 if seek.group(3).startswith("min") else 1)
        back = seek.group(1) in {"back", "backwards", "rewind"}
        return "linn__seek", {"change": -seconds if back else seconds}
    if "wake" in words or (words & {"turn", "switch", "power"} and "on" in words):
        return "linn__wake", {}
    if "pin" in words and number:
        return "linn__play_pin", {"pin": int(number.group(1))}
    if "volume" in words and number:
        return "linn__set_volume", {"volume": int(number.group(1))}
    for opening in _PLAY_WORDS:
        wanted = text.removeprefix(opening).strip(" .!?") if text.startswith(opening) else None
        if wanted is not None and wanted not in _GENERIC and not number:
            return "linn__search_music", {"query": wanted[:100]}
    simple: list[tuple[set[str], str, dict[str, Any]]] = [
        ({"louder", "up"}, "linn__change_volume", {"change": 5}),
        ({"quieter", "softer", "down"}, "linn__change_volume", {"change": -5}),
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
        return _after_tools(results, request)
    text = request.last_user_text.casefold().strip()
    command = _command(text) or _answer_to_which(request, text)
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


def _answer_to_which(request: RecordedRequest, text: str) -> tuple[str, dict[str, Any]] | None:
    """'The second one' after 'Which one: m1 (...), m2 (...)': play that one."""
    words = set(re.findall(r"[a-z']+", text))
    for message in reversed(request.messages[:-1]):
        if message["role"] != "assistant" or not isinstance(message["content"], list):
            continue
        said = " ".join(
            str(block.get("text") or block.get("input", {}).get("question", ""))
            for block in message["content"]
            if block.get("type") in {"text", "tool_use"}
        )
        ids = re.findall(r"\b(m\d{1,3}) \(", said)
        if ids:
            for word, index in _ORDINALS.items():
                if word in words:
                    return "linn__play_music", {"item": ids[index]}
            return None
    return None


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
