// The approvals card in headless Chromium against a real Home Assistant and the emulator.
// Started by scripts/test-browser (which provides HA_URL and EMULATOR_PORT).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, afterEach, before, test } from "node:test";

import { chromium } from "playwright-core";

import { login, session } from "../../testing/browser/ha_session.mjs";

const HA_URL = process.env.HA_URL;
const EMULATOR_PORT = Number(process.env.EMULATOR_PORT);
const SCREENSHOTS = process.env.BROWSER_SCREENSHOTS;
const DASHBOARD = `${HA_URL}/linn-dev/linn`;
const PLAYER = "Living Room";
const CARD = "linn-approvals-card";

/** Ask the emulator itself over LPEC (not Home Assistant's idea of it). */
function lpecGet(service, action) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(EMULATOR_PORT, "127.0.0.1");
    let buffer = "";
    const timer = setTimeout(() => { socket.destroy(); reject(new Error("LPEC timed out")); }, 5000);
    // the emulator does not recognise the first line of a session; a blank line is harmless
    socket.on("connect", () => socket.write(`\r\nACTION ${service} 1 ${action}\r\n`));
    socket.on("data", (chunk) => {
      buffer += chunk;
      const match = buffer.match(/^RESPONSE "([^"]*)"/m);
      if (match) { clearTimeout(timer); socket.end(); resolve(match[1]); }
    });
    socket.on("error", (err) => { clearTimeout(timer); reject(err); });
  });
}
const volumeLimit = async () => Number(await lpecGet("Ds/Volume", "VolumeLimit"));


/** In the page: a console argument as text (Errors with their stack, objects with their keys). */
function describeValue(value) {
  const seen = new WeakSet();
  const replacer = (key, x) => {
    if (x instanceof Error) return { name: x.name, message: x.message, stack: x.stack };
    if (x instanceof Event) return { event: x.type, target: x.target?.src ?? x.target?.href ?? String(x.target) };
    if (x instanceof Node) return `<${x.nodeName}>`;
    if (x && typeof x === "object") { if (seen.has(x)) return "[cycle]"; seen.add(x); }
    return x;
  };
  try {
    return typeof value === "string" ? value : JSON.stringify(value, replacer);
  } catch (e) {
    return `${Object.prototype.toString.call(value)} (${e.message})`;
  }
}

