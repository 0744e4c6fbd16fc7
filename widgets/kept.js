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
export const MAX_TEXT = 2000; // any one string: a roll's breakdown is the longest
export const MAX_LABEL = 200;
const MAX_EXPRESSION = 1000; // the engine's own limit (rollbook.dice.limits.MAX_CHARS): any expression it rolls can be kept
const MAX_FILE_CHARS = 2_000_000;
export const MAX_UNDO = 20; // encounter states Undo can take back
export const MAX_ENCOUNTER_CHARS = 64_000; // the engine's request limit (rollbook.api.MAX_REQUEST_CHARS)
const MAX_COMBATANTS = 40; // the engine's own limit (encounter/shape.py)

/** A kept value that is not what Rollbook stores; the message says where and what: `path` (the
 *  place in the file, "log[3].total", or "file" for the file as a whole) and `reason`. */
export class KeptError extends Error {
  constructor(message, { path = null, reason = message } = {}) {
    super(message);
    this.path = path;
    this.reason = reason;
  }
}

/** A place in a kept value as a player reads it: "log[3].total" -> "roll 4 of the log, total". */
export function placeWords(path) {
  return String(path)
    .replace(/^log\[(\d+)\]/, (_, i) => `roll ${Number(i) + 1} of the log`)
    .replace(/^characters\[(\d+)\]/, (_, i) => `character ${Number(i) + 1}`)
    .replace(/^foes\[(\d+)\]/, (_, i) => `kept foe ${Number(i) + 1}`)
    .replace(/^active$/, "the active character")
    .replace(/^encounter/, "the encounter")
    .replace(/\[(\d+)\]/g, (_, i) => ` ${Number(i) + 1}`)
    .replace(/\.([^.]+)/g, (_, key) => `, ${key.replaceAll("_", " ")}`);
}

const empty = () => ({ log: [], characters: [], active: null, foes: [], encounter: null });

/** From each older format to the next: format 2 added the foe templates (none before). */
const MIGRATIONS = {
  1: (value) => ({ ...value, rollbook: 2, foes: [] }),
};

// --- validation ---------------------------------------------------------------------------

function fail(path, message) {
  throw new KeptError(`${path}: ${message}`, { path, reason: message });
}

