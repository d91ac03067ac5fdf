"""The simulator under test and how test_simulator.py plays Home Assistant to it.

Sim runs the host-built simulator binary with an aioesphomeapi client in a background event
loop; the screen helpers read its snapshots (widget rectangles as in linn_remote_model.h);
vol, call and _playing build what Home Assistant sends and expects.
"""

import asyncio
from collections.abc import Callable, Coroutine
import os
from pathlib import Path
import socket
import subprocess
import threading
import time
from typing import Any

from aioesphomeapi import APIClient, HomeassistantServiceCall, TextSensorState
from esphome_cli import CONFIG_DIR
from PIL import Image

ENTITY = "media_player.linn_klimax"
PROGRAM = CONFIG_DIR / ".esphome/build/linn-remote-sim/.pioenvs/linn-remote-sim/program"
SOURCES = "['Playlist', 'Radio', \"Linn's TV\", 'Spotify']"

# Widget rectangles (x, y, w, h), as in linn_remote_model.h widget_rect().
TRANSPORT = (0, 0, 12, 12)
SOURCE = (14, 0, 114, 12)
TITLE = (0, 14, 128, 18)
ARTIST = (0, 33, 128, 14)
VOLUME = (0, 50, 128, 14)
BAR_INNER_ROW = 57  # a row inside the filled part of the volume bar
BAR_INNER_X0 = 2  # the fill starts here; 92 px wide at 100 %

Screen = list[list[bool]]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lit(screen: Screen, rect: tuple[int, int, int, int]) -> int:
    x, y, w, h = rect
    return sum(screen[j][i] for j in range(y, y + h) for i in range(x, x + w))


def changed_pixels(a: Screen, b: Screen) -> list[tuple[int, int]]:
    return [(x, y) for y in range(64) for x in range(128) if a[y][x] != b[y][x]]


def inside(points: list[tuple[int, int]], rect: tuple[int, int, int, int]) -> bool:
    x, y, w, h = rect
    return all(x <= px < x + w and y <= py < y + h for px, py in points)


def fill_px(per_mille: int) -> int:
    """Width of the bar's fill for a volume, as the renderer computes it."""
    return 92 * per_mille // 1000


def bar_fill(screen: Screen) -> int:
    """Lit pixels of the volume bar's fill on one row (the frame columns excluded)."""
    return sum(screen[BAR_INNER_ROW][x] for x in range(BAR_INNER_X0, BAR_INNER_X0 + 92))


def save_png(sim: Sim, screen: Screen, name: str) -> None:
    """Keep a 4x picture of a screen; with LINN_SIM_PNG_DIR set also there (README pictures)."""
    img = Image.new("1", (128, 64))
    img.putdata([255 if screen[y][x] else 0 for y in range(64) for x in range(128)])
    img = img.resize((512, 256), Image.Resampling.NEAREST)
    img.save(sim.workdir / f"sim-{name}.png")
    if target := os.environ.get("LINN_SIM_PNG_DIR"):
        img.save(Path(target) / f"sim-{name}.png")


