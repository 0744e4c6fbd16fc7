// What the kept state says to a player: the place of a problem in a kept value ("log[3].total" ->
// "roll 4 of the log, total"), a value as a player reads it, and why something was not kept.
// Names of rulings come from the engine's facts (their titles); no id reaches a player.

import { CHARACTER_RULINGS, ENCOUNTER } from "../facts.js";

/** A step made from an encounter another tab has moved on since: refused in these words. */
export const CHANGED_ELSEWHERE = "the encounter changed in another tab: here it is now";
export const CHOOSE = "choose a file made by Export to a file (rollbook-YYYY-MM-DD.json)";

// Why something was not kept, in a player's words (each follows "… was not kept in this browser: ").
export const WHY = {
  blocked: "this browser does not let this site keep anything (private browsing, or the site's data is blocked)",
  full: "this browser's storage for this site is full",
  damaged: "what it kept before could not be read, and there is no room to set it aside, so it is left as it was until you choose",
};
export const EXPORT_HINT = "Export to a file keeps what is on this page";

// Made at its first use, not as every page loads: a page's first Intl.ListFormat loads the
// locale's data, 15-40 ms of its main thread at full CPU (a fresh page in the system Chromium,
// 2026-12-07), the largest line of rollbook.js's evaluation in a profile at 4x CPU.
let AND = null;
/** Names as a player reads them: "Ayla", "Ayla and Bren", "Ayla, Bren and Cora". */
export const namesInWords = (names) => (AND ??= new Intl.ListFormat("en-GB", { type: "conjunction" })).format(names);

// Each ruling option a kept value carries (a character's, an encounter's) -> its ruling's title.
const RULING_TITLES = Object.fromEntries(
  [CHARACTER_RULINGS, ...Object.values(ENCOUNTER.rulings)].flatMap((rulings) => Object.entries(rulings).map(([name, r]) => [name, r.title])));

const ruling = (name) => (Object.hasOwn(RULING_TITLES, name) ? `the ruling “${RULING_TITLES[name]}”` : `a ruling named “${name.replaceAll("_", " ")}”`);

/** A place in a kept value as a player reads it: "log[3].total" -> "roll 4 of the log, total". */
export function placeWords(path) {
  // a ruling last, by its title (which no rule below may rewrite)
  const [, place, option] = /^(.*)\.(?:options|rulings)\.(\w+)$/.exec(String(path)) ?? [null, String(path), null];
  const words = place
    .replace(/^log\[(\d+)\]/, (_, i) => `roll ${Number(i) + 1} of the log`)
    .replace(/^characters\[(\d+)\]/, (_, i) => `character ${Number(i) + 1}`)
    .replace(/^foes\[(\d+)\]/, (_, i) => `kept foe ${Number(i) + 1}`)
    .replace(/^active$/, "the active character")
    .replace(/^encounter\.current/, "the encounter")
    .replace(/^encounter\.undo\[(\d+)\]/, (_, i) => `the encounter (step ${Number(i) + 1} that Undo takes back)`)
    .replace(/^encounter/, "the encounter")
    .replace(/\.combatants\[(\d+)\]/, (_, i) => `, combatant ${Number(i) + 1}`)
    .replace(/\.effects\[(\d+)\]/, (_, i) => `, effect ${Number(i) + 1}`)
    .replace(/\.log\[(\d+)\]/, (_, i) => `, log entry ${Number(i) + 1}`)
    .replace(/\.order$/, ", turn order")
    .replace(/\[(\d+)\]/g, (_, i) => ` ${Number(i) + 1}`)
    .replace(/\.([^.]+)/g, (_, key) => `, ${key.replaceAll("_", " ")}`);
  return option === null ? words : `${words}, ${ruling(option)}`;
}

/** A value as a player reads it in a message: text quoted (and cut short), never "null". */
export function describe(value) {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.length > 30 ? value.slice(0, 30) + "…" : value);
  return typeof value === "object" ? "a group of values" : String(value);
}
