"""End-to-end test of the host-built simulator, with aioesphomeapi acting as Home Assistant.

The simulator binary (esphome compile esphome_configs/linn-remote-sim.yaml, done by
scripts/test-esphome) runs on loopback; this test plays Home Assistant: it answers the
remote's state subscriptions with media_player states, presses the test-hook buttons and
numbers, checks the exact actions the remote calls, and checks screen snapshots pixel by pixel.
"""

import asyncio
from collections.abc import Callable, Coroutine, Iterator
import os
from pathlib import Path
import socket
import subprocess
import threading
import time
from typing import Any

from aioesphomeapi import APIClient, HomeassistantServiceCall, TextSensorState
from conftest import CONFIG_DIR
from PIL import Image
import pytest

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


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sim]:
    if not PROGRAM.exists():
        pytest.fail(
            f"simulator not built: {PROGRAM} missing; "
            "run `esphome compile esphome_configs/linn-remote-sim.yaml` (scripts/test-esphome does)"
        )
    s = Sim(tmp_path_factory.mktemp("sim"))
    try:
        s.run(s.connect())
        yield s
    finally:
        s.close()


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


def test_subscribes_to_state_and_attributes(sim: Sim) -> None:
    async def go() -> None:
        await sim.wait_for(lambda: len(sim.subscriptions) >= 7)

    sim.run(go())
    attrs = [
        "",
        "media_title",
        "media_artist",
        "volume_level",
        "is_volume_muted",
        "source",
        "source_list",
    ]
    assert sim.subscriptions == {(ENTITY, a) for a in attrs}


def test_waiting_screen_before_any_state(sim: Sim) -> None:
    screen = sim.run(sim.snapshot())
    assert lit(screen, (0, 14, 128, 20)) > 50  # "Waiting for HA"
    assert lit(screen, VOLUME) == 0


def test_now_playing_screen(sim: Sim) -> None:
    async def go() -> Screen:
        await _playing(sim)
        return await sim.snapshot()

    screen = sim.run(go())
    assert lit(screen, TITLE) > 80
    assert lit(screen, ARTIST) > 40
    assert lit(screen, SOURCE) > 30
    # play triangle: lit on the left edge and the tip, dark above the tip
    assert screen[5][3]
    assert screen[5][9]
    assert not screen[1][9]
    # 40 % of the 92 px wide fill
    assert bar_fill(screen) == fill_px(400) == 36
    save_png(sim, screen, "now-playing")


def test_volume_change_redraws_only_the_volume_bar(sim: Sim) -> None:
    async def go() -> tuple[Screen, Screen]:
        await _playing(sim)
        before = await sim.snapshot()
        await sim.push_player(volume_level="0.75")
        return before, await sim.snapshot()

    before, after = sim.run(go())
    diff = changed_pixels(before, after)
    assert diff
    assert inside(diff, VOLUME)
    assert sim.redraws_since_last_two_snapshots() == ["volume"]
    assert bar_fill(after) == fill_px(750)
    assert lit(after, TITLE) == lit(before, TITLE)


def test_title_change_redraws_only_the_title(sim: Sim) -> None:
    async def go() -> tuple[Screen, Screen]:
        await _playing(sim, volume="0.75")
        before = await sim.snapshot()
        await sim.push_player(media_title="Só Danço Samba")  # accented glyphs
        return before, await sim.snapshot()

    before, after = sim.run(go())
    diff = changed_pixels(before, after)
    assert diff
    assert inside(diff, TITLE)
    assert sim.redraws_since_last_two_snapshots() == ["title"]
    sim.log.flush()
    log = (sim.workdir / "sim.log").read_text()
    assert "Snapshot" in log  # the log is readable while the simulator runs
    assert "not found in font" not in log  # ó and ç are in the committed font


def test_long_title_scrolls_within_its_row(sim: Sim) -> None:
    async def go() -> tuple[Screen, Screen]:
        await _playing(
            sim, title="Kind of Blue (Legacy Edition) - Flamenco Sketches, alternate take"
        )
        await asyncio.sleep(2.0)  # past the marquee's start pause
        a = await sim.snapshot()
        await asyncio.sleep(0.5)
        return a, await sim.snapshot()

    a, b = sim.run(go())
    diff = changed_pixels(a, b)
    assert diff  # it moved
    assert inside(diff, TITLE)
    redrawn = sim.redraws_since_last_two_snapshots()
    assert len(redrawn) >= 5  # 0.5 s at one pixel per 40 ms
    assert set(redrawn) == {"title"}


