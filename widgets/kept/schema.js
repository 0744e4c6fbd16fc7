// What a kept value may hold, checked on the way in (from storage or from an imported file): the
// roll log, characters, the active one, foe templates and the encounter. A value that is not what
// Rollbook keeps is refused with the path of its first problem ("log[3].total: …", words.js says
// the place in a player's words). The engine's facts (widgets/facts.js: abilities, rulings, an
// encounter's fields and limits) are checked from there, never typed here again; an encounter is
// checked as the engine checks it (encounter/shape.py), so nothing the page cannot draw reaches it.

import { ABILITIES as ABILITY_FACTS, CHARACTER, CHARACTER_RULINGS as CHARACTER_RULING_FACTS, ENCOUNTER, LIMITS } from "../facts.js";
import { MAX_LINK } from "../links.js"; // a roll's link to its tool page: the longest one offered
import { migrated } from "./migrate.js";
import { CHOOSE, describe } from "./words.js";

export const FORMAT = 2;
export const MAX_LOG = 200; // newest kept; a log is for the evening's rolls, not an archive
export const MAX_CHARACTERS = 100;
export const MAX_FOES = 100;
/** The OpenCore abilities' codes, in the seed's order. */
export const ABILITIES = ABILITY_FACTS.map((ability) => ability.code);
/** The rulings a character's saves and Perception are read by: each option "opencore character"
 *  and "opencore check" take -> its readings, the ruling's first, then the alternative. A character
 *  kept before it had them (or without one) reads by the ruling. */
export const CHARACTER_RULINGS = Object.fromEntries(Object.entries(CHARACTER_RULING_FACTS).map(([name, r]) => [name, r.choices]));
export const MAX_TEXT = 2000; // any one string: a roll's breakdown is the longest
export const MAX_LABEL = 200;
const MAX_EXPRESSION = LIMITS.expression_chars; // any expression the engine rolls can be kept
export const MAX_UNDO = 20; // encounter states Undo can take back
export const MAX_ENCOUNTER_CHARS = LIMITS.request_chars; // an encounter is sent whole in one request
// Far deeper than anything Rollbook keeps (an encounter's Undo state, a combatant's effect: about
// ten). Deeper, measuring a value's size ran out of stack, and the engine refuses it anyway.
const MAX_DEPTH = 64;

/** A kept value that is not what Rollbook stores; the message says where and what: `path` (the
 *  place in the file, "log[3].total", or "file" for the file as a whole) and `reason`. */
export class KeptError extends Error {
  constructor(message, { path = null, reason = message } = {}) {
    super(message);
    this.path = path;
    this.reason = reason;
  }
}

export function fail(path, message) {
  throw new KeptError(`${path}: ${message}`, { path, reason: message });
}

function object(value, path) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(path, `expected a group of values, found ${describe(value)}`);
  return value;
}

function text(value, path, { optional = false, max = MAX_TEXT } = {}) {
  if (optional && (value === undefined || value === null)) return null;
  if (typeof value !== "string") fail(path, `expected text, found ${describe(value)}`);
  if (value.length > max) fail(path, `text longer than ${max} characters`);
  return value;
}

