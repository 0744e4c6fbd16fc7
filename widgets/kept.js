// What a player keeps in this browser: the roll log, characters, the active character, the foe
// templates a GM saves and the encounter being run (tools/encounter/: its current state and the
// states Undo takes back).
// Plain data, validated on the way in (from storage or from an imported file), saved as one JSON
// value under one key so a save is all or nothing. No DOM here: Node's test runner checks it.
//
// The file a player exports is the same JSON: {"rollbook": 2, "log": [...], "characters": [...],
// "active": id | null, "foes": [...], "encounter": {...} | null} (a file without "encounter" has
// none). A value of an older format (a file, or what an older version stored) is brought forward
// first, one format at a time (MIGRATIONS), so nothing kept before is refused. A bad file or a damaged stored value is refused with the path of the
// first problem ("log[3].total: …"); nothing already kept is replaced by it.

export const FORMAT = 2;
export const STORAGE_KEY = "rollbook.kept.v1";
export const MAX_LOG = 200; // newest kept; a log is for the evening's rolls, not an archive
export const MAX_CHARACTERS = 100;
export const MAX_FOES = 100;
export const ABILITIES = ["STR", "DEX", "AGL", "CON", "INT", "PER", "WIS", "CHA", "COM"];
// The rulings a character's saves and Perception are read by: each option "opencore character" and
// "opencore check" take, its ruling's reading first, then the alternative. A character kept before
// it had them (or without one) reads by the ruling.
export const CHARACTER_RULINGS = {
  save_direction: ["under", "over"], // opencore-save-direction
  willpower_composite: ["SDAC", "IPW"], // opencore-willpower-composite
  perception: ["above", "at-or-below"], // opencore-perception-direction
};
export const MAX_TEXT = 2000; // any one string: a roll's breakdown is the longest
export const MAX_LABEL = 200;
const MAX_EXPRESSION = 1000; // the engine's own limit (rollbook.dice.limits.MAX_CHARS): any expression it rolls can be kept
const MAX_FILE_CHARS = 2_000_000;
export const MAX_UNDO = 20; // encounter states Undo can take back
export const MAX_ENCOUNTER_CHARS = 64_000; // the engine's request limit (rollbook.api.MAX_REQUEST_CHARS)
/** A step made from an encounter another tab has moved on since: refused in these words. */
export const CHANGED_ELSEWHERE = "the encounter changed in another tab: here it is now";
const MAX_COMBATANTS = 40; // the engine's own limit (encounter/shape.py)
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

const RULING_WORDS = { save_direction: "saving throws", willpower_composite: "Willpower", perception: "Perception" };

/** A place in a kept value as a player reads it: "log[3].total" -> "roll 4 of the log, total". */
export function placeWords(path) {
  return String(path)
    .replace(/^log\[(\d+)\]/, (_, i) => `roll ${Number(i) + 1} of the log`)
    .replace(/^characters\[(\d+)\]/, (_, i) => `character ${Number(i) + 1}`)
    .replace(/^foes\[(\d+)\]/, (_, i) => `kept foe ${Number(i) + 1}`)
    .replace(/^active$/, "the active character")
    .replace(/^encounter\.current/, "the encounter")
    .replace(/^encounter\.undo\[(\d+)\]/, (_, i) => `the encounter (step ${Number(i) + 1} that Undo takes back)`)
    .replace(/^encounter/, "the encounter")
    .replace(/\.combatants\[(\d+)\]/, (_, i) => `, combatant ${Number(i) + 1}`)
    .replace(/\.effects\[(\d+)\]/, (_, i) => `, effect ${Number(i) + 1}`)
    .replace(/\.options\.(\w+)$/, (_, name) => `, the ruling on ${RULING_WORDS[name] ?? name.replaceAll("_", " ")}`)
    .replace(/\[(\d+)\]/g, (_, i) => ` ${Number(i) + 1}`)
    .replace(/\.([^.]+)/g, (_, key) => `, ${key.replaceAll("_", " ")}`);
}

const empty = () => ({ log: [], characters: [], active: null, foes: [], encounter: null });

/** From each older format to the next: format 2 added the foe templates (none before). The
 *  formats written so far, each read in tests/widgets/kept.test.mjs: 1 as first written (a log,
 *  characters, the active one), 1 with the encounter (added without a new number: a value without
 *  one has none), 2. A field added later within a format has a default here (a roll's total_text
 *  and link) or in the engine (an encounter's later rulings, encounter/shape.py LATER_RULINGS). */
