// Unit tests of the approvals card's logic: node --test tests/frontend
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardState, clockOffset, describeCall, describeWhy, formatCountdown, livePending,
  normalizeConfig, outcomeLabel, secondsLeft,
} from "../../custom_components/linn/approvals/frontend/approvals-logic.js";

const NOW = Date.parse("2026-10-20T12:00:00Z");

test("config: defaults, clamping, and nonsense falls back", () => {
  assert.deepEqual(normalizeConfig(undefined), { title: "Assistant approvals", audit_count: 10 });
  assert.equal(normalizeConfig({ audit_count: "7" }).audit_count, 7);
  assert.equal(normalizeConfig({ audit_count: 500 }).audit_count, 50);
  assert.equal(normalizeConfig({ audit_count: -3 }).audit_count, 0);
  assert.equal(normalizeConfig({ audit_count: "lots" }).audit_count, 10);
  assert.equal(normalizeConfig({ title: "" }).title, "");
  assert.equal(normalizeConfig({ type: "custom:linn-approvals-card" }).type, "custom:linn-approvals-card");
});

test("calls in plain words", () => {
  assert.equal(describeCall("set_volume_limit", { player: "Living Room", limit: 50 }),
    "Set the volume limit of Living Room to 50");
  assert.equal(describeCall("set_volume", { player: "Kitchen", volume: 75 }), "Set the volume of Kitchen to 75");
  assert.equal(describeCall("change_volume", { player: "Kitchen", change: -5 }), "Lower the volume of Kitchen by 5");
  assert.equal(describeCall("select_source", { player: "Kitchen", source: "TV" }), "Switch Kitchen to “TV”");
  assert.equal(describeCall("join", { player: "Kitchen", members: ["Den", "Hall"] }),
    "Let Den, Hall play along with Kitchen");
  assert.equal(describeCall("next", { player: "Den" }), "Next on Den");
  assert.equal(describeCall("standby", {}), "Put all players in standby");
  assert.equal(describeCall("mystery", { a: 1, b: "x" }), "mystery: a 1, b “x”");
});

test("why: risk signals and notes in words, the policy when nothing escalated", () => {
  assert.deepEqual(describeWhy({ signals: ["above_soft_limit", "volume_jump"], reasons: ["no conversation to confirm in"] }),
    ["Volume above the soft limit", "A jump of more than 20 volume steps", "No conversation to confirm in"]);
  assert.deepEqual(describeWhy({ signals: [], reasons: [] }), ["This action always needs an administrator"]);
  // a signal the guard also notes in words is listed once
  assert.deepEqual(describeWhy({ signals: ["above_soft_limit"], reasons: ["volume above the soft limit"] }),
    ["Volume above the soft limit"]);
  assert.deepEqual(describeWhy({ signals: ["new_signal"] }), ["new_signal"]);
});

test("countdown by the server's clock, even when this browser's clock is off", () => {
  const offset = clockOffset("2026-10-20T12:00:30Z", NOW); // the browser is 30 s behind
  assert.equal(offset, 30_000);
  assert.equal(secondsLeft("2026-10-20T12:05:00Z", NOW, offset), 270);
  assert.equal(secondsLeft("2026-10-20T12:00:10Z", NOW, offset), 0);
  assert.equal(secondsLeft("2026-10-20T12:00:30.200Z", NOW, offset), 1);
  assert.equal(formatCountdown(270), "4:30");
  assert.equal(formatCountdown(5), "0:05");
  assert.equal(clockOffset("garbage", NOW), 0);
});

test("an expired request leaves the list without waiting for the server", () => {
  const pending = [
    { request_id: "K7", expires: "2026-10-20T12:00:01Z" },
    { request_id: "B3", expires: "2026-10-20T12:04:00Z" },
  ];
  assert.deepEqual(livePending(pending, NOW).map((r) => r.request_id), ["K7", "B3"]);
  assert.deepEqual(livePending(pending, NOW + 1000).map((r) => r.request_id), ["B3"]);
  assert.deepEqual(livePending(undefined, NOW), []);
});

test("states: error beats disconnected beats loading; empty only with nothing at all", () => {
  const empty = { pending: [], audit: [] };
  assert.equal(cardState({ error: "x", connected: false, snapshot: empty }), "error");
  assert.equal(cardState({ connected: false, snapshot: empty }), "disconnected");
  assert.equal(cardState({ connected: true, snapshot: null }), "loading");
  assert.equal(cardState({ connected: true, snapshot: empty }), "empty");
  assert.equal(cardState({ connected: true, snapshot: { pending: [], audit: [{}] } }), "ready");
});

test("outcomes in words", () => {
  assert.equal(outcomeLabel("rate_limited"), "Rate limited");
  // the user's own yes is no approval (issue 19)
  assert.equal(outcomeLabel("confirmed"), "Confirmed by the user");
  assert.equal(outcomeLabel("something_new"), "something_new");
});
