// The widgets' entry point, loaded on every page (mkdocs.yml extra_javascript, type: module).
// A module runs once per document, and Material's instant navigation keeps the document: the
// custom elements are defined once and connect themselves on whichever page shows them.

import "./elements/roller.js";
import "./elements/log.js";
import "./elements/inline-roll.js";
import "./elements/kept-data.js";
import "./elements/offline-copy.js";
import "./elements/character.js";
import "./elements/criticals.js";
import "./elements/codex-check.js";
import "./elements/opencore-check.js";
import "./elements/opencore-attack.js";
import "./elements/opencore-initiative.js";
import "./elements/cyno-strike.js";
import "./elements/cyno-defense.js";
import "./elements/cyno-turns.js";
import "./elements/cyno-damage.js";
import "./elements/encounter/tracker.js";
import "./elements/table-mode.js";

import { registerKeptNotice } from "./kept-notice.js";
import { registerOffline } from "./offline.js";
import { registerShortcuts } from "./shortcuts.js";

registerKeptNotice();
registerOffline();
registerShortcuts();