const MIGRATIONS = {
  1: (value) => ({ ...value, rollbook: 2, foes: [] }),
};

// --- validation ---------------------------------------------------------------------------

function fail(path, message) {
  throw new KeptError(`${path}: ${message}`, { path, reason: message });
}

function describe(value) {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.length > 30 ? value.slice(0, 30) + "…" : value);
  return typeof value === "object" ? "a group of values" : String(value);
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

function time(value, path) {
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
    link: text(value.link, `${path}.link`, { optional: true, max: 1000 }),
  };
}

/** One OpenCore character: the player's inputs only (scores, the HP roll, the rulings chosen);
 *  composites, saves and HP are asked of the engine again, so they can never go stale. */
export function checkCharacter(value, path = "character") {
  object(value, path);
  const scores = object(value.scores, `${path}.scores`);
  const checked = {};
  for (const code of ABILITIES) checked[code] = integer(scores[code], `${path}.scores.${code}`, { min: 0, max: 100 });
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
    hp_roll: integer(value.hp_roll, `${path}.hp_roll`, { min: 1, max: 100 }),
    locked: [...new Set(locked)],
    options: checkedOptions,
    seed: integer(value.seed, `${path}.seed`, { optional: true, min: 0 }),
    created: time(value.created, `${path}.created`),
    updated: time(value.updated ?? value.created, `${path}.updated`),
  };
}

/** One foe template a GM keeps (tools/encounter/ adds it in one tap): what `encounter add` takes
 *  for it, its rule set's scores by their names. The engine checks the scores when it is added. */
export function checkFoe(value, path = "foe") {
  object(value, path);
  if (value.rules !== "opencore" && value.rules !== "cyno") fail(`${path}.rules`, `expected "opencore" or "cyno", found ${describe(value.rules)}`);
  const name = text(value.name, `${path}.name`, { max: 80 }).trim();
  if (!name) fail(`${path}.name`, "a foe needs a name");
  const score = {};
  for (const [key, points] of Object.entries(object(value.score, `${path}.score`))) {
    if (!/^[a-z_]{1,20}$/.test(key)) fail(`${path}.score.${key}`, "not a score's name");
    put(score, key, integer(points, `${path}.score.${key}`));
  }
  return {
    id: text(value.id, `${path}.id`, { max: 64 }),
    name,
    rules: value.rules,
    side: text(value.side, `${path}.side`, { max: 80 }),
    weapon: text(value.weapon, `${path}.weapon`, { optional: true, max: 80 }),
    armor_name: text(value.armor_name, `${path}.armor_name`, { optional: true, max: 80 }),
    score,
    created: time(value.created, `${path}.created`),
  };
}

// A combatant's fields that the tracker draws, by rule set (the engine's encounter/shape.py has
// each one's range and checks them all again): "int" a whole number, "text", "yes/no"; a "?"
// may be empty. A file with "hp": "lots" is refused here, before it replaces anything.
const COMBATANT_FIELDS = {
  common: { id: "text", name: "text", side: "text", initiative: "int?" },
  opencore: { con: "int", dex: "int", str: "int?", hp: "int", hp_max: "int", armor: "int", armor_name: "text?", toughness: "int",
              fortitude: "int", attack_skill: "int", defense_skill: "int", weapon: "text?", stabilized: "yes/no", acted: "yes/no" },
  cyno: { reflex: "int", coordination: "int", stress: "int", actions: "int", actions_left: "int", weaponry_skill: "int?",
          hand_to_hand_skill: "int?", weapon_damage: "text", weapon_level: "text", static: "yes/no", level: "text", dp: "int", dp_max: "int" },
};

function field(value, path, kind) {
  const optional = kind.endsWith("?");
  if (optional && value === null) return;
  if (value === undefined) fail(path, "is missing");
  const base = kind.replace("?", "");
  if (base === "int") integer(value, path);
  else if (base === "text") text(value, path, { max: 80 }); // the engine's longest (encounter/shape.py LONGEST_TEXT)
  else if (typeof value !== "boolean") fail(path, `expected yes or no, found ${describe(value)}`);
}

