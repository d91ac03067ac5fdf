"""Onboard a fresh development Home Assistant and add the emulated streamer.

Used by scripts/develop: waits for Home Assistant's HTTP server, then (only the first
time) creates the owner account through the onboarding API, finishes onboarding, and
runs the Linn config flow against the emulator — the same steps a person would click.
Writes a long-lived access token to <config>/.dev_token for tools like screenshots.

On every start it also makes sure there is a Claude assistant entry for the key in
LINN_ASSISTANT_KEY (and server LINN_ASSISTANT_URL, empty for Anthropic itself), replacing
one made for another key or server, and makes its agent the preferred Assist pipeline's.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
import itertools
import json
import os
from pathlib import Path
import sys
from typing import Any

import aiohttp

CLIENT_ID = "http://127.0.0.1/"
NO_ASSISTANT = 3
"""Exit status when Home Assistant is ready but the assistant could not be added."""
COUNTRY = "GB"
"""Linn's. Onboarding's page asks a person for the country; without one Home Assistant shows a
repair ("The country has not been configured") on every start."""


async def wait_for_http(session: aiohttp.ClientSession, url: str, seconds: float) -> None:
    """Until Home Assistant answers on its API."""
    async with asyncio.timeout(seconds):
        while True:
            try:
                async with session.get(f"{url}/api/onboarding") as response:
                    if response.status in (200, 401, 404):
                        return
            except aiohttp.ClientError:
                pass  # not listening yet; asyncio.timeout above ends the wait with an error
            await asyncio.sleep(1)


async def post(session: aiohttp.ClientSession, url: str, **kwargs: Any) -> Any:
    """POST and return the JSON answer; fail loudly with the body on an error."""
    async with session.post(url, **kwargs) as response:
        if response.status >= 400:
            sys.exit(f"{url} answered {response.status}: {await response.text()}")
        return await response.json()


async def create_owner(session: aiohttp.ClientSession, url: str, user: str, password: str) -> str:
    """Onboarding's first step, the owner account; return an access token."""
    created = await post(
        session,
        f"{url}/api/onboarding/users",
        json={
            "client_id": CLIENT_ID,
            "name": "Developer",
            "username": user,
            "password": password,
            "language": "en",
        },
    )
    token = await post(
        session,
        f"{url}/auth/token",
        data={
            "grant_type": "authorization_code",
            "code": created["auth_code"],
            "client_id": CLIENT_ID,
        },
    )
    return str(token["access_token"])


async def onboard(session: aiohttp.ClientSession, url: str, user: str, password: str) -> str:
    """Create the owner and finish onboarding; return an access token."""
    token = await create_owner(session, url, user, password)
    headers = {"Authorization": f"Bearer {token}"}
    async with websocket(url, token) as call:  # what the onboarding page saves
        await call({"type": "config/core/update", "country": COUNTRY})
    await post(session, f"{url}/api/onboarding/core_config", headers=headers, json={})
    await post(session, f"{url}/api/onboarding/analytics", headers=headers, json={})
    await post(
        session,
        f"{url}/api/onboarding/integration",
        headers=headers,
        json={"client_id": CLIENT_ID, "redirect_uri": CLIENT_ID},
    )
    return token


async def add_streamer(
    session: aiohttp.ClientSession, url: str, token: str, host: str, port: int
) -> None:
    """Run the Linn config flow: the menu's "Linn streamer", then the manual step."""
    headers = {"Authorization": f"Bearer {token}"}
    flow = await post(
        session, f"{url}/api/config/config_entries/flow", headers=headers, json={"handler": "linn"}
    )
    step_url = f"{url}/api/config/config_entries/flow/{flow['flow_id']}"
    await post(session, step_url, headers=headers, json={"next_step_id": "streamer"})  # the menu
    result = await post(session, step_url, headers=headers, json={"host": host, "port": port})
    already_added = result.get("type") == "abort" and result.get("reason") == "already_configured"
    if result.get("type") != "create_entry" and not already_added:
        sys.exit(f"adding the emulated streamer failed: {result}")


