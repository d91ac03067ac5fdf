"""Break-it review 30g (branch break6), end to end: attacks on the guard that still succeed.

Each test asserts the secure outcome; a finding's test fails on today's code (marked xfail
strict), so the suite stays green until the fix lands; then the mark must go.

Findings:
- U1 (low): an administrator's approval of a change that reached the player's gate runs
  another change than the one asked for. A `play_media` of a URL or of Home Assistant media
  is decided at the gate as the Linn tool `play` with no argument but the player
  (`media_player.play_media_tool` / `play_media_arguments`); when the owner set `play` to
  *approve*, the request waits with the arguments `{"player": "Living Room"}` and the
  gate's own work (play that URL) is dropped. The admin's `linn.approve` then runs the Linn
  tool `play` (`approvals.async_decide` builds a `LinnHandler`): the player resumes what
  its queue held, not the stream the member asked for, and the audit log records "play,
  approved" for a change nobody asked for. The admin was shown no URL, so no approval
  can be for the media asked; nothing unapproved runs (hence low), but an approval from
  the gate is not an approval of the call. Path: core Claude's
  `media_player__play_media(url, music, "Living Room")` in a member's turn.

Tried, held (run: the tests below without a mark; read: not run):
- (run) core Claude's HassMediaPlayerMute, HassMediaPause and HassSetVolume 25 in a
  member's turn reach the gate as `mute`, `pause` and `set_volume` (25 in the player's
  units), and the owner's deny of that tool refuses each
  (`test_each_service_is_decided_by_the_tool_whose_policy_the_owner_sets`);
- (read) turn_on / turn_off / toggle / media_play_pause, next / previous, seek,
  shuffle_set, repeat_set: each handler is `@gated` with the tool of the same name
  (`wake`, `standby`, `play`/`pause`, `next`, `previous`, `seek` with the position,
  `set_shuffle`, `set_repeat` with ONE meaning on); volume_up / volume_down are
  `change_volume` ±1 (the device's step is one unit), so the soft limit sees the target;
- (read) join: the gate's arguments name the members by their player names
  (`member_names`), `LinnHandler.targets` adds them, so the members' streamers' policies
  and the whole-name check apply to them; unjoin is its own tool;
- (read) select_source: the gate passes the source as given; the Linn tool accepts only a
  visible source's shown name, so a system name or a hidden source is refused (a false
  block, e.g. a search hit's source played through play_media), never a wider change;
- (read) clear_playlist: the player does not offer CLEAR_PLAYLIST, so Home Assistant
  refuses the service before any handler;
- (read) an approval from the gate: `Guard.resolve` re-checks the argument hash, admin,
  secret, `_denied_now` with the request's agent id (an assistant's deny set while it
  waits holds), the targets and the requester's permissions; `pending.take` makes a
  second answer `used`, so it runs at most once;
- (read) two assistant entries: one guard, `Guard.settings` tightens the players'
  settings with only the calling agent's (ASSISTANT in its turn, else the chat log's
  agent); an agent's settings never loosen, so a policy leaking into a task (a timer)
  can only tighten;
- (read) quiet hours and risk: both are inputs of `Guard._decide`, which the gate calls
  with the same `RiskFacts` as the Linn tool (set_volume / change_volume in device
  units); two signals escalate one step and CONFIRM at the gate is refused (no yes);
- (read) the number (volume limit) and the update entity: Home Assistant 2026.10 has no
  intent that sets a number or installs an update; the number refuses a non-admin user
  itself (B8), the update entity is Home Assistant's permissions (UI, documented scope).
"""

from __future__ import annotations

from typing import Any

from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.linn.agent.client import SHARES_HTTP_CLIENT
from custom_components.linn.const import DOMAIN
from custom_components.linn.guard import Outcome
from custom_components.linn.tools.guard_options import OPT_POLICIES
from custom_components.linn.tools.ha_adapter import DATA_GUARD
from linn_emulator import LinnEmulator
from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse
from testing.ha.core_agent import CORE_KEY, core_claude_agent
from testing.helpers import wait_for

PLAYER = "media_player.living_room"
URL = "http://radio.example.org/stream.mp3"

needs_core = pytest.mark.skipif(
    not SHARES_HTTP_CLIENT,
    reason="core anthropic of Home Assistant 2026.10 cannot run on anthropic 2.x (httpx)",
)