function checkCombatant(c, path, rules) {
  object(c, path);
  for (const [name, kind] of Object.entries({ ...COMBATANT_FIELDS.common, ...COMBATANT_FIELDS[rules] })) field(c[name], `${path}.${name}`, kind);
  list(c.effects, `${path}.effects`, 100).forEach((e, i) => text(object(e, `${path}.effects[${i}]`).kind, `${path}.effects[${i}].kind`, { max: 40 }));
}

/** One encounter state as the engine gives it: version, rule set, round and turn, the turn
 *  order, and every combatant's fields the tracker draws (COMBATANT_FIELDS), ids once each. The
 *  engine checks every field again, with its path, whenever the page asks it anything. */
export function checkEncounterState(value, path = "encounter") {
  object(value, path);
  if (value.encounter !== 1) fail(`${path}.encounter`, `not an encounter of version 1, found ${describe(value.encounter)}`);
  if (value.rules !== "opencore" && value.rules !== "cyno") fail(`${path}.rules`, `expected "opencore" or "cyno", found ${describe(value.rules)}`);
  integer(value.round, `${path}.round`, { min: 0 });
  const ids = new Set();
  list(value.combatants, `${path}.combatants`, MAX_COMBATANTS).forEach((c, i) => {
    checkCombatant(c, `${path}.combatants[${i}]`, value.rules);
    if (ids.has(c.id)) fail(`${path}.combatants[${i}].id`, `${describe(c.id)} is used twice`);
    ids.add(c.id);
  });
  const order = list(value.order ?? [], `${path}.order`, MAX_COMBATANTS);
  order.forEach((id, i) => { if (!ids.has(id) || order.indexOf(id) !== i) fail(`${path}.order`, "the turn order must name each combatant at most once"); });
  integer(value.turn, `${path}.turn`, { optional: true, min: 0, max: Math.max(order.length - 1, 0) });
  list(value.log, `${path}.log`, 1000);
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
    if (id.length > 80) fail(`${path}.full`, "an id longer than 80 characters");
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

/** The whole kept value, checked; KeptError names the first problem. */
export function checkKept(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("file", `this file is not a Rollbook export (its first line does not say so): ${CHOOSE}`);
  }
  const deep = tooDeep(value);
  if (deep !== null) fail(deep, `values inside values more than ${MAX_DEPTH} levels deep, deeper than anything Rollbook keeps`);
  while (Number.isSafeInteger(value.rollbook) && MIGRATIONS[value.rollbook]) value = MIGRATIONS[value.rollbook](value);
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

/** The file a player downloads: everything kept, as formatted JSON. */
export function exportKept(kept, now = new Date()) {
  return JSON.stringify({ rollbook: FORMAT, exported: now.toISOString(), ...kept }, null, 2) + "\n";
}

const CHOOSE = "choose a file made by Export to a file (rollbook-YYYY-MM-DD.json)";

/** Read an exported file's text; KeptError says plainly why a file is refused. */
export function parseKeptFile(fileText) {
  if (typeof fileText !== "string" || fileText.length > MAX_FILE_CHARS) {
    fail("file", `this file is not a Rollbook export (it is larger than ${MAX_FILE_CHARS / 1e6} MB): ${CHOOSE}`);
  }
  let value;
  try {
    value = JSON.parse(fileText);
  } catch {
    fail("file", `this file is not a Rollbook export (it could not be read as one): ${CHOOSE}`);
  }
  return checkKept(value);
}

/** Add an imported file to what is kept: entries already kept (same id) stay as they are. The
 *  log keeps the newest MAX_LOG rolls by time, the file's and the kept ones alike; characters and
 *  foes beyond their limits are left out. `left` counts what was left out, so the page says it.
 *  An imported encounter (unless it is the one kept) takes the kept one's place, and the kept one
 *  goes onto its Undo states: Undo on the encounter page brings it back. */
export function mergeKept(kept, imported) {
  const haveRolls = new Set(kept.log.map((r) => r.id));
  const comingRolls = imported.log.filter((r) => !haveRolls.has(r.id));
  const log = [...kept.log, ...comingRolls].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).slice(-MAX_LOG);
  const inLog = new Set(log.map((r) => r.id));
  const newRolls = comingRolls.filter((r) => inLog.has(r.id));
  const [characters, newCharacters, comingCharacters] = joined(kept.characters, imported.characters, MAX_CHARACTERS);
  const active = kept.active ?? (imported.active && characters.some((c) => c.id === imported.active) ? imported.active : null);
  const [foes, newFoes, comingFoes] = joined(kept.foes ?? [], imported.foes ?? [], MAX_FOES);
  const have = kept.encounter ?? null;
  const coming = imported.encounter ?? null;
  const same = have && coming && JSON.stringify(have.current) === JSON.stringify(coming.current);
  let encounter = have;
  if (coming && !same) {
    encounter = have
      ? { ...coming, undo: [...coming.undo, have.current].slice(-MAX_UNDO), full: { ...have.full, ...coming.full } }
      : coming;
  }
  return {
    kept: { log, characters, active, foes, encounter },
    added: { rolls: newRolls.length, characters: newCharacters.length, foes: newFoes.length, encounter: coming && !same ? 1 : 0 },
    skipped: { rolls: imported.log.length - comingRolls.length, characters: imported.characters.length - comingCharacters,
               foes: (imported.foes ?? []).length - comingFoes, encounter: same ? 1 : 0 },
    left: { rolls: comingRolls.length - newRolls.length, keptRolls: kept.log.filter((r) => !inLog.has(r.id)).length,
            characters: comingCharacters - newCharacters.length, foes: comingFoes - newFoes.length },
  };
}