def test_encoder_sets_absolute_volume_coalesced(sim: Sim) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await _playing(sim, volume="0.4")
        await sim.take_calls(1.2)  # quiet, no gesture running
        await sim.set_number("Sim turn", 3)
        out["single"] = await sim.take_calls(1.5)
        # HA confirms; a fast spin of 5 detents, one command each, back to back
        await sim.push_player(volume_level="0.46")
        for _ in range(5):
            await sim.set_number("Sim turn", 1)
        await asyncio.sleep(0.2)  # redraw, well inside the 1 s settle time
        out["turning"] = await sim.snapshot()  # while turning: the screen shows the target
        out["spin"] = await sim.take_calls(1.5)
        # HA never confirmed 0.56: once the gesture settles the screen shows HA's level again
        out["settled"] = await sim.snapshot()
        # volume changed elsewhere (the app): the next turn starts from there, no drift
        await sim.push_player(volume_level="0.2")
        await sim.set_number("Sim turn", 1)
        out["elsewhere"] = await sim.take_calls(1.5)
        # clamped to max_volume (80 %) and to 0
        await sim.push_player(volume_level="0.78")
        await sim.set_number("Sim turn", 5)
        out["max"] = await sim.take_calls(1.5)
        await sim.push_player(volume_level="0.02")
        await sim.set_number("Sim turn", -50)
        out["min"] = await sim.take_calls(1.5)
        return out

    out = sim.run(go(), timeout=60)
    assert out["single"] == [vol("0.46")]
    spin = out["spin"]
    # the first detent goes out at once, the rest are coalesced: fewer calls than detents,
    # rising, ending exactly at 0.46 + 5 * 0.02
    assert 1 < len(spin) < 5, spin
    assert spin[0] == vol("0.48")
    assert spin[-1] == vol("0.56")
    levels = [float(c[1]["volume_level"]) for c in spin]
    assert levels == sorted(levels)
    assert bar_fill(out["turning"]) == fill_px(560)  # the screen follows the knob
    assert bar_fill(out["settled"]) == fill_px(460)
    assert out["elsewhere"] == [vol("0.22")]
    assert out["max"] == [vol("0.8")]
    assert out["min"] == [vol("0.0")]


def test_buttons_call_actions(sim: Sim) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await _playing(sim)
        await sim.take_calls(0.2)
        await sim.press("Sim play pause")
        await sim.press("Sim next")
        out["transport"] = await sim.take_calls()
        await sim.press("Sim source")
        await sim.press("Sim source")  # continues from the optimistic source
        out["source"] = await sim.take_calls()
        await sim.press("Sim standby")
        out["off"] = await sim.take_calls()
        await sim.push_player(state="off")
        out["standby_screen"] = await sim.snapshot()
        await sim.press("Sim play pause")  # nothing to pause in standby
        await sim.set_number("Sim turn", 2)  # no volume in standby
        await sim.press("Sim standby")
        out["on"] = await sim.take_calls()
        return out

    out = sim.run(go(), timeout=60)
    assert out["transport"] == [call("media_play_pause"), call("media_next_track")]
    assert out["source"] == [
        call("select_source", source="Radio"),
        call("select_source", source="Linn's TV"),
    ]
    assert out["off"] == [call("turn_off")]
    assert out["on"] == [call("turn_on")]
    standby = out["standby_screen"]
    save_png(sim, standby, "standby")
    assert lit(standby, (0, 14, 128, 20)) > 50  # "Standby"
    assert lit(standby, VOLUME) == 0  # no volume bar


