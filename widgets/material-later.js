// On a tool page, Material's bundle runs after the dice engine's start, not before it. The build
// (hooks/pyodide_bundle.py) writes the bundle's <script> on tool pages with a type no browser
// runs, HELD_TYPE; this module runs it once the engine's first start is over (ready, and what was
// asked meanwhile answered, after that answer is drawn), once the reader reaches for Material's
// own parts (the header, the navigation, search: any tap, key or focus outside a widget), or
// AT_MOST_MS after the page's load, whichever comes first.
//
// Why: a returning player's first roll on tools/roller/ waits for the engine, and on a phone's few
// slow cores the engine's start shares the CPU with the page's. Material's bundle is the page's
// largest script before the first roll (with the browser on one core here, that roll came about
// 0.1 s sooner without it: benchmarks/README.md), and nothing on a tool page needs it for that
// roll: the widgets are the page's own, the drawer and the palette's first colours work without
// it, and a link tapped before it runs is an ordinary navigation.
//
// Material starts on DOMContentLoaded, long past by then: the event is sent again, to the document
// only (Material listens there, once; nothing of the site's listens for it).

import { afterEngineStart } from "./engine.js";

const HELD_TYPE = "rollbook/after-engine";
// (a test may set globalThis.rollbookEngineLimits = {material: ms} before the page's scripts run)
const AT_MOST_MS = globalThis.rollbookEngineLimits?.material ?? 3000;
const INTENT = ["pointerdown", "keydown", "focusin"];

const held = globalThis.document?.querySelector(`script[type="${HELD_TYPE}"]`) ?? null;
let state = held ? "held" : "ran"; // "held", "loading", "ran" (or "failed": offline, not cached)
const waiting = [];

/** Call `callback` once Material's bundle has run (at once on a page that did not hold it). */
export function onMaterial(callback) {
  if (state === "ran") callback();
  else waiting.push(callback);
}

function reach(event) {
  if (!event.target?.closest?.(".rollbook-widget")) run();
}

function run() {
  if (state !== "held") return;
  state = "loading";
  for (const type of INTENT) removeEventListener(type, reach, { capture: true });
  const script = document.createElement("script");
  script.src = held.src;
  // Material's start in a task of its own, after the one that evaluated the bundle: on a phone
  // each is a long task (tools/encounter/ at 4x page CPU: about 200 and 100 ms), and a tap that
  // comes between them is answered sooner than after both.
  script.addEventListener("load", () => setTimeout(() => {
    state = "ran";
    document.dispatchEvent(new Event("DOMContentLoaded"));
    for (const callback of waiting.splice(0)) callback();
  }));
  // Offline, with the bundle in no cache: the page goes on without Material's extras, as it did.
  script.addEventListener("error", () => { state = "failed"; });
  held.replaceWith(script);
}

if (held) {
  // after the frame that shows the answer: a task queued from requestAnimationFrame runs after its paint
  afterEngineStart(() => requestAnimationFrame(() => setTimeout(run)));
  const atMost = () => setTimeout(run, AT_MOST_MS);
  if (document.readyState === "complete") atMost();
  else addEventListener("load", atMost, { once: true });
  for (const type of INTENT) addEventListener(type, reach, { capture: true, passive: true });
}
