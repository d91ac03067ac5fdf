"""Drive the smoke test on the newest Home Assistant through its REST API (scripts/test-newest).

Home Assistant, the emulator and the stand-in model are already running. Like a person would:
create the owner account, add the emulated streamer through the config flow, check its entity,
play, pause and set the volume, add the assistant (pointed at the stand-in) and hold one Assist
conversation through /api/conversation/process. The account, the config flows and the REST and
websocket calls are scripts/develop_bootstrap.py's. Exits non-zero, saying which step failed, on
the first thing that is not as expected.

    python scripts/newest_smoke.py --url http://127.0.0.1:8123 --emulator-port 2323 \
        --standin-url http://127.0.0.1:8124 --standin-key local-standin
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
import sys
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).parent))
import develop_bootstrap as bootstrap

STEP_SECONDS = 30.0
"""How long one step may take before the test fails (a failure bound, never a pass)."""


async def state_of(session: aiohttp.ClientSession, url: str, token: str, entity: str) -> Any:
    """The entity's state object, or None while it does not exist."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.get(f"{url}/api/states/{entity}", headers=headers) as response:
        if response.status == 404:
            return None
        if response.status >= 400:
            sys.exit(f"GET state of {entity} answered {response.status}: {await response.text()}")
        return await response.json()


async def until(
    session: aiohttp.ClientSession,
    url: str,
    token: str,
    what: str,
    check: Callable[[Any], bool],
    *,
    entity: str,
) -> Any:
    """Poll the entity until `check(state)` holds; fail after STEP_SECONDS saying what was seen."""
    seen = None
    try:
        async with asyncio.timeout(STEP_SECONDS):
            while True:
                seen = await state_of(session, url, token, entity)
                if seen is not None and check(seen):
                    return seen
                await asyncio.sleep(0.2)
    except TimeoutError:
        sys.exit(f"{entity}: expected {what}; last state seen: {seen}")


def volume_is(level: float) -> Callable[[Any], bool]:
    """A check for `until`: the entity's volume_level is `level`."""
    return lambda state: state["attributes"].get("volume_level") == level


async def service(
    session: aiohttp.ClientSession, url: str, token: str, entity: str, name: str, **data: Any
) -> None:
    """Call a media_player service on the streamer."""
    await bootstrap.request(
        session,
        "POST",
        f"{url}/api/services/media_player/{name}",
        token,
        json={"entity_id": entity, **data},
    )


async def main() -> None:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--emulator-port", type=int, required=True)
    parser.add_argument("--standin-url", required=True)
    parser.add_argument("--standin-key", required=True)
    args = parser.parse_args()
    url = args.url
    async with aiohttp.ClientSession() as session:
        await bootstrap.wait_for_http(session, url, seconds=300)
        # Only the owner: the rest of onboarding adds weather, radio and text-to-speech entries
        # that need the internet.
        token = await bootstrap.create_owner(session, url, "smoke", "linn-smoke")
        await bootstrap.wait_until_running(session, url, token, seconds=300)
        config = await bootstrap.request(session, "GET", f"{url}/api/config", token)
        print(f"Home Assistant {config['version']} is running")

        await bootstrap.add_streamer(session, url, token, "127.0.0.1", args.emulator_port)
        # Onboarding made a "Living Room" area: the player is in it, and its id says so.
        player = await bootstrap.player_entity(url, token)
        state = await until(
            session,
            url,
            token,
            "an available player",
            lambda s: s["state"] != "unavailable",
            entity=player,
        )
        print(f"{player}: {state['state']}, {state['attributes'].get('friendly_name')}")

        await service(session, url, token, player, "media_play")
        await until(
            session, url, token, "playing", lambda s: s["state"] == "playing", entity=player
        )
        await service(session, url, token, player, "media_pause")
        await until(session, url, token, "paused", lambda s: s["state"] == "paused", entity=player)
        await service(session, url, token, player, "volume_set", volume_level=0.3)
        await until(session, url, token, "volume 0.3", volume_is(0.3), entity=player)
        print("play, pause and volume work")

        entry_id = await bootstrap.add_assistant(
            session, url, token, args.standin_key, args.standin_url
        )
        if entry_id is None:
            sys.exit("the assistant could not be added (see the warning above)")
        async with bootstrap.websocket(url, token) as call:
            agent = await bootstrap.assistant_agent(call, entry_id)
        answer = await bootstrap.request(
            session,
            "POST",
            f"{url}/api/conversation/process",
            token,
            json={"text": "volume 25", "agent_id": agent, "language": "en"},
        )
        speech = answer.get("response", {}).get("speech", {}).get("plain", {}).get("speech")
        print(f"Assist ({agent}) answered: {speech!r}")
        if answer.get("response", {}).get("response_type") == "error":
            sys.exit(f"the conversation failed: {answer}")
        await until(
            session, url, token, "volume 0.25 after 'volume 25'", volume_is(0.25), entity=player
        )
        print("the Assist conversation set the volume")


if __name__ == "__main__":
    asyncio.run(main())
