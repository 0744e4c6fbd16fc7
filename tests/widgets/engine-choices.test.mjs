// Lists, defaults, ruling ids and table names the engine has, no longer typed again in a widget
// (issue 40, item 1: one source of truth): each widget takes them from widgets/facts.js and keeps
// only its words. Read as text: the element modules import lit-html from the bundle's vendor
// path, not Node's. Each test failed on the widget as it was before its fix.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

import { choiceOptions } from "../../widgets/choices.js";
import { COMMANDS, CRITICAL_TYPES, ENCOUNTER } from "../../widgets/facts.js";

const widgets = new URL("../../widgets/", import.meta.url).pathname;
const read = (file) => readFileSync(join(widgets, file), "utf8");

function modules(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? (item.name === "vendor" ? [] : modules(join(folder, item.name))) : item.name.endsWith(".js") ? [join(folder, item.name)] : []);
}

/** Every ruling id a command's parameter switches (COMMANDS: a parameter's `ruling`). */
const RULING_IDS = new Set(Object.values(COMMANDS).flatMap((params) => Object.values(params).map((p) => p.ruling).filter(Boolean)));

/** The keys of `const NAME = { key: "words", … };` in `source`: the values a widget has words for. */
function wordsIn(source, name) {
  const body = source.match(new RegExp(`const ${name} = \\{([\\s\\S]*?)\\};`))?.[1];
  assert.ok(body, `no ${name} in the source: is it still the widget's shape?`);
  return [...body.matchAll(/(?:^|[{,])\s*(?:"([^"]+)"|([A-Za-z_][\w-]*)):\s*"/g)].map((m) => m[1] ?? m[2]);
}

/** Each of the engine's `choices` has words, and the words name no value the engine lacks. */
function wordsEvery(source, name, choices, { besides = [] } = {}) {
  const keys = wordsIn(source, name);
  assert.deepEqual([...keys].sort(), [...choices, ...besides].sort(), `${name}: words for exactly the engine's choices`);
}

test("a choice is offered in the engine's values and order, in the widget's words", () => {
  assert.deepEqual(choiceOptions(["b", "a", "new"], { a: "Aye", b: "Bee" }),
    [{ value: "b", label: "Bee" }, { value: "a", label: "Aye" }, { value: "new", label: "new" }]);
});

test("the critical lookup starts at the engine's first critical type and asks for each type's own table", () => {
  const source = read("elements/criticals.js");
  assert.doesNotMatch(source, /"slash"|"impact"/, "a critical type typed in criticals.js");
  assert.doesNotMatch(source, /opencore\.critical\./, "a critical table's name typed in criticals.js");
  for (const critical of CRITICAL_TYPES) assert.equal(critical.table, `opencore.critical.${critical.type}`);
});

test("the Codex check takes its rulings' ids and its choices from the engine", () => {
  const source = read("elements/codex-check.js");
  assert.doesNotMatch(source, /value: "(10\+?|20|asked|trusted)"/, "a choice of codex check typed in codex-check.js");
  const check = COMMANDS["codex check"];
  assert.equal(check.impossible_fails.ruling, "codex-automatic-failure");
  assert.equal(check.take_conditions.ruling, "codex-take-conditions");
  wordsEvery(source, "TAKE_WORDS", check.take.choices); // a take the engine gains or loses has words, or fails here
  // which takes ask for the safe tick and the failure's cost is the engine's (issue 40): only the
  // words for each take are typed
  const beyondWords = source.replace(/const TAKE_WORDS = \{[\s\S]*?\};/, "");
  assert.doesNotMatch(beyondWords, /"(10\+?|20)"/, "a take typed in codex-check.js outside its words");
  for (const param of ["safe", "failure_has_cost"]) {
    assert.ok(check[param].only_with.take.length, `${param}: the takes it is asked with`);
    for (const take of check[param].only_with.take) assert.ok(check.take.choices.includes(take), `${param}: ${take}`);
  }
});

test("no widget types the id of a ruling a command's parameter switches", () => {
  assert.ok(RULING_IDS.size >= 10 && RULING_IDS.has("codex-take-conditions"), [...RULING_IDS].join(", "));
  const typed = modules(widgets).filter((file) => !file.endsWith("/facts.js")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/"([a-z]+-[a-z-]+)"/g)].filter((m) => RULING_IDS.has(m[1])).map((m) => `${relative(widgets, file)}: ${m[1]}`));
  assert.deepEqual(typed, []);
});

