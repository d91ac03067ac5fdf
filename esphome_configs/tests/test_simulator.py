"""End-to-end test of the host-built simulator, with aioesphomeapi acting as Home Assistant.

The simulator binary (esphome compile esphome_configs/linn-remote-sim.yaml, done by
scripts/test-esphome) runs on loopback; this test plays Home Assistant: it answers the
remote's state subscriptions with media_player states, presses the test-hook buttons and
numbers, checks the exact actions the remote calls, and checks screen snapshots pixel by pixel.
"""

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from sim_harness import (
    ARTIST,
    ENTITY,
    PROGRAM,
    SOURCE,
    TITLE,
    VOLUME,
    Screen,
    Sim,
    _playing,
    bar_fill,
    call,
    changed_pixels,
    fill_px,
    inside,
    lit,
    save_png,
    vol,
)


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