async def request(
    session: aiohttp.ClientSession, method: str, url: str, token: str, **kwargs: Any
) -> Any:
    """An authorized REST call; fail loudly with the body on an error."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.request(method, url, headers=headers, **kwargs) as response:
        if response.status >= 400:
            sys.exit(f"{method} {url} answered {response.status}: {await response.text()}")
        return await response.json()


async def wait_until_running(
    session: aiohttp.ClientSession, url: str, token: str, seconds: float
) -> None:
    """Until Home Assistant has started (its HTTP server answers before every part is loaded)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with asyncio.timeout(seconds):
        while True:
            async with session.get(f"{url}/api/config", headers=headers) as response:
                if response.status == 200 and (await response.json()).get("state") == "RUNNING":
                    return
            await asyncio.sleep(1)


async def add_assistant(
    session: aiohttp.ClientSession, url: str, token: str, api_key: str, base_url: str
) -> str | None:
    """Run the config flow's assistant step (the key is checked for real); the entry id."""
    flows = f"{url}/api/config/config_entries/flow"
    flow = await request(session, "POST", flows, token, json={"handler": "linn"})
    await request(
        session, "POST", f"{flows}/{flow['flow_id']}", token, json={"next_step_id": "assistant"}
    )
    data = {"api_key": api_key, **({"base_url": base_url} if base_url else {})}
    result = await request(session, "POST", f"{flows}/{flow['flow_id']}", token, json=data)
    if result.get("type") != "create_entry":
        # e.g. the key was refused or the server is unreachable: Home Assistant still runs
        print(f"WARNING: the assistant was not added: {result.get('errors') or result}")
        await request(session, "DELETE", f"{flows}/{flow['flow_id']}", token)
        return None
    return str(result["result"]["entry_id"])


async def ensure_assistant(
    session: aiohttp.ClientSession, url: str, token: str, config: Path
) -> str | None:
    """The assistant entry for this key and server; its entry id (None: it was not added)."""
    api_key = os.environ["LINN_ASSISTANT_KEY"]
    base_url = os.environ.get("LINN_ASSISTANT_URL", "")
    marker = config / ".dev_assistant"
    wanted = {"key_tail": api_key[-6:], "base_url": base_url}
    entries = await request(
        session, "GET", f"{url}/api/config/config_entries/entry?domain=linn", token
    )
    existing = {entry["entry_id"] for entry in entries}
    if marker.exists():
        known = json.loads(marker.read_text())
        if known["entry_id"] in existing:
            if {k: known.get(k) for k in wanted} == wanted:
                return str(known["entry_id"])
            await request(
                session,
                "DELETE",
                f"{url}/api/config/config_entries/entry/{known['entry_id']}",
                token,
            )
    entry_id = await add_assistant(session, url, token, api_key, base_url)
    if entry_id is not None:
        marker.write_text(json.dumps({"entry_id": entry_id, **wanted}))
    return entry_id


@asynccontextmanager
async def websocket(
    url: str, token: str
) -> AsyncIterator[Callable[[dict[str, Any]], Awaitable[Any]]]:
    """An authenticated websocket API connection: `call(message)` returns the result."""
    numbers = itertools.count(1)
    async with aiohttp.ClientSession() as session, session.ws_connect(f"{url}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": token})
        if (auth := await ws.receive_json()).get("type") != "auth_ok":
            sys.exit(f"websocket authentication failed: {auth}")

        async def call(message: dict[str, Any]) -> Any:
            await ws.send_json({"id": next(numbers), **message})
            answer = await ws.receive_json()
            if not answer.get("success"):
                sys.exit(f"{message['type']} failed: {answer}")
            return answer["result"]

        yield call


async def assistant_agent(call: Callable[[dict[str, Any]], Awaitable[Any]], entry_id: str) -> str:
    """The conversation entity of an assistant entry."""
    entities = await call({"type": "config/entity_registry/list"})
    agent = next(
        (
            e["entity_id"]
            for e in entities
            if e["config_entry_id"] == entry_id and e["entity_id"].startswith("conversation.")
        ),
        None,
    )
    if agent is None:
        sys.exit("the assistant entry has no conversation entity")
    return str(agent)