test("a location effect added by hand offers the engine's location states, the least first", () => {
  const source = read("elements/encounter/combatant.js");
  assert.deepEqual(ENCOUNTER.locations, ["damaged", "severely damaged", "broken", "severed", "destroyed"]);
  for (const state of ENCOUNTER.locations) assert.doesNotMatch(source, new RegExp(`"${state}"`), `${state} typed in combatant.js`);
  assert.doesNotMatch(source, /kind: "stun"/, "the first effect kind typed in combatant.js");
  // what each kind carries is the engine's effect fields, not a map of kinds typed in the page
  for (const kind of COMMANDS["encounter effect"].kind.choices) {
    assert.doesNotMatch(source, new RegExp(`(^|[{,\\s])"?${kind}"?: \\{`, "m"), `the effect ${kind}'s fields typed in combatant.js`);
  }
});

// Each widget's words for a command's choices: [file, words, the engine's choices, what the old
// file typed instead of taking them from the facts].
const WORDED = [
  ["elements/power-words.js", "POWER_WORDS", COMMANDS["opencore attack"].power.choices, /value: "(touch|physical|mental)"/],
  ["elements/power-words.js", "POWER_WORDS", COMMANDS["encounter attack"].power.choices, /value: "(touch|physical|mental)"/],
  ["elements/opencore-check.js", "KIND_WORDS", COMMANDS["opencore check"].kind.choices, /value: "(reflex|perception)"/],
  ["elements/cyno-defense.js", "IMPOSSIBLE_DODGE_WORDS", COMMANDS["cyno dodge"].impossible_dodge.choices, /value: "(costs-action|free)"|initial: "costs-action"/],
  ["elements/cyno-defense.js", "FAILED_PARRY_WORDS", COMMANDS["cyno parry"].failed_skilled_parry.choices, /value: "(free|action)"|initial: "free"/],
  ["elements/cyno-defense.js", "RANGED_PARRY_WORDS", COMMANDS["cyno parry"].ranged_parry.choices, /value: "(blow-only|allowed)"|initial: "blow-only"/],
  ["elements/encounter/actions.js", "DEFENSE_WORDS", COMMANDS["encounter strike"].defense.choices, /\["none", "No defense"\]|\?\? "none"/],
];

test("each helper words exactly the choices the engine's command takes, and types none of them as a value", () => {
  for (const [file, words, choices, typed] of WORDED) {
    const source = read(file);
    assert.doesNotMatch(source, typed, `${file}: a choice of the engine typed as a value`);
    wordsEvery(source, words, choices);
  }
});

test("the character sheet orders the saves as the engine's check takes them; a strike's defense starts at the engine's default", () => {
  assert.doesNotMatch(read("elements/character-sheet.js"), /"physical-toughness"/, "the saves typed in character-sheet.js");
  assert.deepEqual(COMMANDS["opencore check"].kind.choices.slice(0, 5), ["physical-toughness", "reflex", "willpower", "awareness", "concentration"]);
  assert.doesNotMatch(read("elements/encounter/combatant.js"), /defense: "none"/, "the strike's default defense typed in combatant.js");
  assert.equal(COMMANDS["encounter strike"].defense.default, "none");
});

test("a combatant is drawn as down and offered as a target by the engine's status, not by its states typed here", () => {
  // the engine's status says `out` (drawn as down) and `targetable` (an attack on it is not refused):
  // the cards typed which of the states ("dead", "unconscious", "down") meant each
  for (const file of ["elements/encounter/combatant.js", "elements/encounter/actions.js"]) {
    const source = read(file);
    assert.doesNotMatch(source, /"(dead|unconscious|conscious|down|standing)"/, `a combatant's state typed in ${file}`);
  }
  assert.match(read("elements/encounter/combatant.js"), /status\?\.out\b/);
  assert.match(read("elements/encounter/actions.js"), /\.targetable\b/);
});

test("the encounter card's Attack options send arguments the engine's attack takes, named as it names them", () => {
  const source = read("elements/encounter/actions.js");
  const bodies = ["ATTACK_OPTIONS", "ATTACK_FIELDS"].map((list) => source.match(new RegExp(`const ${list} = \\[([\\s\\S]*?)\\];`))?.[1]);
  assert.ok(bodies.every(Boolean), "no ATTACK_OPTIONS or ATTACK_FIELDS in actions.js: is it still the card's shape?");
  const names = bodies.flatMap((body) => [...body.matchAll(/\["([a-z_]+)", "/g)].map((m) => m[1]));
  assert.ok(names.length >= 18, names);
  for (const name of [...names, "critical_type", "weapon"]) {
    assert.ok(COMMANDS["encounter attack"][name], `encounter attack takes no ${name}`);
  }
  // and a Cyno card's dice rolled at the table, under Strike options
  const strike = source.match(/const STRIKE_ROLLS = \[([\s\S]*?)\];/)?.[1];
  assert.ok(strike, "no STRIKE_ROLLS in actions.js");
  const rolls = [...strike.matchAll(/\["([a-z_]+)", "/g)].map((m) => m[1]);
  assert.equal(rolls.length, 5, rolls);
  for (const name of rolls) assert.ok(COMMANDS["encounter strike"][name], `encounter strike takes no ${name}`);
});