function integer(value, path, { optional = false, min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (optional && (value === undefined || value === null)) return null;
  if (!Number.isSafeInteger(value)) fail(path, `expected a whole number, found ${describe(value)}`);
  if (value < min || value > max) fail(path, `expected a number from ${min} to ${max}, found ${value}`);
  return value;
}

function number(value, path) {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(path, `expected a number, found ${describe(value)}`);
  return value;
}

export function time(value, path) {
  text(value, path, { max: 40 });
  if (Number.isNaN(Date.parse(value))) fail(path, `expected a date and time, found ${describe(value)}`);
  return value;
}

function list(value, path, max) {
  if (!Array.isArray(value)) fail(path, `expected a list, found ${describe(value)}`);
  if (value.length > max) fail(path, `at most ${max} entries, found ${value.length}`);
  return value;
}

/** `value` under `key` in `out` as an entry of its own, "__proto__" too: `out[key] = value` would
 *  drop a text there, or make an object `out`'s prototype (its entries then look kept but are not). */
export function put(out, key, value) {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

function named(value, path) {
  // {"STR": 3}: names are letters, values whole numbers (what the dice engine takes as --var)
  const out = {};
  for (const [name, score] of Object.entries(object(value, path))) {
    if (!/^[A-Za-z]{1,12}$/.test(name)) fail(`${path}.${name}`, "a name is 1 to 12 letters");
    put(out, name, integer(score, `${path}.${name}`));
  }
  return out;
}

/** One roll of the log: what was asked (expression, values, seed: enough to roll it again
 *  exactly) and what came out (total and the engine's one-line breakdown). A roll made by a
 *  tool (a check, an attack) has no expression but a `link`: the tool's page with its inputs
 *  and seed, relative to the site's root, which shows that very result again. */
export function checkRoll(value, path = "roll") {
  object(value, path);
  return {
    id: text(value.id, `${path}.id`, { max: 64 }),
    at: time(value.at, `${path}.at`),
    label: text(value.label, `${path}.label`, { max: MAX_LABEL }),
    expression: text(value.expression, `${path}.expression`, { max: MAX_EXPRESSION }),
    vars: named(value.vars ?? {}, `${path}.vars`),
    seed: integer(value.seed, `${path}.seed`, { min: 0 }),
    total: number(value.total, `${path}.total`),
    total_text: text(value.total_text, `${path}.total_text`, { optional: true, max: 40 }), // exact, e.g. "7/2"
    text: text(value.text, `${path}.text`),
    page: text(value.page, `${path}.page`, { optional: true, max: 500 }),
    link: text(value.link, `${path}.link`, { optional: true, max: MAX_LINK }),
  };
}

/** One OpenCore character: the player's inputs only (scores, the HP roll, the rulings chosen);
 *  composites, saves and HP are asked of the engine again, so they can never go stale. */
export function checkCharacter(value, path = "character") {
  object(value, path);
  const scores = object(value.scores, `${path}.scores`);
  const checked = {};
  for (const code of ABILITIES) checked[code] = integer(scores[code], `${path}.scores.${code}`, { min: CHARACTER.score_low, max: CHARACTER.score_high });
  for (const code of Object.keys(scores)) if (!ABILITIES.includes(code)) fail(`${path}.scores.${code}`, `not an OpenCore ability (${ABILITIES.join(", ")})`);
  const locked = list(value.locked ?? [], `${path}.locked`, ABILITIES.length);
  locked.forEach((code, i) => { if (!ABILITIES.includes(code)) fail(`${path}.locked[${i}]`, `not an OpenCore ability, found ${describe(code)}`); });
  const options = object(value.options ?? {}, `${path}.options`);
  const checkedOptions = {};
  for (const [name, choice] of Object.entries(options)) {
    if (!/^[a-z_]{1,40}$/.test(name)) fail(`${path}.options.${name}`, "not a ruling option");
    put(checkedOptions, name, text(choice, `${path}.options.${name}`, { max: 40 }));
    const known = CHARACTER_RULINGS[name];
    if (Object.hasOwn(CHARACTER_RULINGS, name) && !known.includes(choice)) {
      fail(`${path}.options.${name}`, `not a reading this ruling has, found ${describe(choice)}`);
    }
  }
  const name = text(value.name, `${path}.name`, { max: 100 }).trim();
  if (!name) fail(`${path}.name`, "a character needs a name");
  return {
    id: text(value.id, `${path}.id`, { max: 64 }),
    name,
    scores: checked,
    rolled: value.rolled === undefined ? null : (value.rolled === null ? null : named(value.rolled, `${path}.rolled`)),
    hp_roll: integer(value.hp_roll, `${path}.hp_roll`, { min: CHARACTER.hp_roll_low, max: CHARACTER.hp_roll_high }),
    locked: [...new Set(locked)],
    options: checkedOptions,
    seed: integer(value.seed, `${path}.seed`, { optional: true, min: 0 }),
    created: time(value.created, `${path}.created`),
    updated: time(value.updated ?? value.created, `${path}.updated`),
  };
}

const RULE_SETS = ENCOUNTER.rule_sets;
const RULE_SETS_WORDS = RULE_SETS.map((rules) => JSON.stringify(rules)).join(" or ");

/** One foe template a GM keeps (tools/encounter/ adds it in one tap): what `encounter add` takes
 *  for it, its rule set's scores by their names. The engine checks the scores when it is added. */
export function checkFoe(value, path = "foe") {
  object(value, path);
  if (!RULE_SETS.includes(value.rules)) fail(`${path}.rules`, `expected ${RULE_SETS_WORDS}, found ${describe(value.rules)}`);
  const name = text(value.name, `${path}.name`, { max: ENCOUNTER.longest_text }).trim();
  if (!name) fail(`${path}.name`, "a foe needs a name");
  const score = {};
  for (const [key, points] of Object.entries(object(value.score, `${path}.score`))) {
    if (!/^[a-z_]{1,20}$/.test(key)) fail(`${path}.score.${key}`, "not a score's name");
    put(score, key, integer(points, `${path}.score.${key}`));
  }
  const words = { optional: true, max: ENCOUNTER.longest_text };
  return {
    id: text(value.id, `${path}.id`, { max: 64 }),
    name,
    rules: value.rules,
    side: text(value.side, `${path}.side`, { max: ENCOUNTER.longest_text }),
    weapon: text(value.weapon, `${path}.weapon`, words),
    armor_name: text(value.armor_name, `${path}.armor_name`, words),
    score,
    created: time(value.created, `${path}.created`),
  };
}

// --- the encounter, as the engine checks it (facts.js ENCOUNTER) -----------------------------

/** A field the engine's facts describe ({kind: "int" | "str" | "bool", low, high, nullable, choices}). */
function field(value, path, fact) {
  if (value === undefined) fail(path, "is missing");
  if (value === null && fact.nullable) return;
  if (fact.kind === "int") integer(value, path, { min: fact.low, max: fact.high });
  else if (fact.kind === "str") text(value, path, { max: ENCOUNTER.longest_text });
  else if (typeof value !== "boolean") fail(path, `expected yes or no, found ${describe(value)}`);
  if (fact.choices && !fact.choices.includes(value)) fail(path, `not one of ${fact.choices.join(", ")}, found ${describe(value)}`);
}

/** `value`'s fields as `facts` has them, each there; `extra` names the fields checked elsewhere;
 *  any other is refused (the engine refuses it too). */
function fields(value, path, facts, { extra = [], unknown = "not something a combatant has" } = {}) {
  for (const [name, fact] of Object.entries(facts)) field(value[name], `${path}.${name}`, fact);
  for (const name of Object.keys(value)) if (!Object.hasOwn(facts, name) && !extra.includes(name)) fail(`${path}.${name}`, unknown);
}

function checkEffect(e, path) {
  object(e, path);
  if (typeof e.kind !== "string" || !Object.hasOwn(ENCOUNTER.effects, e.kind)) fail(`${path}.kind`, `not an effect the encounter knows, found ${describe(e.kind)}`);
  const kind = ENCOUNTER.effects[e.kind];
  fields(e, path, kind.fields, { extra: ["kind", "rounds", "dealt", "ends"], unknown: "not something this effect has" });
  integer(e.rounds, `${path}.rounds`, { optional: true, min: 1 });
  integer(e.dealt, `${path}.dealt`, { min: 0 });
  if (!kind.ends.includes(e.ends)) fail(`${path}.ends`, `not a way this effect ends, found ${describe(e.ends)}`);
}

function checkCombatant(c, path, rules) {
  object(c, path);
  fields(c, path, { ...ENCOUNTER.fields.common, ...ENCOUNTER.fields[rules] }, { extra: ["effects"] });
  list(c.effects, `${path}.effects`, 100).forEach((e, i) => checkEffect(e, `${path}.effects[${i}]`));
}

/** The rulings an encounter is run by: each of its rule set's, at one of its readings; one added
 *  after encounters were first kept (ENCOUNTER.later_rulings) may be missing (the engine reads
 *  it as the ruling's reading). */
function checkRulings(value, path, rules) {
  const known = ENCOUNTER.rulings[rules];
  object(value, path);
  for (const [name, choice] of Object.entries(value)) {
    if (!Object.hasOwn(known, name)) fail(`${path}.${name}`, "not one of this rule set's rulings");
    if (!known[name].choices.includes(choice)) fail(`${path}.${name}`, `not a reading this ruling has, found ${describe(choice)}`);
  }
  for (const name of Object.keys(known)) {
    if (!Object.hasOwn(value, name) && !ENCOUNTER.later_rulings.includes(name)) fail(`${path}.${name}`, "is missing");
  }
}

/** One encounter state as the engine gives it: version, rule set, initiative and rulings, round
 *  and turn, the turn order, every combatant's fields and effects (ids once each), the log. The
 *  engine checks every field again, with its path, whenever the page asks it anything; this
 *  check keeps what the page cannot draw from ever reaching it. */
export function checkEncounterState(value, path = "encounter") {
  object(value, path);
  if (value.encounter !== ENCOUNTER.version) fail(`${path}.encounter`, `not an encounter of version ${ENCOUNTER.version}, found ${describe(value.encounter)}`);
  const rules = value.rules;
  if (!RULE_SETS.includes(rules)) fail(`${path}.rules`, `expected ${RULE_SETS_WORDS}, found ${describe(rules)}`);
  for (const name of ENCOUNTER.top_fields) if (value[name] === undefined) fail(`${path}.${name}`, "is missing");
  for (const name of Object.keys(value)) if (!ENCOUNTER.top_fields.includes(name)) fail(`${path}.${name}`, "not part of an encounter");
  if (!ENCOUNTER.initiative[rules].includes(value.initiative)) {
    fail(`${path}.initiative`, `not a way this rule set rolls initiative, found ${describe(value.initiative)}`);
  }
  checkRulings(value.rulings, `${path}.rulings`, rules);
  integer(value.round, `${path}.round`, { min: 0 });
  const ids = new Set();
  list(value.combatants, `${path}.combatants`, ENCOUNTER.most_combatants).forEach((c, i) => {
    checkCombatant(c, `${path}.combatants[${i}]`, rules);
    if (ids.has(c.id)) fail(`${path}.combatants[${i}].id`, `${describe(c.id)} is used twice`);
    ids.add(c.id);
  });
  const order = list(value.order, `${path}.order`, ENCOUNTER.most_combatants);
  order.forEach((id, i) => { if (!ids.has(id) || order.indexOf(id) !== i) fail(`${path}.order`, "the turn order must name each combatant at most once"); });
  if (integer(value.turn, `${path}.turn`, { optional: true, min: 0 }) !== null && value.turn >= order.length) {
    fail(`${path}.turn`, "points past the end of the turn order");
  }
  list(value.log, `${path}.log`, ENCOUNTER.log_kept).forEach((entry, i) => text(object(entry, `${path}.log[${i}]`).text, `${path}.log[${i}].text`));
  integer(value.logged, `${path}.logged`, { min: 0 });
  const size = JSON.stringify(value).length;
  if (size > MAX_ENCOUNTER_CHARS) fail(path, `${size} characters, more than the engine takes (${MAX_ENCOUNTER_CHARS})`);
  return value;
}

/** The encounter being run: its state now, the states before it (newest last, for Undo), each
 *  combatant's armor and Toughness when added (the bars' full length), and the next seed when
 *  the encounter is seeded (?seed=N: every step's dice follow from it), else null. */
export function checkEncounter(value, path = "encounter") {
  if (value === undefined || value === null) return null;
  object(value, path);
  const current = checkEncounterState(value.current, `${path}.current`);
  const undo = list(value.undo ?? [], `${path}.undo`, MAX_UNDO).map((state, i) => checkEncounterState(state, `${path}.undo[${i}]`));
  const full = {};
  for (const [id, values] of Object.entries(object(value.full ?? {}, `${path}.full`))) {
    if (id.length > ENCOUNTER.longest_text) fail(`${path}.full`, `an id longer than ${ENCOUNTER.longest_text} characters`);
    object(values, `${path}.full.${id}`);
    put(full, id, {
      armor: integer(values.armor, `${path}.full.${id}.armor`, { min: 0 }),
      toughness: integer(values.toughness, `${path}.full.${id}.toughness`, { min: 0 }),
    });
  }
  return {
    current,
    undo,
    full,
    seed: integer(value.seed, `${path}.seed`, { optional: true, min: 0 }),
    updated: time(value.updated, `${path}.updated`),
  };
}

/** `entries`, refused when two share one id: the same character twice would be active twice,
 *  and deleting one would delete both. */
function once(entries, path, what) {
  const seen = new Map();
  entries.forEach((entry, i) => {
    if (seen.has(entry.id)) fail(`${path}[${i}]`, `the same ${what} as ${what} ${seen.get(entry.id) + 1} a second time`);
    seen.set(entry.id, i);
  });
  return entries;
}

/** The part of `value` (its key) holding something nested more than MAX_DEPTH deep, or null.
 *  A loop, not a recursion: a file nested a million deep is measured without running out of stack. */
function tooDeep(value) {
  const stack = Object.entries(value).map(([key, inner]) => [inner, 1, key]);
  while (stack.length) {
    const [at, depth, part] = stack.pop();
    if (at === null || typeof at !== "object") continue;
    if (depth >= MAX_DEPTH) return part;
    for (const inner of Object.values(at)) stack.push([inner, depth + 1, part]);
  }
  return null;
}

/** The whole kept value, checked (an older format brought forward first); KeptError names the
 *  first problem. */
export function checkKept(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("file", `this file is not a Rollbook export (its first line does not say so): ${CHOOSE}`);
  }
  const deep = tooDeep(value);
  if (deep !== null) fail(deep, `values inside values more than ${MAX_DEPTH} levels deep, deeper than anything Rollbook keeps`);
  value = migrated(value);
  if (value.rollbook !== FORMAT) {
    if (Number.isSafeInteger(value.rollbook) && value.rollbook > FORMAT) {
      fail("file", "this file was saved by a newer Rollbook: reload the site to update it, then import the file again");
    }
    fail("file", `this file is not a Rollbook export (its first line does not say so): ${CHOOSE}`);
  }
  const log = once(list(value.log ?? [], "log", MAX_LOG).map((entry, i) => checkRoll(entry, `log[${i}]`)), "log", "roll");
  const characters = once(list(value.characters ?? [], "characters", MAX_CHARACTERS).map((c, i) => checkCharacter(c, `characters[${i}]`)), "characters", "character");
  const active = text(value.active, "active", { optional: true, max: 64 });
  if (active !== null && !characters.some((c) => c.id === active)) fail("active", `no character has the id ${describe(active)}`);
  const foes = once(list(value.foes ?? [], "foes", MAX_FOES).map((f, i) => checkFoe(f, `foes[${i}]`)), "foes", "kept foe");
  const encounter = checkEncounter(value.encounter, "encounter");
  return { log, characters, active, foes, encounter };
}