def _records(hass: HomeAssistant) -> list[tuple[str, Outcome]]:
    return [(r.tool, r.outcome) for r in hass.data[DATA_GUARD].guard.audit.records]


async def _setup(hass: HomeAssistant, entry: MockConfigEntry, policies: dict[str, str]) -> None:
    for component in ("homeassistant", "conversation", "intent"):
        assert await async_setup_component(hass, component, {})
    hass.config_entries.async_update_entry(entry, options={**entry.options, OPT_POLICIES: policies})
    await hass.async_block_till_done()


async def _member_turn(
    hass: HomeAssistant, core: FakeAnthropic, said: str, tool: str, arguments: dict[str, Any]
) -> None:
    member = await hass.auth.async_create_user("Member", group_ids=[GROUP_ID_USER])
    async with core_claude_agent(hass, CORE_KEY) as agent:
        core.script(Reply(tool_uses=(ToolUse(tool, arguments),)), Reply("Done."))
        await conversation.async_converse(
            hass, said, None, Context(user_id=member.id), agent_id=agent
        )
        await hass.async_block_till_done()


@needs_core
@pytest.mark.xfail(strict=True, reason="review 30g finding U1")
async def test_u1_an_approved_play_media_runs_another_change_than_asked(
    hass: HomeAssistant,
    hass_admin_user: Any,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    core: FakeAnthropic,
) -> None:
    """The owner set `play` to approve. A member asks core Claude to play a stream; the
    gate waits for an admin. The admin approves: the player must play that stream (or the
    approval must not run a change nobody asked for)."""
    await _setup(hass, loaded_entry, {"play": "approve"})
    before = hass.states.get(PLAYER).attributes.get("media_content_id")
    await _member_turn(
        hass,
        core,
        f"play {URL} in the living room",
        "media_player__play_media",
        {"media_content_id": URL, "media_content_type": "music", "player_name": "Living Room"},
    )
    guard = hass.data[DATA_GUARD].guard
    waiting = [r for r in guard.pending.open_requests() if r.tool == "play"]
    assert len(waiting) == 1, _records(hass)  # the gate asked an administrator
    assert hass.states.get(PLAYER).attributes.get("media_content_id") == before
    response = await hass.services.async_call(
        DOMAIN,
        "approve",
        {"request_id": waiting[0].request_id},
        blocking=True,
        return_response=True,
        context=Context(user_id=hass_admin_user.id),
    )
    assert response["outcome"] == "approved"
    await hass.async_block_till_done()
    assert ("play", Outcome.APPROVED) in _records(hass)
    # what the member asked for and the admin approved is the stream, not a resume
    assert hass.states.get(PLAYER).attributes.get("media_content_id") == URL, _records(hass)


@needs_core
@pytest.mark.parametrize(
    ("policy", "said", "tool", "arguments", "changed"),
    [
        (
            "mute",
            "mute the living room",
            "media_player__HassMediaPlayerMute",
            {"name": "Living Room"},
            lambda s: s.attributes.get("is_volume_muted") is True,
        ),
        (
            "pause",
            "pause the living room",
            "media_player__HassMediaPause",
            {"name": "Living Room"},
            lambda s: s.state == "paused",
        ),
        (
            "set_volume",
            "set the living room volume to 25",
            "media_player__HassSetVolume",
            {"name": "Living Room", "volume_level": 25},
            lambda s: s.attributes.get("volume_level") == 0.25,
        ),
    ],
)
async def test_each_service_is_decided_by_the_tool_whose_policy_the_owner_sets(
    hass: HomeAssistant,
    emulator: LinnEmulator,
    loaded_entry: MockConfigEntry,
    core: FakeAnthropic,
    policy: str,
    said: str,
    tool: str,
    arguments: dict[str, Any],
    changed: Any,
) -> None:
    """Held: the owner's deny of the tool refuses the service that maps to it."""
    await _setup(hass, loaded_entry, {policy: "deny"})
    if policy == "pause":  # the UI starts it (no conversation: Home Assistant's permissions)
        await hass.services.async_call(
            "media_player", "media_play", {"entity_id": PLAYER}, blocking=True
        )
        await wait_for(lambda: hass.states.get(PLAYER).state == "playing")
    await _member_turn(hass, core, said, tool, arguments)
    assert not changed(hass.states.get(PLAYER)), _records(hass)
    assert (policy, Outcome.DENIED) in _records(hass)
