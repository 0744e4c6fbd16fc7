// What one visit shares between every widget on every page: the kept state (roll log,
// characters) over localStorage, kept in step with other tabs, and `rollIntoLog`, the one way a
// roll reaches the log (the roller, inline rolls in the rules text and "Roll again" all use it);
// `keepResult` is how a tool's result (a check, an attack) reaches it.

import { ask, newSeed, SITE_ROOT } from "./engine.js";
import { KeptError, KeptStore, MAX_LABEL, MAX_TEXT, newId } from "./kept.js";
import { indexedDbMark, indexedDbOrNull, locksOrNull } from "./step-lock.js"; // (no Web Locks: every change is written at once, kept.js)

/** This browser's localStorage, or null where it is blocked. */
export function localStorageOrNull() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage blocked (some private modes): rolls still work, and say they are not kept
  }
}


const idb = indexedDbOrNull();
// Two tabs changing what is kept at the same instant both keep their change (kept.js says how).
export const kept = new KeptStore(localStorageOrNull(), undefined, { locks: locksOrNull(), mark: idb ? indexedDbMark(idb, "kept") : null });

// Another tab rolled or saved a character, or cleared the site's storage (an event with no key):
// show it here too.
globalThis.addEventListener?.("storage", (event) => {
  if (event.key === kept.key || event.key === null) kept.reload();
});
// A page thawed from the back/forward cache may have missed those while it was frozen (a browser
// need not send a frozen page storage events; Chromium keeps them for the thaw): what is kept now
// is read again, and again a moment later. In Chromium each tab's process reads localStorage from
// its own copy, which messages from the browser bring up to date: read at the thaw, the copy may
// still lack another tab's last write, and a browser that sends no event would never say it came
// (a browser test, 2026-12-07: the thawed page went on showing the encounter without the step the
// other tab had kept).
const THAWED_READ_AGAIN_MS = [250, 1000, 5000];
globalThis.addEventListener?.("pageshow", (event) => {
  if (!event.persisted) return;
  kept.reload();
  for (const ms of THAWED_READ_AGAIN_MS) setTimeout(() => kept.catchUp(), ms);
});


/** The site's root URL, for the widgets that make links (from widgets/engine.js). */
export { SITE_ROOT };

/** Where on the site this page is, for a log entry: "opencore/weapons-and-armor/". */
export function pagePath() {
  const path = location.pathname;
  const root = new URL(SITE_ROOT).pathname;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** `value` cut to `max` characters (an ellipsis marks the cut): a breakdown of thousands of dice,
 *  or a label that is a whole long expression, is kept shortened rather than refused. */
export function clip(value, max) {
  const text = String(value ?? "");
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

/**
 * Roll `expression` (with named values `vars`) and keep it in the log under `label`.
 * Resolves with {answer, entry}: the engine's response and the log entry (null if it failed).
 */
export async function rollIntoLog({ expression, vars = {}, label = null, seed = newSeed() }) {
  const args = { expression, seed };
  if (Object.keys(vars).length) args.vars = vars;
  const answer = await ask({ command: "roll", args });
  if (!answer.ok) return { answer, entry: null };
  const result = answer.result;
  const roll = {
    id: newId(),
    at: new Date().toISOString(),
    label: clip(label || result.label || result.expression, MAX_LABEL),
    expression,
    vars,
    seed,
    total: result.total,
    total_text: result.total_exact ?? null,
    text: clip(result.text, MAX_TEXT),
    page: pagePath(),
  };
  let entry;
  try {
    entry = kept.addRoll(roll);
  } catch (error) {
    // an exact total longer than the log keeps (999999999**5/999999997: 55 digits) is kept as its
    // value to the float's digits, marked as such, never cut; the roll's answer is shown either way
    if (!(error instanceof KeptError && error.path === "roll.total_text")) throw error;
    entry = kept.addRoll({ ...roll, total_text: `≈ ${result.total}` });
  }
  return { answer, entry };
}

/**
 * Keep a tool's result in the log: its label, the engine's total and text, the seed, and the
 * link (site-relative: page, inputs and seed) that shows the same result again.
 */
export function keepResult({ label, total, total_text = null, text, seed, link }) {
  return kept.addRoll({
    id: newId(),
    at: new Date().toISOString(),
    label: clip(label, MAX_LABEL),
    expression: "",
    vars: {},
    seed,
    total,
    total_text,
    text: clip(text, MAX_TEXT),
    page: pagePath(),
    link,
  });
}
