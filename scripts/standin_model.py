"""A local rule-based stand-in for Claude, served over the Anthropic Messages API.

scripts/develop starts it when ANTHROPIC_API_KEY is not set, so the assistant works with no
key. It understands short English and German requests by keyword (scripts/standin/rules.py:
every linn__ tool, joining and leaving groups included, stations, sources and pins by name,
volume questions, "too loud", thanks, yes and no) and answers with the same tool calls a
model would send. Its replies come from the tools' results (scripts/standin/words.py),
never a fixed "Done."; anything it does not understand gets one short line with an
example. It never speaks the guard's notes to the model ("Needs approval ..."). The HTTP
side is the test suite's fake Messages API (testing/fake_anthropic), so the integration
talks to it exactly as to Anthropic.

    python -m scripts.standin_model --port 8124 --api-key local-standin
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from typing import Any

from scripts.standin.planning import plan_answer
from scripts.standin.rules import asks_source, asks_volume, command
from scripts.standin.words import Line, muted_note, players_in, say, state_word
from testing.fake_anthropic import FakeAnthropic, RecordedRequest, Reply, ToolUse

MODEL_ID = "local-standin"
HELP = say(Line.UNKNOWN, "en")
ASKED_ADMIN = say(Line.ASKED_ADMIN, "en")
SAY_YES = say(Line.SAY_YES, "en")
_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "last": -1}
KEPT_REQUESTS = 20
_FACTS = re.compile(r"<turn_facts>(.*?)</turn_facts>", re.DOTALL)
_DONE_LINES = {
    "linn__pause": Line.PAUSED,
    "linn__play": Line.PLAYING,
    "linn__stop": Line.STOPPED,
    "linn__next": Line.NEXT,
    "linn__previous": Line.PREVIOUS,
    "linn__standby": Line.STANDBY,
    "linn__wake": Line.AWAKE,
    "linn__join": Line.JOINED,
    "linn__unjoin": Line.LEFT,
    "remember": Line.REMEMBERED,
    "forget": Line.FORGOTTEN,
}


def _last_user_blocks(request: RecordedRequest) -> list[dict[str, Any]]:
    messages = request.messages
    if not messages or messages[-1]["role"] != "user":
        return []
    content = messages[-1]["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _turn_facts(request: RecordedRequest) -> dict[str, Any]:
    for message in reversed(request.messages):
        content = message["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks:
            if block.get("type") == "text" and (found := _FACTS.search(block["text"])):
                facts: dict[str, Any] = json.loads(found.group(1))
                return facts
    return {}


def _language(request: RecordedRequest) -> str:
    return str(_turn_facts(request).get("language") or "en")


def _last_tool_use(request: RecordedRequest) -> dict[str, Any] | None:
    """The tool call the model made last (the one these results answer)."""
    for message in reversed(request.messages):
        if message["role"] == "assistant" and isinstance(message["content"], list):
            uses = [b for b in message["content"] if b.get("type") == "tool_use"]
            return uses[-1] if uses else None
    return None


def _data(block: dict[str, Any]) -> dict[str, Any]:
    content = block.get("content")
    if isinstance(content, list):
        content = "".join(str(part.get("text", "")) for part in content)
    try:
        data = json.loads(content) if isinstance(content, str) else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _found_titles(request: RecordedRequest) -> dict[str, str]:
    """Short ids (m1 ...) to the titles the searches of this conversation found."""
    titles: dict[str, str] = {}
    for message in request.messages:
        if message["role"] != "user" or isinstance(message["content"], str):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                for result in _data(block).get("results", []):
                    titles[result["id"]] = result.get("device_text", {}).get("title", "")
    return titles


def _choose(found: dict[str, Any], player: str, query: str, request: RecordedRequest) -> Reply:
    """Play the hit that fits (one title, however many places have it); else ask which.

    "Switch to TV" selects the source by the name the search found (its own spelling).
    """
    language = _language(request)
    results = found.get("results", [])
    wanted = query.casefold()

    def title(result: dict[str, Any]) -> str:
        return str(result.get("device_text", {}).get("title", "")).casefold()

    exact = [r for r in results if r.get("match") == "title" or title(r) == wanted]
    candidates = exact or results
    if not candidates:
        return Reply(say(Line.NOT_FOUND, language, name=query))
    kinds = {(title(r), str(r.get("device_text", {}).get("artist", ""))) for r in candidates}
    if len(kinds) == 1 and exact and asks_source(request.last_user_text):
        source = str(candidates[0].get("device_text", {}).get("title", ""))
        return Reply(
            tool_uses=(ToolUse("linn__select_source", {"player": player, "source": source}),)
        )
    if len(kinds) == 1:
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
    question = say(Line.WHICH, language, options=", ".join(options))
    return Reply(tool_uses=(ToolUse("ask_user", {"question": question}),))


def _error_words(error: str, language: str) -> str:
    """The guard's answer as words for the user, never its notes to the model."""
    if error.startswith("Needs approval"):
        return say(Line.ASKED_ADMIN, language)
    if error.startswith("Needs confirmation"):
        return say(Line.SAY_YES, language)
    reason = error.split(": ", 1)[-1]
    return reason[:1].upper() + reason[1:]