class Sim:
    """The running simulator plus an aioesphomeapi client in a background event loop."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.shots = workdir / "shots"
        self.shots.mkdir()
        self.port = _free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.calls: list[HomeassistantServiceCall] = []
        self.subscriptions: set[tuple[str, str]] = set()  # "" = the main state
        self.phase = ""
        self.keys: dict[str, Any] = {}
        self.client: APIClient | None = None
        self.log = (workdir / "sim.log").open("w")
        env = dict(os.environ)
        env |= {
            "ESPHOME_SNAPSHOT_DIR": str(self.shots),
            "ESPHOME_PREFDIR": str(workdir),
            "LINN_SIM_API_PORT": str(self.port),
        }
        self.proc = subprocess.Popen(
            [str(PROGRAM)], stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=workdir
        )
        self.shot_no = 0

    def run[T](self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def connect(self, as_home_assistant: bool = True) -> None:
        """Connect; as Home Assistant: subscribe to states, HA states and actions."""
        deadline = time.monotonic() + 15
        while True:
            client = APIClient("127.0.0.1", self.port, None)
            try:
                await client.connect(login=True)
                break
            except Exception:
                await client.disconnect(force=True)
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                await asyncio.sleep(0.2)
        self.client = client
        entities, _ = await client.list_entities_services()
        self.keys = {e.name: e for e in entities}

        def on_state(state: Any) -> None:
            if isinstance(state, TextSensorState) and state.key == self.keys["Sim phase"].key:
                self.phase = state.state

        if not as_home_assistant:
            return
        client.subscribe_home_assistant_states_and_services(
            on_state,
            self.calls.append,
            lambda entity, attribute: self.subscriptions.add((entity, attribute or "")),
        )

    async def push(self, attribute: str | None, value: str) -> None:
        assert self.client is not None
        self.client.send_home_assistant_state(ENTITY, attribute, value)

    async def push_player(self, **attrs: str) -> None:
        """Send the main state first (state=...), then the attributes, like HA does."""
        if "state" in attrs:
            await self.push(None, attrs.pop("state"))
        for attribute, value in attrs.items():
            await self.push(attribute, value)
        await asyncio.sleep(0.3)  # let the remote's loop redraw

    async def press(self, name: str) -> None:
        assert self.client is not None
        self.client.button_command(self.keys[name].key)

    async def set_number(self, name: str, value: float) -> None:
        assert self.client is not None
        self.client.number_command(self.keys[name].key, value)

    async def snapshot(self) -> Screen:
        assert self.client is not None
        self.shot_no += 1
        name = f"shot{self.shot_no:03d}"
        path = self.shots / f"{name}.bmp"
        self.client.text_command(self.keys["Sim snapshot"].key, name)
        deadline = time.monotonic() + 5
        while not path.exists() or path.stat().st_size < 54 + 128 * 64 * 3:
            if time.monotonic() > deadline:
                raise AssertionError(f"no snapshot {path}")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
        img = Image.open(path).convert("L")
        assert img.size == (128, 64)
        px = img.load()
        assert px is not None
        return [[px[x, y] > 127 for x in range(128)] for y in range(64)]

    def redraws_since_last_two_snapshots(self) -> list[str]:
        """Widgets the remote redrew between the last two snapshots (its "Redrew:" log lines)."""
        self.log.flush()
        lines = (self.workdir / "sim.log").read_text().splitlines()
        marks = [i for i, line in enumerate(lines) if "Snapshot written to" in line]
        assert len(marks) >= 2
        out: list[str] = []
        for line in lines[marks[-2] : marks[-1]]:
            if "Redrew: " in line:
                out += line.split("Redrew: ", 1)[1].split("\x1b")[0].strip().split(",")
        return out

    async def wait_for(self, what: Callable[[], bool], within: float = 5) -> None:
        deadline = time.monotonic() + within
        while not what():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting")
            await asyncio.sleep(0.05)

    async def take_calls(self, settle: float = 0.6) -> list[tuple[str, dict[str, str]]]:
        """Calls received so far, after `settle` seconds of quiet."""
        await asyncio.sleep(settle)
        out = [(c.service, dict(c.data)) for c in self.calls]
        self.calls.clear()
        return out

    async def disconnect(self) -> None:
        if self.client is not None:
            await self.client.disconnect()
            self.client = None

    def close(self) -> None:
        self.run(self.disconnect())
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.log.close()


def vol(v: str) -> tuple[str, dict[str, str]]:
    return ("media_player.volume_set", {"entity_id": ENTITY, "volume_level": v})


def call(action: str, **data: str) -> tuple[str, dict[str, str]]:
    return (f"media_player.{action}", {"entity_id": ENTITY, **data})


async def _playing(sim: Sim, volume: str = "0.4", title: str = "Blue in Green") -> None:
    await sim.push_player(
        state="playing",
        media_title=title,
        media_artist="Miles Davis",
        volume_level=volume,
        is_volume_muted="off",
        source="Playlist",
        source_list=SOURCES,
    )