/** The kept entries, then the imported ones not kept yet up to `most`: [all, the ones added, how many were new]. */
function joined(have, coming, most) {
  const ids = new Set(have.map((e) => e.id));
  const fresh = coming.filter((e) => !ids.has(e.id));
  const added = fresh.slice(0, Math.max(0, most - have.length));
  return [[...have, ...added], added, fresh.length];
}

// --- the store ----------------------------------------------------------------------------

// Why something was not kept, in a player's words (each follows "… was not kept in this browser: ").
const WHY = {
  blocked: "this browser does not let this site keep anything (private browsing, or the site's data is blocked)",
  full: "this browser's storage for this site is full",
  damaged: "what it kept before could not be read, and there is no room to set it aside, so it is left as it was until you choose",
};
const EXPORT_HINT = "Export to a file keeps what is on this page";

// Two tabs writing at the same instant. In Chromium each tab's process reads localStorage from
// its own copy, brought up to date by messages from the browser: two tabs keeping a character in
// the same millisecond each read the list without the other's and wrote it back, and one was
// lost (both said kept; 9 trials of 12). So every change is written at once, as before, and
// then, where the browser has Web Locks, settled: under one lock for every tab of the site
// (SETTLE_LOCK), the holder takes what the last holder settled (kept whole in IndexedDB, which
// every process reads as one copy, transaction after transaction; `mark`), applies this tab's
// changes to it again, and writes the result to both. A change another tab's write of the same
// instant undid is so made again, and the last value written holds every change. Every change is
// a step that can be applied again (by id: a roll, a character, a delete), so one made twice is
// made once. `settled()` resolves once this tab's changes are settled: a change is said kept then.
export const SETTLE_LOCK = "rollbook-kept";
const SETTLED_FOR_MS = 5000; // a write reaches the other tabs in milliseconds (step-lock.js CATCH_UP_MS)

/** The kept state over a Web Storage (localStorage in the page, a stand-in in tests).
 *  Every change is a step applied to what is stored now (another tab may have changed it since)
 *  and saved (at once, or under the lock: see above); watchers hear every change. When storage fails the change stays for this
 *  visit and the store says so: `saved` (whether storage holds what is shown), `trouble`
 *  ("blocked", "full", "damaged" or null), `why` and `problem` (the player's words). A damaged
 *  stored value is set aside under a backup key before anything is written over it, and never
 *  written over while it cannot be: its text stays in memory (`damaged`) until the player chooses. */
