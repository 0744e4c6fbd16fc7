// The widgets' entry point, loaded on every page (mkdocs.yml extra_javascript, type: module).
// A module runs once per document, and Material's instant navigation keeps the document: the
// custom elements are defined once and connect themselves on whichever page shows them.

import "./elements/roller.js";
import "./elements/log.js";
import "./elements/inline-roll.js";
import "./elements/kept-data.js";
import "./elements/character.js";
