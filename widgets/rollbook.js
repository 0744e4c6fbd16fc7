// The widgets' entry point, loaded on every page (mkdocs.yml extra_javascript, type: module).
// A module runs once per document, and Material's instant navigation keeps the document: the
// custom elements are defined once and connect themselves on whichever page shows them.
//
// A page loads only the modules of the elements it shows: a rules page with dice in its text
// needs the inline roll, not the encounter tracker, and evaluating all 40 modules took the page's
// main thread 40-90 ms on a first visit (Lighthouse, 4x CPU: a long task right after Material's
// own). Each page the reader reaches by instant navigation loads what it shows in turn.

import "./elements/table-mode.js"; // in every page's header

import { firstScreenAwaits } from "./element.js";
import { onMaterial } from "./material-later.js";
import { registerAbbreviations } from "./abbreviations.js";
import { registerKeptNotice } from "./kept-notice.js";
import { registerOffline } from "./offline.js";
import { registerShortcuts } from "./shortcuts.js";

// Each element's module, by tag (a module may define several), as a literal import() so the build's
// bundler (hooks/widgets_bundle.mjs) sees them: each becomes a chunk of its own, fetched by the
// pages that show its elements.
export const ELEMENT_MODULES = {
  "rollbook-roller": () => import("./elements/roller.js"),
  "rollbook-log": () => import("./elements/log.js"),
  "rollbook-roll": () => import("./elements/inline-roll.js"),
  "rollbook-kept": () => import("./elements/kept-data.js"),
  "rollbook-offline-copy": () => import("./elements/offline-copy.js"),
  "rollbook-character": () => import("./elements/character.js"),
  "rollbook-criticals": () => import("./elements/criticals.js"),
  "rollbook-codex-check": () => import("./elements/codex-check.js"),
  "rollbook-opencore-check": () => import("./elements/opencore-check.js"),
  "rollbook-opencore-successes": () => import("./elements/opencore-check.js"),
  "rollbook-opencore-attack": () => import("./elements/opencore-attack.js"),
  "rollbook-opencore-initiative": () => import("./elements/opencore-initiative.js"),
  "rollbook-opencore-move": () => import("./elements/opencore-initiative.js"),
  "rollbook-opencore-party-initiative": () => import("./elements/opencore-initiative.js"),
  "rollbook-opencore-group-initiative": () => import("./elements/opencore-initiative.js"),
  "rollbook-cyno-strike": () => import("./elements/cyno-strike.js"),
  "rollbook-cyno-dodge": () => import("./elements/cyno-defense.js"),
  "rollbook-cyno-parry": () => import("./elements/cyno-defense.js"),
  "rollbook-cyno-initiative": () => import("./elements/cyno-turns.js"),
  "rollbook-cyno-hold-back": () => import("./elements/cyno-turns.js"),
  "rollbook-cyno-surprise": () => import("./elements/cyno-turns.js"),
  "rollbook-cyno-damage": () => import("./elements/cyno-damage.js"),
  "rollbook-encounter": () => import("./elements/encounter/tracker.js"),
};

/** Import the module of every element on the page that is not defined yet. */
function loadShown() {
  const wanted = new Set();
  for (const element of document.querySelectorAll(":not(:defined)")) {
    const module = ELEMENT_MODULES[element.localName];
    if (module) wanted.add(module);
  }
  for (const module of wanted)
    firstScreenAwaits(module().catch((error) => console.error("Rollbook: a widget's module did not load", error)));
}

loadShown();
// Material's instant navigation announces each new page on document$ (its documented hook for a
// site's own scripts); the first announcement is this page, already scanned, which costs nothing.
// Material runs when the reader first needs it (material-later.js), so document$ comes later.
onMaterial(() => globalThis.document$?.subscribe(loadShown));

registerAbbreviations();
registerKeptNotice();
registerOffline();
registerShortcuts();