def _state_words(data: dict[str, Any], volume_only: bool, language: str) -> list[str]:
    spoken = []
    for player in data["players"]:
        if volume_only:
            note = muted_note(bool(player.get("muted")), language)
            spoken.append(
                say(
                    Line.VOLUME_IS,
                    language,
                    player=player["player"],
                    volume=player["volume"],
                    muted=note,
                )
            )
            continue
        text = player.get("device_text", {})
        playing = " - ".join(
            v for v in (text.get("station"), text.get("title"), text.get("artist")) if v
        )
        line = Line.STATE_WITH if playing else Line.STATE
        state = state_word(str(player["state"]), language)
        spoken.append(
            say(
                line,
                language,
                player=player["player"],
                state=state,
                volume=player["volume"],
                playing=playing,
            )
        )
    return spoken


def _done_words(
    use: dict[str, Any], data: dict[str, Any], request: RecordedRequest, language: str
) -> str:
    """What a call that did what was asked did, from its result."""
    name, arguments = use["name"], use.get("input", {})
    if name in {"linn__set_volume", "linn__change_volume"} and "volume" in data:
        return say(Line.VOLUME_SET, language, volume=data["volume"])
    if name == "linn__mute":
        return say(Line.MUTED if arguments.get("muted") else Line.UNMUTED, language)
    if name == "linn__set_shuffle":
        return say(Line.SHUFFLE_ON if data.get("shuffle") else Line.SHUFFLE_OFF, language)
    if name == "linn__set_repeat":
        return say(Line.REPEAT_ON if data.get("repeat") else Line.REPEAT_OFF, language)
    if name == "linn__seek":
        return say(Line.SEEK, language, position=data.get("position_seconds", "?"))
    if name == "linn__select_source":
        return say(Line.SOURCE, language, name=arguments.get("source", ""))
    if name == "linn__play_pin":
        return say(Line.PIN, language, pin=arguments.get("pin", ""))
    if name == "linn__play_radio_preset":
        return say(Line.PRESET, language, preset=arguments.get("preset", ""))
    if name == "linn__play_music":
        title = _found_titles(request).get(str(arguments.get("item")), "")
        return say(Line.STARTED, language, name=title or arguments.get("item", ""))
    if name == "linn__set_volume_limit":
        return say(Line.VOLUME_SET, language, volume=arguments.get("limit", "?"))
    line = _DONE_LINES.get(name)
    return say(line, language) if line is not None else say(Line.NOT_DONE, language)