/** In the page: whether our element is defined, HA's error cards, and the card module's loads. */
function pageState() {
  const found = [];
  const walk = (root) => {
    for (const element of root.querySelectorAll("*")) {
      if (element.localName === "hui-error-card") {
        const config = element._config ?? element.config;
        found.push({ error: config?.error ?? config?.message, origConfig: config?.origConfig });
      }
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  walk(document);
  return {
    defined: Boolean(customElements.get("linn-approvals-card")),
    errorCards: found,
    loads: performance.getEntriesByType("resource").filter((e) => e.name.includes("linn_frontend"))
      .map((e) => ({ url: e.name, status: e.responseStatus, start: Math.round(e.startTime), end: Math.round(e.responseEnd) })),
  };
}

let browser;
let profile;
let admin;
let adminTokens;
let guestTokens;

const openContexts = new Set();

/**
 * A browser page on the dashboard with the card, logged in with these tokens.
 * cardModuleFirst: hold Home Assistant's app bundle until the card's module has run, the order
 * a slow machine gives when the small module arrives before the big bundle (issue 12).
 */
async function openCard(tokens, { viewport = { width: 1280, height: 900 }, cardModuleFirst = false } = {}) {
  const context = await browser.newContext({ viewport });
  openContexts.add(context);
  context.on("close", () => openContexts.delete(context));
  await context.addInitScript((stored) => {
    window.localStorage.setItem("hassTokens", JSON.stringify(stored));
  }, tokens);
  const page = await context.newPage();
  let heldApp = false;
  if (cardModuleFirst) {
    await page.route(/\/frontend_latest\/app\.[0-9a-f]+\.js$/, async (route) => {
      heldApp = await page.waitForFunction(
        () => window.customCards?.some((card) => card.type === "linn-approvals-card"), null, { timeout: 30_000 },
      ).then(() => true, () => false);
      await route.continue();
    });
  }
  const consoleErrors = [];
  const pending = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // the arguments themselves: HA logs objects, whose text is only "Object"
    pending.push(Promise.all(message.args().map((arg) => arg.evaluate(describeValue).catch((e) => `? (${e.message})`)))
      .then((parts) => consoleErrors.push(`${message.text()} || ${parts.join(" | ")} @ ${JSON.stringify(message.location())}`)));
  });
  page.on("pageerror", (error) => consoleErrors.push(`pageerror: ${error.stack ?? error}`));
  page.on("requestfailed", (request) => consoleErrors.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on("response", (response) => {
    if (response.status() >= 400) consoleErrors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(DASHBOARD);
  try {
    await page.locator(`${CARD} ha-card`).waitFor({ timeout: 60_000 });
  } catch (err) {
    // what the browser showed instead, for whoever reads the failure
    const dir = process.env.BROWSER_FAILURES ?? tmpdir();
    const shot = path.join(dir, `linn-card-failure-${Date.now()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    const title = await page.title().catch(() => "");
    const cards = await page.locator(CARD).count().catch(() => -1);
    const state = await page.evaluate(pageState).catch((e) => `? (${e.message})`);
    await Promise.allSettled(pending);
    err.message += `\n  page: ${page.url()} ${JSON.stringify(title)}; ${CARD} elements: ${cards}; screenshot: ${shot}`;
    err.message += `\n  page state: ${JSON.stringify(state)}`;
    err.message += `\n  console errors and failed requests: ${JSON.stringify(consoleErrors.slice(-20), null, 1)}`;
    throw err;
  }
  if (cardModuleFirst) assert.ok(heldApp, "the card's module did not run before Home Assistant's app bundle");
  return page;
}

// a failed test must not leave its pages rendering (and loading the machine) for the next one
afterEach(async () => {
  for (const context of [...openContexts]) await context.close();
});

const requestIn = (page, id) => page.locator(`${CARD} .request[data-request-id="${id}"]`);

async function ask(limit, extra = {}) {
  const answer = await admin.call({
    type: "linn_test_agent/ask", tool: "set_volume_limit", arguments: { player: PLAYER, limit }, ...extra,
  });
  assert.match(answer.data.error, /^Needs approval/);
  return answer.data.request_id;
}

before(async () => {
  assert.ok(HA_URL && EMULATOR_PORT, "run through scripts/test-browser");
  adminTokens = await login(HA_URL, "dev", "linn-dev");
  admin = await session(HA_URL, adminTokens);
  // HTTP settings from YAML count as a change to confirm; confirm them as the dialog would
  await admin.call({ type: "http/config/promote" }).catch(() => {});
  const { user } = await admin.call({ type: "config/auth/create", name: "Guest", group_ids: ["system-users"] });
  await admin.call({
    type: "config/auth_provider/homeassistant/create", user_id: user.id, username: "guest", password: "guest-pass",
  });
  guestTokens = await login(HA_URL, "guest", "guest-pass");
  profile = mkdtempSync(path.join(tmpdir(), "linn-chromium-"));
  process.env.TMPDIR = profile;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    // Playwright refuses --user-data-dir with launch(); it passes its own fresh one, which it
    // creates under TMPDIR, pointed at this run's throw-away directory.
  });
});

after(async () => {
  admin?.close();
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test("the card shows a pending request; Approve runs it and it leaves the list", async () => {
  const page = await openCard(adminTokens);
  assert.equal(await volumeLimit(), 80);
  const id = await ask(50);
  const request = requestIn(page, id);
  await request.waitFor();
  assert.equal(await request.locator(".what").textContent(), "Set the volume limit of Living Room to 50");
  assert.match(await request.locator(".requester").textContent(), /Asked by you/);
  assert.match(await request.locator(".countdown").textContent(), /^[45]:\d\d left$/);
  assert.match(await request.locator(".why").textContent(), /always needs an administrator/);

  if (SCREENSHOTS) {
    await page.locator(CARD).screenshot({ path: path.join(SCREENSHOTS, "approvals-card-desktop.png") });
    const phone = await openCard(adminTokens, { viewport: { width: 390, height: 844 } });
    await requestIn(phone, id).waitFor();
    await phone.screenshot({ path: path.join(SCREENSHOTS, "approvals-card-phone.png") });
    await phone.context().close();
  }

  await request.locator("button.approve").click();
  await request.waitFor({ state: "detached" });
  assert.equal(await volumeLimit(), 50);
  await page.locator(`${CARD} td.outcome`, { hasText: "Approved" }).first().waitFor();
  await page.context().close();
});

test("Deny leaves the device unchanged", async () => {
  const page = await openCard(adminTokens);
  const before = await volumeLimit();
  const id = await ask(20);
  const request = requestIn(page, id);
  await request.locator("button.deny").click();
  await request.waitFor({ state: "detached" });
  await page.locator(`${CARD} td.outcome`, { hasText: "Denied" }).first().waitFor();
  assert.equal(await volumeLimit(), before);
  await page.context().close();
});

test("a non-admin session neither sees nor can approve an admin's request", async () => {
  const adminPage = await openCard(adminTokens);
  const guestPage = await openCard(guestTokens);
  const before = await volumeLimit();
  const id = await ask(30);
  await requestIn(adminPage, id).waitFor();
  await guestPage.locator(`${CARD} ha-card[data-state]`).waitFor();
  assert.equal(await guestPage.locator(`${CARD} .request`).count(), 0);
  assert.equal(await guestPage.locator(`${CARD} button.approve`).count(), 0);

  // the server refuses even a hand-made approval from the guest's own browser session
  const guest = await session(HA_URL, guestTokens);
  const result = await guest.call({ type: "linn/approvals/decide", request_id: id, approve: true });
  guest.close();
  assert.equal(result.outcome, "denied");
  assert.equal(await volumeLimit(), before);
  assert.equal(await requestIn(adminPage, id).count(), 1);

  await requestIn(adminPage, id).locator("button.deny").click();
  await requestIn(adminPage, id).waitFor({ state: "detached" });
  await adminPage.context().close();
  await guestPage.context().close();
});

test("an expired request disappears", async () => {
  const page = await openCard(adminTokens);
  const id = await ask(10, { expiry_seconds: 3 });
  const request = requestIn(page, id);
  await request.waitFor();
  await request.waitFor({ state: "detached", timeout: 10_000 });
  await page.locator(`${CARD} td.outcome`, { hasText: "Expired" }).first().waitFor({ timeout: 10_000 });
  assert.notEqual(await volumeLimit(), 10);
  await page.context().close();
});

test("the card appears when its module runs before Home Assistant's app bundle (a slow machine)", async () => {
  // Home Assistant's app swaps window.customElements for a scoped-registry polyfill while it
  // boots; a card defined before the swap was invisible to the dashboard ("Custom element
  // doesn't exist"), in 3 of about 175 page loads under load here; in every one of these.
  const page = await openCard(adminTokens, { cardModuleFirst: true });
  // subscribed and rendering what the server pushed, and its editor is there for the dashboard too
  await page.locator(`${CARD} ha-card[data-state]:not([data-state="loading"])`).waitFor();
  assert.equal(await page.evaluate(() => customElements.get("linn-approvals-card").getConfigElement().localName),
    "linn-approvals-card-editor");
  assert.ok(await page.evaluate(() => Boolean(customElements.get("linn-approvals-card-editor"))));
  await page.context().close();
});

test("in a narrow card the recent actions wrap between words, never inside one", async () => {
  const page = await openCard(adminTokens, { viewport: { width: 320, height: 800 } });
  const id = await ask(40);
  await requestIn(page, id).waitFor();
  await page.locator(`${CARD} td.outcome`).first().waitFor();
  const broken = await page.locator(`${CARD} table.audit`).evaluate((table) => {
    const found = [];
    for (const cell of table.querySelectorAll("td")) {
      if (!cell.getClientRects().length) continue; // a column hidden on small screens
      const range = document.createRange();
      range.selectNodeContents(cell);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      const words = cell.textContent.trim().split(/\s+/).length;
      if (lines > words) found.push(`${cell.className} "${cell.textContent}": ${lines} lines`);
    }
    return found;
  });
  assert.deepEqual(broken, []);
  await requestIn(page, id).locator("button.deny").click();
  await requestIn(page, id).waitFor({ state: "detached" });
  await page.context().close();
});