def test_encoder_push_pages_and_source_selection(sim: Sim) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await _playing(sim, volume="0.5")
        out["now"] = await sim.snapshot()
        await sim.press("Sim encoder press")
        await asyncio.sleep(0.3)
        out["volume_page"] = await sim.snapshot()
        await sim.press("Sim encoder press")
        await asyncio.sleep(0.3)
        out["sources_page"] = await sim.snapshot()
        await sim.set_number("Sim turn", 2)  # cursor: Playlist -> Linn's TV
        await asyncio.sleep(0.3)
        out["cursor"] = await sim.snapshot()
        out["turn_calls"] = await sim.take_calls(0.3)
        await sim.press("Sim encoder press")
        out["select"] = await sim.take_calls()
        out["back"] = await sim.snapshot()
        return out

    out = sim.run(go(), timeout=60)
    save_png(sim, out["volume_page"], "volume-page")
    save_png(sim, out["cursor"], "sources-page")
    assert changed_pixels(out["now"], out["volume_page"])
    assert bar_fill(out["volume_page"]) == fill_px(500)  # the bar stays at the bottom
    assert lit(out["volume_page"], (0, 16, 128, 30)) > lit(out["now"], TITLE)  # big number
    # sources page: a highlighted (inverted) row for the current source
    assert lit(out["sources_page"], (0, 14, 128, 12)) > 600
    diff = changed_pixels(out["sources_page"], out["cursor"])
    assert diff
    assert inside(diff, (0, 13, 128, 51))  # only the list redrew
    assert out["turn_calls"] == []  # the encoder moves the cursor, not the volume
    assert out["select"] == [call("select_source", source="Linn's TV")]
    assert lit(out["back"], VOLUME) > 0  # back on now playing


def test_idle_dim_sleep_and_wake_only_press(sim: Sim) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await _playing(sim)
        await sim.take_calls(0.2)
        await sim.set_number("Sim sleep after", 2)  # dim after 1 s, sleep after 2 s
        await sim.wait_for(lambda: sim.phase == "dim", within=3)
        await sim.wait_for(lambda: sim.phase == "sleep", within=3)
        out["asleep"] = await sim.snapshot()
        await sim.press("Sim next")  # wakes only: the screen was off
        await sim.wait_for(lambda: sim.phase == "active", within=3)
        await asyncio.sleep(0.2)
        out["woken"] = await sim.snapshot()
        await sim.set_number("Sim sleep after", 600)
        out["calls"] = await sim.take_calls()
        await sim.press("Sim next")
        out["calls_after"] = await sim.take_calls()
        return out

    out = sim.run(go(), timeout=60)
    assert lit(out["asleep"], (0, 0, 128, 64)) == 0
    assert lit(out["woken"], TITLE) > 80
    assert out["calls"] == []
    assert out["calls_after"] == [call("media_next_track")]


def test_muted_shows_mute_in_the_volume_widget_only(sim: Sim) -> None:
    async def go() -> tuple[Screen, Screen, Screen]:
        await _playing(sim, volume="0.3")
        before = await sim.snapshot()
        await sim.push_player(is_volume_muted="on")
        muted = await sim.snapshot()
        await sim.push_player(is_volume_muted="off")
        return before, muted, await sim.snapshot()

    before, muted, unmuted = sim.run(go())
    diff = changed_pixels(before, muted)
    assert diff
    assert inside(diff, (99, 50, 29, 14))  # the label next to the bar: "30%" -> "MUTE"
    assert sim.redraws_since_last_two_snapshots() == ["volume"]
    assert unmuted == before


def test_home_assistant_gone_shows_waiting_screen(sim: Sim) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await _playing(sim)
        await sim.disconnect()
        await sim.connect(as_home_assistant=False)  # a client that is not Home Assistant
        await asyncio.sleep(0.3)
        out["gone"] = await sim.snapshot()
        await sim.disconnect()
        await sim.connect()  # Home Assistant is back and sends the states again
        await sim.wait_for(lambda: len(sim.subscriptions) >= 7)
        await _playing(sim)
        out["back"] = await sim.snapshot()
        return out

    out = sim.run(go(), timeout=60)
    assert lit(out["gone"], (0, 14, 128, 20)) > 50  # "Waiting for HA"
    assert lit(out["gone"], VOLUME) == 0
    assert lit(out["gone"], TITLE) != lit(out["back"], TITLE)
    assert bar_fill(out["back"]) == fill_px(400)