function describe(value) {
  if (value === null) return "nothing";
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

function named(value, path) {
  // {"STR": 3}: names are letters, values whole numbers (what the dice engine takes as --var)
  const out = {};
  for (const [name, score] of Object.entries(object(value, path))) {
    if (!/^[A-Za-z]{1,12}$/.test(name)) fail(`${path}.${name}`, "a name is 1 to 12 letters");
    out[name] = integer(score, `${path}.${name}`);
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
    checkedOptions[name] = text(choice, `${path}.options.${name}`, { max: 40 });
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
    score[key] = integer(points, `${path}.score.${key}`);
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

/** One encounter state as the engine gives it. Only its outline is checked here (version, rule
 *  set, round, combatants with ids and names, size): the engine checks every field, with its
 *  path, whenever the page asks it anything, and the page shows that answer. */
export function checkEncounterState(value, path = "encounter") {
  object(value, path);
  if (value.encounter !== 1) fail(`${path}.encounter`, `not an encounter of version 1, found ${describe(value.encounter)}`);
  if (value.rules !== "opencore" && value.rules !== "cyno") fail(`${path}.rules`, `expected "opencore" or "cyno", found ${describe(value.rules)}`);
  integer(value.round, `${path}.round`, { min: 0 });
  const ids = new Set();
  list(value.combatants, `${path}.combatants`, MAX_COMBATANTS).forEach((c, i) => {
    object(c, `${path}.combatants[${i}]`);
    const id = text(c.id, `${path}.combatants[${i}].id`, { max: 80 });
    text(c.name, `${path}.combatants[${i}].name`, { max: 80 });
    if (ids.has(id)) fail(`${path}.combatants[${i}].id`, `${describe(id)} is used twice`);
    ids.add(id);
  });
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
    full[id] = {
      armor: integer(values.armor, `${path}.full.${id}.armor`, { min: 0 }),
      toughness: integer(values.toughness, `${path}.full.${id}.toughness`, { min: 0 }),
    };
  }
  return {
    current,
    undo,
    full,
    seed: integer(value.seed, `${path}.seed`, { optional: true, min: 0 }),
    updated: time(value.updated, `${path}.updated`),
  };
}

/** The whole kept value, checked; KeptError names the first problem. */
export function checkKept(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("file", `this file is not a Rollbook export (its first line does not say so): ${CHOOSE}`);
  }
  while (Number.isSafeInteger(value.rollbook) && MIGRATIONS[value.rollbook]) value = MIGRATIONS[value.rollbook](value);
  if (value.rollbook !== FORMAT) {
    if (Number.isSafeInteger(value.rollbook) && value.rollbook > FORMAT) {
      fail("file", "this file was saved by a newer Rollbook: reload the site to update it, then import the file again");
    }
    fail("file", `this file is not a Rollbook export (its first line does not say so): ${CHOOSE}`);
  }
  const log = list(value.log ?? [], "log", MAX_LOG).map((entry, i) => checkRoll(entry, `log[${i}]`));
  const characters = list(value.characters ?? [], "characters", MAX_CHARACTERS).map((c, i) => checkCharacter(c, `characters[${i}]`));
  const active = text(value.active, "active", { optional: true, max: 64 });
  if (active !== null && !characters.some((c) => c.id === active)) fail("active", `no character has the id ${describe(active)}`);
  const foes = list(value.foes ?? [], "foes", MAX_FOES).map((f, i) => checkFoe(f, `foes[${i}]`));
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

/** Add an imported file to what is kept: entries already kept (same id) stay as they are. An
 *  imported encounter (unless it is the one kept) takes the kept one's place, and the kept one
 *  goes onto its Undo states: Undo on the encounter page brings it back. */
export function mergeKept(kept, imported) {
  const haveRolls = new Set(kept.log.map((r) => r.id));
  const haveCharacters = new Set(kept.characters.map((c) => c.id));
  const newRolls = imported.log.filter((r) => !haveRolls.has(r.id));
  const newCharacters = imported.characters.filter((c) => !haveCharacters.has(c.id));
  const log = [...kept.log, ...newRolls].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).slice(-MAX_LOG);
  const characters = [...kept.characters, ...newCharacters].slice(0, MAX_CHARACTERS);
  const active = kept.active ?? (imported.active && characters.some((c) => c.id === imported.active) ? imported.active : null);
  const [keptFoes, importedFoes] = [kept.foes ?? [], imported.foes ?? []];
  const haveFoes = new Set(keptFoes.map((f) => f.id));
  const newFoes = importedFoes.filter((f) => !haveFoes.has(f.id));
  const foes = [...keptFoes, ...newFoes].slice(0, MAX_FOES);
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
    skipped: { rolls: imported.log.length - newRolls.length, characters: imported.characters.length - newCharacters.length,
               foes: importedFoes.length - newFoes.length, encounter: same ? 1 : 0 },
  };
}

// --- the store ----------------------------------------------------------------------------

/** The kept state over a Web Storage (localStorage in the page, a stand-in in tests).
 *  Every change is saved at once; watchers hear every change; `problem` says when storage
 *  failed (full, private mode) or held a damaged value (kept aside under a backup key). */
export class KeptStore {
  constructor(storage, key = STORAGE_KEY) {
    this.storage = storage;
    this.key = key;
    this.watchers = new Set();
    this.problem = null;
    this.state = this.#read();
  }

