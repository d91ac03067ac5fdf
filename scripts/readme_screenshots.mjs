// The README's screenshots of what a new user does in scripts/develop (issue 19): wake the
// player, shuffle, play a queue track by name, "listen to" a source, each said in the Assist
// dialog, and a member's volume-limit request on the admin's approvals card.
// Run while scripts/develop runs (with the local stand-in):
//   node --experimental-websocket scripts/readme_screenshots.mjs [HA_URL] [OUT_DIR]
// (defaults http://127.0.0.1:8123 and docs/images). It creates a member "Sam" (sam / sam-pass).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { chromium } from "playwright-core";

import { login, session } from "../testing/browser/ha_session.mjs";

const HA_URL = process.argv[2] ?? "http://127.0.0.1:8123";
const OUT = process.argv[3] ?? "docs/images";
const DASHBOARD = `${HA_URL}/linn-dev/linn`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const adminTokens = await login(HA_URL, "dev", "linn-dev");
const admin = await session(HA_URL, adminTokens);
const users = await admin.call({ type: "config/auth/list" });
if (!users.some((user) => user.username === "sam")) {
  const { user } = await admin.call({ type: "config/auth/create", name: "Sam", group_ids: ["system-users"] });
  await admin.call({ type: "config/auth_provider/homeassistant/create", user_id: user.id, username: "sam", password: "sam-pass" });
}
const memberTokens = await login(HA_URL, "sam", "sam-pass");
const entities = await admin.call({ type: "config/entity_registry/list" });
const player = entities.find((e) => e.platform === "linn" && e.entity_id.startsWith("media_player.")).entity_id;
const state = async () => (await admin.call({ type: "get_states" })).find((s) => s.entity_id === player);
const service = (domain, name, data = {}) =>
  admin.call({ type: "call_service", domain, service: name, service_data: { entity_id: player, ...data } });

const profile = mkdtempSync(path.join(tmpdir(), "linn-shots-"));
process.env.TMPDIR = profile;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});

async function dashboard(tokens) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript((stored) => window.localStorage.setItem("hassTokens", JSON.stringify(stored)), tokens);
  const page = await context.newPage();
  await page.goto(DASHBOARD);
  await page.locator("linn-approvals-card ha-card").waitFor({ timeout: 60_000 });
  return page;
}

/** Two pictures side by side in one PNG (drawn by the browser itself). */
async function sideBySide(left, right, file) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
  const img = (png) => `<img src="data:image/png;base64,${png.toString("base64")}">`;
  await page.setContent(`<body style="margin:0;background:#fafafa;display:flex;gap:12px;padding:12px;width:max-content">${img(left)}${img(right)}</body>`);
  await page.locator("body").screenshot({ path: file });
  await page.close();
}

/**
 * Say TEXT in the Assist dialog and wait until CHECK holds (or 20 s); NAME gets the dialog
 * (the words and the reply) beside the dashboard after it closed (the player, the approvals
 * card's recent actions).
 */
async function assist(page, text, name, check) {
  await page.getByRole("button", { name: /^Assist/ }).first().click();
  const input = page.locator("ha-voice-command-dialog input").first();
  await input.waitFor();
  await input.fill(text);
  await input.press("Enter");
  for (let i = 0; i < 100; i++) {
    if (await check()) break;
    await sleep(200);
  }
  await sleep(1200); // the reply renders
  const dialog = await page.screenshot({ clip: { x: 350, y: 150, width: 580, height: 560 } });
  console.log(`${name}: ${(await page.locator("ha-voice-command-dialog").innerText()).replace(/\s+/g, " ")}`);
  await page.keyboard.press("Escape");
  await sleep(1200);
  const after = await page.screenshot({ clip: { x: 272, y: 64, width: 492, height: 560 } });
  await sideBySide(dialog, after, path.join(OUT, name));
}

try {
  const page = await dashboard(adminTokens);
  await service("media_player", "select_source", { source: "Playlist" });
  await service("media_player", "turn_off");
  for (let i = 0; i < 50 && (await state()).state !== "off"; i++) await sleep(200);
  await assist(page, "wake up the Linn", "develop-wake.png", async () => (await state()).state !== "off");
  await assist(page, "shuffle on", "develop-shuffle.png", async () => (await state()).attributes.shuffle === true);
  const queue = (await state()).attributes;
  console.log("now:", queue.media_title, queue.source);
  await assist(page, "play Cecilia", "develop-queue-track.png",
    async () => (await state()).attributes.media_title === "Cecilia");
  await assist(page, "listen to Spotify", "develop-listen-to.png", async () => (await state()).attributes.source === "Spotify");
  await page.context().close();

  // as a member: the request reaches the admin's approvals card
  const memberPage = await dashboard(memberTokens);
  const adminPage = await dashboard(adminTokens);
  const requests = adminPage.locator("linn-approvals-card .request");
  const before = await requests.count();
  await assist(memberPage, "volume limit 70", "develop-member-asks.png", async () => (await requests.count()) > before);
  await memberPage.context().close();
  await requests.first().waitFor({ timeout: 20_000 });
  await sleep(1000);
  await adminPage.locator("linn-approvals-card").screenshot({ path: path.join(OUT, "develop-member-request-card.png") });
  console.log("approvals card:", await requests.first().innerText());
  await adminPage.context().close();
} finally {
  admin.close();
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
