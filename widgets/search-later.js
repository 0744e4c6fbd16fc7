// Material's search worker, with its index built when it is first needed instead of as the page
// starts. The build (hooks/search_later.py) puts this file beside Material's worker as
// rollbook-search.js, names that worker in its first line (MATERIAL_SEARCH_WORKER), and points
// the pages' search at it.
//
// Why: Material sends the whole search index to its worker as soon as its bundle runs, and the
// worker builds it at once (Lunr: 98 ms of CPU here with the browser on one core, several times
// that on a phone), just while the dice engine starts: a returning player's first roll on
// tools/roller/ came 1.34x after the engine alone, 1.31x with this file (benchmarks/README.md,
// the row "Search index built on the first search typed").
//
// So the index is built on the first search typed, or HOLD_MS after the page gave it, whichever
// comes first: a reader who searches later finds it built. Material's page side sends queries
// only once its worker says it is ready, so this file says so at once, answers an empty query
// (the one Material sends as it opens) as Material's worker would, and holds the rest until the
// index is built. Material's worker is loaded unchanged, and only then: parsing it (Lunr and
// all) is part of the cost.
"use strict";
/* global MATERIAL_SEARCH_WORKER */

const HOLD_MS = 5000;
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3; // Material's SearchMessageType

let state = "waiting"; // "waiting" for a reason to build, "building", "built"
let held = null; // Material's setup message, until the index is built
let asked = null; // the latest query while building: the reader sees only the latest
let timer = null;
const handedOn = new WeakSet(); // the events this file hands to Material's listener
const post = self.postMessage.bind(self);

function handOn(message) {
  const event = new MessageEvent("message", { data: message });
  handedOn.add(event);
  self.dispatchEvent(event);
}

function build() {
  if (state !== "waiting") return;
  clearTimeout(timer);
  state = "building";
  importScripts(MATERIAL_SEARCH_WORKER); // its listener comes after this file's
  handOn(held);
  held = null;
}

// Material's worker answers each message by postMessage(): its "ready" after the build is this
// file's to take (the page had one already), and then the query that was waiting goes on.
self.postMessage = (message, ...rest) => {
  if (state === "building" && message?.type === READY) {
    state = "built";
    if (asked !== null) handOn(asked);
    asked = null;
    return;
  }
  post(message, ...rest);
};

addEventListener("message", (event) => {
  if (handedOn.has(event) || state === "built") return; // Material's listener takes it
  const message = event.data;
  if (message?.type === SETUP && held === null && state === "waiting") {
    event.stopImmediatePropagation();
    held = message;
    post({ type: READY });
    timer = setTimeout(build, HOLD_MS);
  } else if (message?.type === QUERY && (held !== null || state === "building")) {
    event.stopImmediatePropagation();
    if (typeof message.data === "string" && message.data.trim() === "") {
      asked = null; // the reader cleared the field: no older query's results after the build
      post({ type: RESULT, data: { items: [] } }); // Material's own answer to an empty query
      return;
    }
    asked = message;
    build();
  }
});