async def make_default_agent(url: str, token: str, entry_id: str) -> str:
    """The assistant's conversation entity becomes the preferred pipeline's agent."""
    async with websocket(url, token) as call:
        agent = await assistant_agent(call, entry_id)
        listed = await call({"type": "assist_pipeline/pipeline/list"})
        preferred = next(p for p in listed["pipelines"] if p["id"] == listed["preferred_pipeline"])
        if preferred["conversation_engine"] != agent:
            update = {k: v for k, v in preferred.items() if k != "id"}
            update["conversation_engine"] = agent
            update["prefer_local_intents"] = False
            await call(
                {
                    "type": "assist_pipeline/pipeline/update",
                    "pipeline_id": preferred["id"],
                    **update,
                }
            )
        return agent


DASHBOARD_PATH = "linn-dev"
DASHBOARD_SENSORS = ("codec", "sample_rate", "bit_depth", "volume_limit", "firmware")
"""The "Now playing" card's entities, by their unique id's suffix."""


async def streamer_entities(call: Callable[[dict[str, Any]], Awaitable[Any]]) -> dict[str, str]:
    """The streamer's entity ids by unique id suffix ("" for the player), from the registry.

    The ids are not fixed: a streamer in an area named like its room gets the area in them
    (media_player.living_room_living_room), as Home Assistant names entities in areas.
    """
    entries = await call({"type": "config/entity_registry/list"})
    ids: dict[str, str] = {}
    for entry in entries:
        if entry["platform"] != "linn":
            continue
        suffix = str(entry.get("unique_id") or "").partition("_")[2]
        if suffix or entry["entity_id"].startswith("media_player."):
            ids.setdefault(suffix, entry["entity_id"])
    if "" not in ids:
        sys.exit("the streamer has no media player entity")
    return ids


async def player_entity(url: str, token: str) -> str:
    """The streamer's media player entity id."""
    async with websocket(url, token) as call:
        return (await streamer_entities(call))[""]


def dashboard(ids: dict[str, str]) -> dict[str, Any]:
    """The development dashboard for the streamer with these entity ids."""
    return {
        "title": "Linn",
        "views": [
            {
                "title": "Linn",
                "path": "linn",
                "cards": [
                    {"type": "media-control", "entity": ids[""]},
                    {"type": "custom:linn-approvals-card", "title": "Assistant approvals"},
                    {
                        "type": "entities",
                        "title": "Now playing",
                        "entities": [ids[key] for key in DASHBOARD_SENSORS if key in ids],
                    },
                ],
            }
        ],
    }


async def websocket_setup(url: str, token: str) -> str:
    """Show the player on the default dashboard; return a long-lived token."""
    async with websocket(url, token) as call:
        await call(
            {
                "type": "lovelace/dashboards/create",
                "url_path": DASHBOARD_PATH,
                "title": "Linn",
                "icon": "mdi:speaker",
                "show_in_sidebar": True,
                "require_admin": False,
                "mode": "storage",
            }
        )
        config = dashboard(await streamer_entities(call))
        await call({"type": "lovelace/config/save", "url_path": DASHBOARD_PATH, "config": config})
        long_lived = await call(
            {"type": "auth/long_lived_access_token", "client_name": "develop", "lifespan": 3650}
        )
        return str(long_lived)


async def main() -> None:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8123")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--user", default="dev")
    parser.add_argument("--password", default="linn-dev")
    parser.add_argument("--emulator-port", type=int, default=2323)
    args = parser.parse_args()
    token_file = args.config / ".dev_token"
    async with aiohttp.ClientSession() as session:
        await wait_for_http(session, args.url, seconds=600)
        if not token_file.exists():
            token = await onboard(session, args.url, args.user, args.password)
            await add_streamer(session, args.url, token, "127.0.0.1", args.emulator_port)
            token_file.write_text(await websocket_setup(args.url, token))
        token = token_file.read_text().strip()
        if not os.environ.get("LINN_ASSISTANT_KEY"):
            return  # no assistant asked for (the browser tests)
        await wait_until_running(session, args.url, token, seconds=600)
        entry_id = await ensure_assistant(session, args.url, token, args.config)
    if entry_id is None:
        sys.exit(NO_ASSISTANT)
    agent = await make_default_agent(args.url, token, entry_id)
    print(f"Assist's preferred pipeline uses {agent}")


if __name__ == "__main__":
    asyncio.run(main())