  #read() {
    let raw = null;
    try {
      raw = this.storage?.getItem(this.key) ?? null;
    } catch {
      this.problem = "this browser does not let Rollbook keep anything (private browsing, or the site's data is blocked); rolls last until you close the page";
      return empty();
    }
    if (raw === null) return empty();
    try {
      return checkKept(JSON.parse(raw));
    } catch (error) {
      // Never thrown away: set aside where an export or a later version can still find it.
      const backup = `${this.key}.damaged.${Date.now()}`;
      try { this.storage.setItem(backup, raw); } catch { /* storage full: the value stays under its key */ }
      // where, in the player's words (the backup's key is for whoever recovers it, not for them)
      const where = error instanceof KeptError && error.path ? `${placeWords(error.path)}: ${error.reason}` : "it is damaged";
      this.problem = `what this browser kept could not be read (${where}); it was set aside in this browser, not deleted, and Rollbook starts afresh`;
      return empty();
    }
  }

  /** Reload after another tab changed the kept state. */
  reload() {
    this.state = this.#read();
    this.#notify();
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

  #set(state) {
    this.state = state;
    try {
      this.storage?.setItem(this.key, JSON.stringify({ rollbook: FORMAT, ...state }));
      this.problem = null;
    } catch {
      this.problem = "could not save in this browser (its storage is full or blocked); export your data to keep it";
    }
    this.#notify();
  }

  /** Add one roll (checked) at the end of the log; the oldest go beyond MAX_LOG. */
  addRoll(roll) {
    const checked = checkRoll(roll);
    this.#set({ ...this.state, log: [...this.state.log, checked].slice(-MAX_LOG) });
    return checked;
  }

  /** Empty the log; returns the function that puts it back (the reader's "Undo"). */
  clearLog() {
    const before = this.state.log;
    this.#set({ ...this.state, log: [] });
    return () => this.#set({ ...this.state, log: [...before, ...this.state.log].slice(-MAX_LOG) });
  }

  /** Add or replace a character (by id). */
  saveCharacter(character) {
    return this.#putIn("characters", checkCharacter(character), MAX_CHARACTERS, "characters");
  }

  /** `checked` into the list `name`: in place of the entry with its id, else at the end (at most `most`). */
  #putIn(name, checked, most, what) {
    const entries = this.state[name];
    const replaces = entries.some((e) => e.id === checked.id);
    if (!replaces && entries.length >= most) throw new KeptError(`at most ${most} ${what} are kept; delete one first`);
    this.#set({ ...this.state, [name]: replaces ? entries.map((e) => (e.id === checked.id ? checked : e)) : [...entries, checked] });
    return checked;
  }

  /** Delete a character; returns the function that brings it back (and makes it active again if it was). */
  deleteCharacter(id) {
    const before = this.state;
    this.#set({
      ...this.state,
      characters: this.state.characters.filter((c) => c.id !== id),
      active: this.state.active === id ? null : this.state.active,
    });
    return () => this.#set({ ...this.state, characters: before.characters, active: before.active });
  }

  setActive(id) {
    if (id !== null && !this.state.characters.some((c) => c.id === id)) throw new KeptError(`no character has the id ${id}`);
    this.#set({ ...this.state, active: id });
  }

  /** Add or replace a foe template (by id). */
  saveFoe(foe) {
    return this.#putIn("foes", checkFoe(foe), MAX_FOES, "foes");
  }

  /** Delete a foe template; returns the function that brings it back. */
  deleteFoe(id) {
    const before = this.state.foes;
    this.#set({ ...this.state, foes: this.state.foes.filter((f) => f.id !== id) });
    return () => this.#set({ ...this.state, foes: before });
  }

  /** Keep the encounter being run (checked: see checkEncounter). */
  saveEncounter(encounter) {
    const checked = checkEncounter(encounter);
    this.#set({ ...this.state, encounter: checked });
    return checked;
  }

  /** Forget the encounter; returns the function that brings it back. */
  clearEncounter() {
    const before = this.state.encounter;
    this.#set({ ...this.state, encounter: null });
    return () => this.#set({ ...this.state, encounter: before });
  }

  exportText(now = new Date()) {
    return exportKept(this.state, now);
  }

  /** Import an exported file's text; throws KeptError (and changes nothing) for a bad file. */
  importText(fileText) {
    const { kept, added, skipped } = mergeKept(this.state, parseKeptFile(fileText));
    this.#set(kept);
    return { added, skipped };
  }
}

/** A new id for a roll or a character: random, so two devices never clash on import. */
export function newId() {
  return globalThis.crypto.randomUUID();
}