def _after_tools(results: list[dict[str, Any]], request: RecordedRequest) -> Reply:
    """What to say once the tools answered (or the next call, after a search to play)."""
    language = _language(request)
    last = _last_tool_use(request)
    if last is not None and last.get("name") == "linn__search_music" and len(results) == 1:
        data = _data(results[0])
        if "results" in data:
            return _choose(data, last["input"]["player"], last["input"]["query"], request)
    spoken = []
    for block in results:
        data = _data(block)
        if "error" in data:
            spoken.append(_error_words(str(data["error"]), language))
        elif "players" in data:
            spoken += _state_words(data, asks_volume(request.last_user_text), language)
        elif last is not None and (
            data.get("done") is True or "remembered" in data or "forgotten" in data
        ):
            spoken.append(_done_words(last, data, request, language))
        else:
            spoken.append(say(Line.NOT_DONE, language))
    text = " ".join(part if part.endswith((".", "?", "!")) else part + "." for part in spoken)
    return Reply(text or say(Line.NOT_DONE, language))


def _admin_was_asked(request: RecordedRequest) -> bool:
    """Whether the stand-in's last reply said an administrator was asked."""
    asked = {say(Line.ASKED_ADMIN, language) for language in ("en", "de")}
    for message in reversed(request.messages[:-1]):
        if message["role"] == "assistant":
            content = message["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            return any(b.get("type") == "text" and b.get("text") in asked for b in blocks)
    return False


def respond(request: RecordedRequest) -> Reply:
    """One reply for one Messages API request."""
    results = [b for b in _last_user_blocks(request) if b.get("type") == "tool_result"]
    if results:
        return _after_tools(results, request)
    language = _language(request)
    text = request.last_user_text.casefold().strip()
    found = _answer_to_which(request, text) or command(text)
    if found is None:
        return Reply(say(Line.UNKNOWN, language))
    if isinstance(found, Line):
        if found in {Line.OK_YES, Line.OK_NO} and _admin_was_asked(request):
            return Reply(say(Line.ADMIN_DECIDES, language))
        return Reply(say(found, language))
    tool, arguments = found
    offered = {tool_param["name"] for tool_param in (request.body or {}).get("tools", [])}
    if tool not in offered:
        return Reply(say(Line.SIGN_IN, language))
    if tool in {"linn__join", "linn__unjoin"}:
        return _grouping(request, tool, arguments, language)
    if tool.startswith("linn__"):
        facts = _turn_facts(request)
        names = [p["name"] for p in facts.get("players", [])]
        named = players_in(text, names)
        player = named[0] if named else facts.get("default_player")
        if player is None:
            return _which_player(names, language)
        arguments = {"player": player, **arguments}
    return Reply(tool_uses=(ToolUse(tool, arguments),))


def _which_player(names: list[str], language: str) -> Reply:
    question = say(Line.WHICH_PLAYER, language, options=", ".join(names))
    return Reply(tool_uses=(ToolUse("ask_user", {"question": question}),))


def _grouping(request: RecordedRequest, tool: str, words: dict[str, Any], language: str) -> Reply:
    """Join or unjoin with the players the user's words name (rules.py keeps them as words).

    A join with no leader named takes the one playing (else the default player, else the
    only other one); a player left unnamed is the default player, else the stand-in asks.
    """
    facts = _turn_facts(request)
    players = facts.get("players", [])
    names = [str(p["name"]) for p in players]
    named = players_in(str(words["player"]), names)
    if tool == "linn__unjoin":
        player = named[0] if named else facts.get("default_player")
        if player is None:
            return _which_player(names, language)
        return Reply(tool_uses=(ToolUse(tool, {"player": player}),))
    members = players_in(" ".join(words["members"]), names)
    if not members:
        return _which_player(names, language)
    others = [p for p in players if p["name"] not in members]
    playing = [str(p["name"]) for p in others if p.get("state") == "playing"]
    leaders = [n for n in named if n not in members] or playing
    if not leaders and facts.get("default_player") not in {None, *members}:
        leaders = [str(facts["default_player"])]
    if not leaders and len(others) == 1:
        leaders = [str(others[0]["name"])]
    if not leaders:
        return _which_player([str(p["name"]) for p in others], language)
    return Reply(tool_uses=(ToolUse(tool, {"player": leaders[0], "members": members}),))


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
    fake.planner = plan_answer
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