export class KeptStore {
  /** `locks`: navigator.locks (null: no settling); `mark`: where the last settled value is kept
   *  for the next holder ({read, write} of {written, text}: step-lock.js indexedDbMark; null: none). */
  constructor(storage, key = STORAGE_KEY, { locks = null, mark = null, clock = () => Date.now() } = {}) {
    this.storage = storage;
    this.key = key;
    this.locks = locks;
    this.mark = mark;
    this.clock = clock;
    this.pending = []; // this tab's changes written but not settled yet: [{step, what}]
    this.settling = null; // their settling, under the lock
    this.written = null; // the stamp of the stored value this state was read from, or last written
    this.watchers = new Set();
    this.saved = true;
    this.trouble = null;
    this.why = null;
    this.problem = null;
    this.damaged = null; // {text, where, aside}: a stored value that could not be read
    this.raw = null; // the stored text the state was read from
    this.base = empty(); // the state as stored (read or written last), without this tab's changes still to be written
    this.state = this.#load();
    if (!this.trouble) this.#probe(); // a damaged value set aside was a write that worked
  }

  /** The stored text (null: none), or undefined when storage cannot be read at all. */
  #stored() {
    try {
      return this.storage ? this.storage.getItem(this.key) : undefined;
    } catch {
      return undefined;
    }
  }

  #load() {
    const raw = this.#stored();
    if (raw === undefined) {
      this.#fault("blocked", "Nothing is kept in this browser");
      return empty();
    }
    this.#findAside();
    return this.#parse(raw) ?? empty();
  }

  /** `raw` read (and this.raw set), or null when it is damaged (then set aside, or held in memory). */
  #parse(raw) {
    if (raw === null) {
      this.raw = null;
      this.base = empty();
      return this.base;
    }
    try {
      const value = JSON.parse(raw);
      const state = checkKept(value);
      this.raw = raw;
      this.base = state; // what is stored, as read
      this.written = typeof value?.written === "string" ? value.written : null;
      return state;
    } catch (error) {
      // where, in the player's words (the backup's key is for whoever recovers it, not for them)
      const where = error instanceof KeptError && error.path ? `${placeWords(error.path)}: ${error.reason}` : "it is damaged";
      this.damaged = { text: raw, where, aside: this.#setAside(raw) };
      this.raw = raw;
      this.#sayDamaged();
      return null;
    }
  }

  /** A backup of the damaged value written earlier (this visit or another): found, not written again. */
  #backups() {
    const keys = [];
    try {
      for (let i = 0; i < (this.storage?.length ?? 0); i++) {
        const key = this.storage.key(i);
        if (key?.startsWith(`${this.key}.damaged.`)) keys.push(key);
      }
    } catch { /* no backups can be listed */ }
    return keys.sort();
  }

  #findAside() {
    const newest = this.#backups().at(-1);
    if (!newest || this.damaged) return;
    const text = this.storage.getItem(newest);
    if (text !== null) {
      this.damaged = { text, where: null, aside: true };
      this.#sayDamaged();
    }
  }

  /** Keep `raw` under a backup key (once: a page load finds it there). True when it is there. */
  #setAside(raw) {
    if (this.#backups().some((key) => this.storage.getItem(key) === raw)) return true;
    try {
      this.storage.setItem(`${this.key}.damaged.${Date.now()}`, raw);
      return true;
    } catch {
      return false; // storage full: the value stays under its key, and nothing is written over it
    }
  }

  #sayDamaged() {
    const { where, aside } = this.damaged;
    const what = `What this browser kept before could not be read${where ? ` (${where})` : ""}`;
    if (aside) {
      [this.trouble, this.why] = ["damaged", null];
      this.problem = `${what}. It was set aside in this browser, not deleted: Export the unreadable copy gives it as a file. Rollbook starts afresh.`;
    } else {
      this.#fault("damaged", `${what}, and this browser has no room to set it aside: it is left as it was, and nothing new is kept until you choose. Export the unreadable copy to keep it, then Start afresh`);
    }
  }

  #fault(trouble, said) {
    this.trouble = trouble;
    this.why = WHY[trouble];
    this.problem = `${said}: ${this.why}. ${EXPORT_HINT}.`;
    if (trouble === "damaged") this.problem = `${said}.`;
  }

  /** Whether this browser lets anything be written at all (some private modes refuse every write). */
  #probe() {
    const probe = `${this.key}.probe`;
    try {
      this.storage.setItem(probe, "1");
      this.storage.removeItem?.(probe);
    } catch (error) {
      this.#fault(quota(error) ? "full" : "blocked", quota(error) ? "Nothing new is kept in this browser" : "Nothing is kept in this browser");
    }
  }

  /** Reload after another tab changed the kept state (changes not saved here stay). */
  reload() {
    if (!this.saved) return;
    this.state = this.#fresh();
    this.#notify();
  }

  /** Resolves once every change made in this tab so far is settled (or could not be: `saved`,
   *  `problem`). At once where there is no settling. */
  async settled() {
    while (this.settling) await this.settling;
  }

  #settle() {
    this.settling ??= (async () => {
      while (this.pending.length) await this.locks.request(SETTLE_LOCK, () => this.#settleHeld());
    })().catch((error) => {
      this.#fault("blocked", `${String(error?.message ?? error)}`); // the lock itself failed: said, never thrown at a tap
      this.#notify();
    }).finally(() => { this.settling = null; });
  }

  /** Holding the lock: this tab's changes applied again to the last settled value, written to
   *  storage and to the mark for the next holder. */
  async #settleHeld() {
    const last = await this.#readMark();
    const steps = this.pending.splice(0);
    if (!steps.length || !this.saved) return; // (storage failing: said already, nothing to settle)
    const base = this.#settledBase(last);
    let next = base;
    for (const { step } of steps) {
      try { next = step(next); } catch { /* no longer applies (an encounter step another tab's step came before: refused there) */ }
    }
    // what is shown stays the same object where it is the same value (an encounter shown is not
    // taken for one changed elsewhere: encounter/tracker.js)
    for (const part of Object.keys(next)) {
      if (JSON.stringify(next[part]) === JSON.stringify(this.state[part])) next = { ...next, [part]: this.state[part] };
    }
    // written even when nothing changed: storage may hold another tab's write of the same instant
    if (!this.#write(next, steps.at(-1).what)) { this.saved = false; this.#notify(); return; }
    if (Object.keys(next).some((part) => next[part] !== this.state[part])) {
      this.state = next;
      this.#notify();
    }
    await this.#writeMark({ written: this.written, text: this.raw, at: this.clock() });
  }

  /** What the last holder settled (`last`: {written, text, at} from the mark), or what storage
   *  shows when it shows that already, or there is none, or it is older than a write takes to
   *  reach every tab (then storage changed since by other means: the site's data cleared, a
   *  value set aside, an older version's tab), or it cannot be read. */
  #settledBase(last) {
    const fresh = this.#fresh();
    if (!last || typeof last.text !== "string" || last.written === this.written) return fresh;
    if (typeof last.at !== "number" || !(this.clock() - last.at <= SETTLED_FOR_MS)) return fresh;
    try {
      return checkKept(JSON.parse(last.text));
    } catch {
      return fresh;
    }
  }

  async #readMark() {
    try { return this.mark ? await this.mark.read() : null; } catch { return null; }
  }

  async #writeMark(mark) {
    try { if (this.mark) await this.mark.write(mark); } catch { /* no mark: the lock alone */ }
  }

  get log() { return this.state.log; }
  get characters() { return this.state.characters; }
  get active() { return this.state.characters.find((c) => c.id === this.state.active) ?? null; }
  get foes() { return this.state.foes; }
  get encounter() { return this.state.encounter; }

  watch(watcher) {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  #notify() {
    for (const watcher of this.watchers) watcher(this);
  }

  /** What is stored now: another tab may have written since this one read it. */
  #fresh() {
    const raw = this.#stored();
    if (raw === undefined) return this.state;
    if (raw === this.raw) return this.base; // (not what is shown: that has the changes still to be written)
    return this.#parse(raw) ?? this.state;
  }

  /** Apply `step` (state -> state) to what is stored now, or to what is shown when storage is
   *  behind it, and save. `what` names the change for a message ("Buck", "the roll 2d6").
   *  `allOrNothing`: when it cannot be saved, nothing changes and a KeptError says why, unless
   *  storage is blocked (`unlessBlocked`): nothing could ever be kept, so the visit has it. */
  #change(step, what, { allOrNothing = false, unlessBlocked = false } = {}) {
    const base = this.saved ? this.#fresh() : this.state;
    let next;
    try {
      next = step(base);
    } catch (error) {
      if (base !== this.state) { this.state = base; this.#notify(); } // show what refused it
      throw error;
    }
    const saved = this.#write(next, what);
    if (!saved && allOrNothing && !(unlessBlocked && this.trouble === "blocked")) {
      if (base !== this.state) { this.state = base; this.#notify(); }
      throw new KeptError(`nothing was kept: ${this.why}`);
    }
    this.state = next;
    this.saved = saved;
    this.#notify();
    if (saved && this.locks) { // settled under the lock (above): made again if another tab's write undid it
      this.pending.push({ step, what });
      this.#settle();
    }
    return saved;
  }

  #write(state, what) {
    if (this.trouble === "blocked" && !this.storage) return this.#notKept(what);
    if (this.damaged && !this.damaged.aside) {
      this.damaged.aside = this.#setAside(this.damaged.text);
      if (!this.damaged.aside) return this.#notKept(what, "damaged");
      this.#sayDamaged();
    }
    const written = `${new Date(this.clock()).toISOString()}~${Math.random().toString(36).slice(2, 10)}`;
    const text = JSON.stringify({ rollbook: FORMAT, written, ...state });
    try {
      this.storage.setItem(this.key, text);
    } catch (error) {
      return this.#notKept(what, quota(error) ? "full" : "blocked");
    }
    this.raw = text;
    this.base = state;
    this.written = written;
    if (this.damaged) this.#sayDamaged();
    else [this.trouble, this.why, this.problem] = [null, null, null];
    return true;
  }

  #notKept(what, trouble = this.trouble) {
    this.#fault(trouble, `${what[0].toUpperCase()}${what.slice(1)} was not kept in this browser`);
    if (trouble === "damaged") this.problem = `${what[0].toUpperCase()}${what.slice(1)} was not kept in this browser: ${this.why}. Export the unreadable copy to keep it, then Start afresh; ${EXPORT_HINT}.`;
    return false;
  }

  /** Add one roll (checked) at the end of the log; the oldest go beyond MAX_LOG. */
  addRoll(roll) {
    const checked = checkRoll(roll);
    // (a step may be applied again when written: a roll already there stays where it is)
    this.#change((s) => (s.log.some((r) => r.id === checked.id) ? s : { ...s, log: [...s.log, checked].slice(-MAX_LOG) }), `the roll ${checked.label}`);
    return checked;
  }

  /** Empty the log; returns the function that puts it back (the reader's "Undo"). */
  clearLog() {
    const before = this.state.log;
    const cleared = new Set(before.map((r) => r.id)); // the rolls shown: one another tab adds meanwhile stays
    this.#change((s) => ({ ...s, log: s.log.filter((r) => !cleared.has(r.id)) }), "clearing the log");
    return () => this.#change((s) => {
      const have = new Set(s.log.map((r) => r.id));
      return { ...s, log: [...before.filter((r) => !have.has(r.id)), ...s.log].slice(-MAX_LOG) };
    }, "the log brought back");
  }

  /** Add or replace a character (by id); `orActive`: it becomes the active one when none is
   *  (in the same write). */
  saveCharacter(character, { orActive = false } = {}) {
    const checked = checkCharacter(character);
    this.#putIn("characters", checked, MAX_CHARACTERS, "characters", checked.name,
      (s) => (orActive && s.active === null ? { ...s, active: checked.id } : s));
    return checked;
  }

  /** `checked` into the list `name`: in place of the entry with its id, else at the end (at most
   *  `most`); `then` changes the result further. */
  #putIn(name, checked, most, what, words, then = (s) => s) {
    this.#change((s) => {
      const entries = s[name];
      const replaces = entries.some((e) => e.id === checked.id);
      if (!replaces && entries.length >= most) throw new KeptError(`at most ${most} ${what} are kept; delete one first`);
      return then({ ...s, [name]: replaces ? entries.map((e) => (e.id === checked.id ? checked : e)) : [...entries, checked] });
    }, words);
  }

  /** Delete a character; returns the function that brings it back (and makes it active again if it was). */
  deleteCharacter(id) {
    const character = this.state.characters.find((c) => c.id === id);
    const at = this.state.characters.indexOf(character);
    const wasActive = this.state.active === id;
    this.#change((s) => ({ ...s, characters: s.characters.filter((c) => c.id !== id), active: s.active === id ? null : s.active }),
      `deleting ${character?.name ?? "the character"}`);
    return () => this.#change((s) => (!character || s.characters.some((c) => c.id === id) ? s
      : { ...s, characters: putBack(s.characters, character, at, MAX_CHARACTERS), active: wasActive ? id : s.active }),
    `${character?.name ?? "the character"} brought back`);
  }

  setActive(id) {
    this.#change((s) => {
      if (id !== null && !s.characters.some((c) => c.id === id)) throw new KeptError("that character is no longer kept (deleted in another tab?)");
      return { ...s, active: id };
    }, "the active character");
  }

  /** Add or replace a foe template (by id). */
  saveFoe(foe) {
    const checked = checkFoe(foe);
    this.#putIn("foes", checked, MAX_FOES, "foes", checked.name);
    return checked;
  }

  /** Delete a foe template; returns the function that brings it back. */
  deleteFoe(id) {
    const foe = this.state.foes.find((f) => f.id === id);
    const at = this.state.foes.indexOf(foe);
    this.#change((s) => ({ ...s, foes: s.foes.filter((f) => f.id !== id) }), `forgetting ${foe?.name ?? "the foe"}`);
    return () => this.#change((s) => (!foe || s.foes.some((f) => f.id === id) ? s : { ...s, foes: putBack(s.foes, foe, at, MAX_FOES) }),
      `${foe?.name ?? "the foe"} brought back`);
  }

  /** Keep the encounter being run (checked: see checkEncounter). `after`: the encounter state the
   *  change was made from; when what is stored is another one (another tab moved the fight on),
   *  the change is refused and the stored encounter is shown. */
  saveEncounter(encounter, { after } = {}) {
    const checked = checkEncounter(encounter);
    this.#change((s) => {
      if (after !== undefined && JSON.stringify(s.encounter?.current ?? null) !== JSON.stringify(after)) {
        throw new KeptError(CHANGED_ELSEWHERE, { reason: "changed elsewhere" });
      }
      return { ...s, encounter: checked };
    }, "the encounter's last step");
    return checked;
  }

  /** Forget the encounter; returns the function that brings it back. */
  clearEncounter() {
    const before = this.state.encounter;
    // (the encounter shown: one another tab started meanwhile is not ended by this)
    this.#change((s) => (s.encounter?.updated === before?.updated ? { ...s, encounter: null } : s), "ending the encounter");
    return () => this.#change((s) => (s.encounter ? s : { ...s, encounter: before }), "the encounter brought back");
  }

  exportText(now = new Date()) {
    return exportKept(this.state, now);
  }

  /** The unreadable value set aside or held (as it was, for whoever can mend it), or null. */
  damagedText() {
    return this.damaged?.text ?? null;
  }

  /** The player chose to start afresh: the unreadable value (held in memory, unsaved elsewhere)
   *  is let go, or its backups removed once it was exported; what is shown is saved. */
  forgetDamaged() {
    for (const key of this.#backups()) {
      try { this.storage.removeItem(key); } catch { /* left where it is */ }
    }
    this.damaged = null;
    [this.trouble, this.why, this.problem] = [null, null, null];
    this.saved = false; // what is shown goes over the unreadable value now
    this.#change((s) => s, "what is on this page");
  }

  /** Import an exported file's text: all or nothing. Throws KeptError (and changes nothing) for
   *  a bad file or when it cannot be saved (storage full, a damaged value not set aside); returns
   *  what was added, already kept and left out, and `kept`: false when this browser keeps nothing
   *  at all (storage blocked), where the file is on the page for this visit only. */
  importText(fileText) {
    const imported = parseKeptFile(fileText);
    let counts;
    const kept = this.#change((s) => {
      const { kept: merged, ...rest } = mergeKept(s, imported);
      counts = rest;
      // an imported encounter is kept now: its `updated` says so (a step in another tab then
      // knows it came after the last one it saw, widgets/step-lock.js)
      if (rest.added.encounter) merged.encounter = { ...merged.encounter, updated: new Date().toISOString() };
      return merged;
    }, "the file", { allOrNothing: true, unlessBlocked: true });
    return { ...counts, kept };
  }
}

/** `entry` back in `entries` where it was (at most `most`): an undone delete. */
function putBack(entries, entry, at, most) {
  const back = [...entries];
  back.splice(Math.min(at, back.length), 0, entry);
  return back.slice(0, most);
}

/** A write refused for lack of room (else the browser refuses every write). */
function quota(error) {
  return error?.name === "QuotaExceededError" || error?.code === 22 || /quota/i.test(String(error?.message));
}

/** A new id for a roll or a character: random, so two devices never clash on import. */
export function newId() {
  return globalThis.crypto.randomUUID();
}
