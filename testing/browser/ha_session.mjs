// Home Assistant as one user sees it from outside: its login flow and its websocket API.
// Shared by the browser tests (tests/browser) and scripts/readme_screenshots.mjs.
import assert from "node:assert/strict";

/** Log in through Home Assistant's own login flow; the tokens its frontend keeps. */
export async function login(haUrl, username, password) {
  const clientId = `${haUrl}/`;
  const post = async (url, body, form = false) => {
    const response = await fetch(`${haUrl}${url}`, {
      method: "POST",
      headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json" },
      body: form ? new URLSearchParams(body) : JSON.stringify(body),
    });
    assert.ok(response.ok, `${url}: ${response.status} ${await response.clone().text()}`);
    return response.json();
  };
  const flow = await post("/auth/login_flow", {
    client_id: clientId, handler: ["homeassistant", null], redirect_uri: clientId,
  });
  const done = await post(`/auth/login_flow/${flow.flow_id}`, { username, password, client_id: clientId });
  assert.equal(done.type, "create_entry", JSON.stringify(done));
  const token = await post("/auth/token", {
    grant_type: "authorization_code", code: done.result, client_id: clientId,
  }, true);
  return {
    ...token, hassUrl: haUrl, clientId, expires: Date.now() + token.expires_in * 1000,
  };
}

/** A websocket session as one user: call(message) resolves with the result or rejects. */
export async function session(haUrl, tokens) {
  const socket = new WebSocket(`${haUrl.replace("http", "ws")}/api/websocket`);
  const waiting = new Map();
  let nextId = 1;
  await new Promise((resolve, reject) => {
    socket.onerror = reject;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "auth_required") {
        socket.send(JSON.stringify({ type: "auth", access_token: tokens.access_token }));
      } else if (message.type === "auth_ok") {
        resolve();
      } else if (message.type === "auth_invalid") {
        reject(new Error(message.message));
      } else if (message.type === "result" && waiting.has(message.id)) {
        const { ok, fail } = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.success) ok(message.result);
        else fail(new Error(`${message.error.code}: ${message.error.message}`));
      }
    };
  });
  return {
    call(message) {
      const id = nextId++;
      return new Promise((ok, fail) => {
        waiting.set(id, { ok, fail });
        socket.send(JSON.stringify({ id, ...message }));
      });
    },
    close: () => socket.close(),
  };
}
