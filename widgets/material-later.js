// On every page, Material's bundle runs when the reader first needs it, not as the page loads. The
// build (hooks/material_later.py) writes the bundle's <script> with a type no browser runs,
// HELD_TYPE; this module runs it
// - once the reader reaches for Material's own parts (the header, the navigation, search: any
//   touch, key or focus outside a widget or a notice of the site's; on a phone, the first touch
//   that scrolls the text), at once;
// - else, on a page whose engine starts (a tool page, or a die tapped in the text), once that
//   first start is over (ready, and what was asked meanwhile answered and drawn) and the reader
//   has left the widgets alone for QUIET_MS, in an idle moment, and not before NOT_BEFORE_MS from
//   the page's start: on tools/encounter/, whose engine start is over within a second, the pause ended
//   inside Lighthouse's window (Material at 2.9 s, TBT 315 ms, Performance 93 in 1 run of 3 and
//   97 in the median of 3 for --all, 2026-12-06);
// - else AT_MOST_MS after the page's load (a reader who touches nothing, or an engine still
//   starting over a slow link). Not sooner: a first visit's engine start is itself planned for
//   after the load (the page settles for a second, then the runtime restores), and with 3 s
//   Material's bundle came while that start was still under way, inside Lighthouse's window on 11
//   of 12 first visits to tools/roller/ (its "User Timing" showed "Material at most" at 3.2-3.4 s;
//   at 8 s it never came inside the window, and single runs read 97-100).
//
// Why: on a phone the bundle's start is a long task (150-300 ms at 4x CPU: evaluation, then its
// work on DOMContentLoaded), the longest of a rules page's load and nearly all of its blocking time
// (Lighthouse TBT 94-220 ms with it, 0-4 ms without: benchmarks/README.md), and nothing a reader or
// a player does first needs it: the text, the drawer, the palette's first colours, the dice and the
// widgets are the site's own, and a link tapped before it runs is an ordinary navigation. On a tool
// page a returning player's first roll waits for the engine, whose start shares the phone's few
// slow cores with the page's (with the browser on one core here, that roll came about 0.1 s sooner
// without Material's bundle); and right after that answer the player taps on, so it waits for a
// pause in the taps.
//
// Material starts on DOMContentLoaded, long past by then: the event is sent again, to the document
// only (Material listens there, once; nothing of the site's listens for it).

import { afterEngineStart } from "./engine.js";
import { cancelIdle, whenIdle } from "./idle.js";
import { typingInto } from "./shortcuts.js";

const HELD_TYPE = "rollbook/material-later"; // hooks/material_later.py writes it
// (a test may set globalThis.rollbookEngineLimits = {material: ms} before the page's scripts run)
const AT_MOST_MS = globalThis.rollbookEngineLimits?.material ?? 8000;
const QUIET_MS = 2000;
const NOT_BEFORE_MS = 8000; // (the "at most" wait, counted from the page's start: see above)
const INTENT = ["pointerdown", "keydown", "focusin"];
// Taps here are the reader's own, not a reach for Material: the widgets, and the site's notices.
// A tap on a new version's "Reload" that also started Material often did not reload at all: the
// new service worker stayed waiting for a minute and more (tests/browser/test_offline.py, the
// mid-fight update: 8 runs of 26 failed so; Material's start had just sent the old one its fetches).
const OURS = ".rollbook-widget, .rollbook-notice";
// Material's own keys (search; previous and next page): the press that ran Material is pressed
// again for it once it listens, so "/" opens the search at the first press, as on any page.
const MATERIAL_KEYS = new Set(["/", "s", "f", "p", ",", "n", "."]);
let pressedAgain = null;

const held = globalThis.document?.querySelector(`script[type="${HELD_TYPE}"]`) ?? null;
let state = held ? "held" : "ran"; // "held", "loading", "ran" (or "failed": offline, not cached)
const waiting = [];

/** Call `callback` once Material's bundle has run (at once on a page that did not hold it). */
export function onMaterial(callback) {
  if (state === "ran") callback();
  else waiting.push(callback);
}

let engineStarted = false;
let updateWaiting = false; // a new version waits for the reader's Reload (holdMaterial)

/** A new version of the site waits for the reader's Reload (widgets/offline.js): a pause or the
 *  "at most" wait no longer runs Material. Its start sends the old service worker its fetches, and
 *  the new one, told to take over, waited for them: a Reload tapped as Material started by the wait
 *  left the page on the old version for 90 s (CI, 2026-12-06, test_fast_start's update). A reach
 *  for Material's own parts still runs it. */
export function holdMaterial() {
  updateWaiting = true;
  clearTimeout(quiet);
  cancelIdle(idleRun);
}
let quiet = 0; // the timer of the pause being waited for
let idleRun = 0; // and after it, the idle moment being waited for

/** Run Material once the reader has left the widgets alone for QUIET_MS (counted again at each tap,
 *  also one that comes while the idle moment after the pause is still awaited). */
function afterAPause() {
  clearTimeout(quiet);
  cancelIdle(idleRun);
  const wait = Math.max(QUIET_MS, NOT_BEFORE_MS - performance.now()); // (performance.now(): ms since the page's start)
  quiet = setTimeout(() => { idleRun = whenIdle(() => run("after a pause"), { timeout: 1000 }); }, wait);
}

function reach(event) {
  if (event.target?.closest?.(OURS)) {
    if (engineStarted) afterAPause();
    return;
  }
  const shortcut = event.type === "keydown" && MATERIAL_KEYS.has(event.key) && !typingInto(event.target)
    && !event.ctrlKey && !event.metaKey && !event.altKey;
  if (shortcut) pressedAgain = event.key;
  run("reached for");
}

// `why` names the way it came to run, in a mark a profile or Lighthouse's "User Timing" shows.
function run(why) {
  if (state !== "held" || (updateWaiting && why !== "reached for")) return;
  state = "loading";
  performance.mark(`rollbook: Material ${why}`);
  clearTimeout(quiet);
  cancelIdle(idleRun);
  for (const type of INTENT) removeEventListener(type, reach, { capture: true });
  const script = document.createElement("script");
  script.src = held.src;
  // Material's start in a task of its own, after the one that evaluated the bundle: on a phone
  // each is a long task (tools/encounter/ at 4x page CPU: about 200 and 100 ms), and a tap that
  // comes between them is answered sooner than after both.
  script.addEventListener("load", () => setTimeout(() => {
    state = "ran";
    document.dispatchEvent(new Event("DOMContentLoaded"));
    if (pressedAgain) dispatchEvent(new KeyboardEvent("keydown", { key: pressedAgain, bubbles: true }));
    for (const callback of waiting.splice(0)) callback();
  }));
  // Offline, with the bundle in no cache: the page goes on without Material's extras, as it did.
  script.addEventListener("error", () => { state = "failed"; });
  held.replaceWith(script);
}

if (held) {
  afterEngineStart(() => {
    engineStarted = true;
    afterAPause();
  });
  const atMost = () => setTimeout(() => { if (!engineStarted) run("at most"); }, AT_MOST_MS);
  if (document.readyState === "complete") atMost();
  else addEventListener("load", atMost, { once: true });
  for (const type of INTENT) addEventListener(type, reach, { capture: true, passive: true });
}
