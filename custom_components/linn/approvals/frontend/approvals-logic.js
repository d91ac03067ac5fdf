// The approvals card's logic, free of the DOM and of Home Assistant: unit-tested with node --test.

export const DEFAULT_AUDIT_COUNT = 10;
export const MAX_AUDIT_COUNT = 50;

const SIGNALS = {
  above_soft_limit: "Volume above the soft limit",
  quiet_hours: "During quiet hours",
  volume_jump: "A jump of more than 20 volume steps",
  unidentified_caller: "Nobody identified asked for it",
  tainted_turn: "Asked right after device text (a title or station) was read",
};

const OUTCOMES = {
  allowed: "Done",
  approved: "Approved",
  confirmed: "Confirmed by the user",
  denied: "Denied",
  pending: "Waiting for approval",
  expired: "Expired",
  rate_limited: "Rate limited",
  invalid: "Invalid",
  timed_out: "Timed out",
  failed: "Failed",
  duplicate: "Repeated",
};

/** The card's options with defaults; bad values fall back rather than break the card. */
export function normalizeConfig(config) {
  const raw = config && typeof config === "object" ? config : {};
  const count = Number.parseInt(raw.audit_count, 10);
  return {
    ...raw,
    title: typeof raw.title === "string" ? raw.title : "Assistant approvals",
    audit_count: Number.isInteger(count)
      ? Math.min(Math.max(count, 0), MAX_AUDIT_COUNT)
      : DEFAULT_AUDIT_COUNT,
  };
}

function quoted(value) {
  return typeof value === "string" ? `“${value}”` : String(value);
}

/** A tool call in plain words: "Set the volume limit of Living Room to 50". */
export function describeCall(tool, args = {}) {
  const player = args.player ?? "all players";
  switch (tool) {
    case "set_volume_limit":
      return `Set the volume limit of ${player} to ${args.limit}`;
    case "set_volume":
      return `Set the volume of ${player} to ${args.volume}`;
    case "change_volume":
      return `${args.change >= 0 ? "Raise" : "Lower"} the volume of ${player} by ${Math.abs(args.change)}`;
    case "mute":
      return `${args.muted === false ? "Unmute" : "Mute"} ${player}`;
    case "select_source":
      return `Switch ${player} to ${quoted(args.source)}`;
    case "play_pin":
      return `Play pin ${args.pin} on ${player}`;
    case "play_radio_preset":
      return `Play radio preset ${args.preset} on ${player}`;
    case "play_music":
      return `Play search result ${args.item} on ${player}`;
    case "standby":
      return `Put ${player} in standby`;
    case "join":
      return `Let ${(args.members ?? []).join(", ") || "other players"} play along with ${player}`;
    case "unjoin":
      return `Take ${player} out of its group`;
    case "play":
    case "pause":
    case "stop":
    case "next":
    case "previous":
      return `${tool[0].toUpperCase()}${tool.slice(1)} on ${player}`;
    default: {
      const parts = Object.entries(args).map(([key, value]) => `${key} ${quoted(value)}`);
      return parts.length ? `${tool}: ${parts.join(", ")}` : tool;
    }
  }
}

/** Why a request waits for an admin, in words; the tool's policy when nothing escalated it. */
export function describeWhy(request) {
  const lines = (request.signals ?? []).map((name) => SIGNALS[name] ?? name);
  for (const reason of request.reasons ?? []) {
    if (!reason || reason.startsWith("risk:")) continue;
    const line = reason[0].toUpperCase() + reason.slice(1);
    // the guard notes some signals in words too ("volume above the soft limit")
    if (!lines.some((known) => known.toLowerCase() === line.toLowerCase())) lines.push(line);
  }
  return lines.length ? lines : ["This action always needs an administrator"];
}

export function outcomeLabel(outcome) {
  return OUTCOMES[outcome] ?? outcome;
}

/** Milliseconds to add to this browser's clock to get the server's. */
export function clockOffset(serverNowIso, clientNowMs) {
  const server = Date.parse(serverNowIso);
  return Number.isNaN(server) ? 0 : server - clientNowMs;
}

/** Whole seconds left before a request expires (never negative). */
export function secondsLeft(expiresIso, clientNowMs, offsetMs = 0) {
  const left = (Date.parse(expiresIso) - (clientNowMs + offsetMs)) / 1000;
  return Number.isNaN(left) ? 0 : Math.max(0, Math.ceil(left));
}

/** "4:05" */
export function formatCountdown(seconds) {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The requests still open by the server's clock; an expired one leaves even before the push. */
export function livePending(pending, clientNowMs, offsetMs = 0) {
  return (pending ?? []).filter((r) => secondsLeft(r.expires, clientNowMs, offsetMs) > 0);
}

/** "14:03:27" today, "12 Mar, 14:03" otherwise, in the user's locale. */
export function formatTime(iso, clientNowMs, locale) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "";
  const sameDay = when.toDateString() === new Date(clientNowMs).toDateString();
  return sameDay
    ? when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit" })
    : when.toLocaleString(locale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** What the card shows now: "loading", "error", "disconnected", "empty" or "ready". */
export function cardState({ error, connected, snapshot }) {
  if (error) return "error";
  if (!connected) return "disconnected";
  if (!snapshot) return "loading";
  if (!snapshot.pending.length && !snapshot.audit.length) return "empty";
  return "ready";
}
