// Properties of the readers of untrusted data (issue 20), checked with fast-check over generated
// values: the import reader (widgets/kept.js, parseKeptFile), the reader of what this browser
// stored (KeptStore), the migrations, and the share-link readers (widgets/links.js). A fixed seed
// makes every run try the same cases; a failure prints the smallest value that breaks it, and
// such a value is then kept below as an example of its own.
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { test as nodeTest } from "node:test";

import fc from "fast-check";

import { CHARACTER, ENCOUNTER, LIMITS } from "../../widgets/facts.js";
import { readings } from "./encounter-fixtures.mjs";
import { ABILITIES, checkKept, exportKept, KeptError, KeptStore, parseKeptFile, placeWords, STORAGE_KEY } from "../../widgets/kept.js";
import { readQuery, sitePage, writeQuery } from "../../widgets/links.js";

const SEED = 20; // issue 20
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
// scripts/fault_counts.py counts the cases each test tries: generated values and examples
const RECORD = process.env.ROLLBOOK_CASES;
let running = null;
const test = (name, body) => nodeTest(name, () => { running = name; return body(); });
const tried = (cases) => { if (RECORD) appendFileSync(RECORD, JSON.stringify({ test: running, runs: cases }) + "\n"); };
const check = (property, runs = RUNS) => { fc.assert(property, { seed: SEED, numRuns: runs }); tried(runs); };

class MemoryStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); this.blocked = false; }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) {
    if (this.blocked) throw Object.assign(new Error("The operation is insecure."), { name: "SecurityError" });
    this.items.set(key, String(value));
  }
  removeItem(key) { this.items.delete(key); }
}

// --- what a player reads when a file is refused ----------------------------------------------

// Words of the engine or of the file format: a message never says them unless the file itself
// brought them (a name in the file is quoted back to the player as it was).
const ENGINE_WORDS = ["undefined", "NaN", "[object", "JSON", "null", "TypeError", "RangeError", "Unexpected token", "Maximum call stack", "function", "prototype"];

/** The refusal as the import panel words it (widgets/elements/kept-data.js, whyRefused). */
function said(error) {
  return error.path === "file" || error.path === null ? error.reason : `${placeWords(error.path)}: ${error.reason}`;
}

function assertPlayerWorded(error, input) {
  assert.ok(error instanceof KeptError, `not a KeptError: ${error?.stack ?? error}`);
  assert.ok(error.path, error.message);
  const text = said(error);
  for (const word of ENGINE_WORDS) {
    if (!input.includes(word)) assert.ok(!text.includes(word), `"${word}" in: ${text.slice(0, 300)}`);
  }
}

/** `text` read as an import: refused in a player's words, or a state that is itself valid and
 *  reads back the same after an export. Returns the state, or null when refused. */
function importedOrRefused(text) {
  let state;
  try {
    state = parseKeptFile(text);
  } catch (error) {
    assertPlayerWorded(error, text);
    return null;
  }
  assert.deepEqual(checkKept({ rollbook: 2, ...state }), state); // passes the stored-state validation
  assert.deepEqual(parseKeptFile(exportKept(state)), state);
  return state;
}

// --- valid kept values, as the widgets write them ---------------------------------------------

const when = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
const textUpTo = (max, min = 0) => fc.string({ minLength: min, maxLength: max, unit: "grapheme" });
const id = fc.oneof(fc.uuid(), textUpTo(64));
const letters = (max) => fc.stringMatching(new RegExp(`^[A-Za-z]{1,${max}}$`));
const lowers = (max) => fc.stringMatching(new RegExp(`^[a-z_]{1,${max}}$`));
const whole = fc.maxSafeInteger();
// objects as JSON.parse makes them (fast-check 4 also makes objects without a prototype)
const PLAIN = { noNullPrototype: true };
const record = (shape) => fc.record(shape, PLAIN);
const dictionary = (key, value, options = {}) => fc.dictionary(key, value, { ...options, ...PLAIN });
const optional = (arb) => fc.option(arb, { nil: null });
// a number as JSON carries it: -0 reads back as 0
const total = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
const named = dictionary(letters(12), whole, { maxKeys: 4 });

const rollArb = record({
  id, at: when, label: textUpTo(200), expression: textUpTo(LIMITS.expression_chars), vars: named, seed: fc.maxSafeNat(), total,
  total_text: optional(textUpTo(40)), text: textUpTo(2000), page: optional(textUpTo(500)), link: optional(textUpTo(1000)),
});

const characterArb = record({
  id,
  name: textUpTo(100, 1).filter((n) => n.trim() === n && n !== ""),
  scores: record(Object.fromEntries(ABILITIES.map((code) => [code, fc.integer({ min: CHARACTER.score_low, max: CHARACTER.score_high })]))),
  rolled: optional(named),
  hp_roll: fc.integer({ min: CHARACTER.hp_roll_low, max: CHARACTER.hp_roll_high }),
  locked: fc.uniqueArray(fc.constantFrom(...ABILITIES), { maxLength: ABILITIES.length }),
  options: dictionary(fc.oneof(lowers(40), fc.constantFrom("__proto__", "constructor")), textUpTo(40), { maxKeys: 3 }),
  seed: optional(fc.maxSafeNat()),
  created: when,
  updated: when,
});

const foeArb = record({
  id, name: textUpTo(ENCOUNTER.longest_text, 1).filter((n) => n.trim() === n && n !== ""), rules: fc.constantFrom(...ENCOUNTER.rule_sets),
  side: textUpTo(ENCOUNTER.longest_text), weapon: optional(textUpTo(ENCOUNTER.longest_text)), armor_name: optional(textUpTo(ENCOUNTER.longest_text)),
  score: dictionary(fc.oneof(lowers(20), fc.constantFrom("__proto__", "constructor", "hp")), whole, { maxKeys: 5 }), created: when,
});

// A combatant's fields by rule set, each in its range, as the engine's facts give them (widgets/facts.js).
const KIND = { str: textUpTo(ENCOUNTER.longest_text), bool: fc.boolean() };
const fieldArb = (fact) => {
  const arb = fact.choices ? fc.constantFrom(...fact.choices)
    : fact.kind === "int" ? fc.integer({ min: Math.max(fact.low, -1000), max: Math.min(fact.high, 1000) }) : KIND[fact.kind];
  return fact.nullable ? optional(arb) : arb;
};
const fieldsArb = (facts) => Object.fromEntries(Object.entries(facts).map(([name, fact]) => [name, fieldArb(fact)]));
// an effect of any kind the engine has, with its own fields; counted ("rounds") where it may end so
const effectArb = fc.constantFrom(...Object.keys(ENCOUNTER.effects)).chain((kind) => {
  const { ends, fields } = ENCOUNTER.effects[kind];
  return fc.constantFrom(...ends).chain((end) => record({
    kind: fc.constant(kind), rounds: end === "rounds" ? fc.integer({ min: 1, max: 10 }) : fc.constant(null), dealt: fc.nat(10),
    ends: fc.constant(end), ...fieldsArb(fields),
  }));
});
// each ruling at one of its readings; a later one may be missing (kept before it was added)
const rulingsArb = (rules) => fc.record(Object.fromEntries(Object.entries(ENCOUNTER.rulings[rules]).map(([name, r]) => [name, fc.constantFrom(...r.choices)])),
  { ...PLAIN, requiredKeys: Object.keys(ENCOUNTER.rulings[rules]).filter((name) => !ENCOUNTER.later_rulings.includes(name)) });

const encounterStateArb = (rules) => fc.uniqueArray(textUpTo(20, 1), { minLength: 0, maxLength: 5 }).chain((ids) => record({
  encounter: fc.constant(ENCOUNTER.version),
  rules: fc.constant(rules),
  initiative: fc.constantFrom(...ENCOUNTER.initiative[rules]),
  rulings: rulingsArb(rules),
  round: fc.nat({ max: 50 }),
  combatants: fc.tuple(...ids.map((cid) => record({
    ...fieldsArb({ ...ENCOUNTER.fields.common, ...ENCOUNTER.fields[rules] }),
    id: fc.constant(cid),
    effects: fc.array(effectArb, { maxLength: 2 }),
  }))),
  order: fc.shuffledSubarray(ids),
  log: fc.array(record({ text: textUpTo(80) }), { maxLength: 3 }),
  logged: fc.nat(10),
})).chain((state) => record({ ...Object.fromEntries(Object.entries(state).map(([k, v]) => [k, fc.constant(v)])),
  turn: state.order.length ? optional(fc.nat({ max: state.order.length - 1 })) : fc.constant(null) }));

const encounterArb = fc.constantFrom("opencore", "cyno").chain((rules) => record({
  current: encounterStateArb(rules),
  undo: fc.array(encounterStateArb(rules), { maxLength: 2 }),
  full: dictionary(fc.oneof(textUpTo(20, 1), fc.constantFrom("__proto__", "constructor", "toString")), record({ armor: fc.nat(100), toughness: fc.nat(20) }), { maxKeys: 3 }),
  seed: optional(fc.maxSafeNat()),
  updated: when,
}));

// An OpenCore encounter as `encounter start` writes it: no one in it yet.
const EMPTY_FIGHT = {
  encounter: ENCOUNTER.version, rules: "opencore", initiative: "individual", round: 0, turn: null, order: [], combatants: [], log: [], logged: 0,
  rulings: readings("opencore"),
};

const uniqueById = (arb, max) => fc.uniqueArray(arb, { maxLength: max, selector: (e) => e.id });

/** A whole kept state (format 2), valid: what an export holds. */
const keptArb = record({
  log: uniqueById(rollArb, 6),
  characters: uniqueById(characterArb, 3),
  foes: uniqueById(foeArb, 3),
  encounter: optional(encounterArb),
}).chain((s) => record({
  ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, fc.constant(v)])),
  active: s.characters.length ? optional(fc.constantFrom(...s.characters.map((c) => c.id))) : fc.constant(null),
}));

// --- the import reader --------------------------------------------------------------------

test("any JSON value as a file: refused in a player's words, or a valid state that reads back the same", () => {
  check(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => { importedOrRefused(JSON.stringify(value)); }));
  // anything at all, with "__proto__" and "constructor" keys as JSON.parse makes them (own keys)
  check(fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 5, key: fc.constantFrom("__proto__", "constructor", "rollbook", "log", "toString", "a") }),
    (value) => { importedOrRefused(JSON.stringify(value) ?? "null"); }));
  // text that is not JSON at all
  check(fc.property(fc.string({ maxLength: 200 }), (text) => { importedOrRefused(text); }));
});

test("any valid state, exported, imports back equal", () => {
  check(fc.property(keptArb, (state) => {
    const expected = checkKept({ rollbook: 2, ...state });
    assert.deepEqual(expected, state); // the generator makes what the reader keeps as it is
    assert.deepEqual(parseKeptFile(exportKept(state)), state);
  }), 150);
});

/** Every place inside `value` (a path of keys), the value itself first. */
function places(value, path = []) {
  const out = [path];
  if (value !== null && typeof value === "object") for (const key of Object.keys(value)) out.push(...places(value[key], [...path, key]));
  return out;
}

const JUNK = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, "", "lots", -1, 1.5, 1e308, [], {}, true, "undefined", "NaN", "__proto__"),
  fc.string({ minLength: 2001, maxLength: 2100 }),
);

test("a valid file with one place changed to anything: refused with its path in a player's words, or valid", () => {
  check(fc.property(keptArb, fc.nat(), JUNK, (state, pick, junk) => {
    const value = { rollbook: 2, ...structuredClone(state) };
    const all = places(value).filter((p) => p.length);
    const path = all[pick % all.length];
    let at = value;
    for (const key of path.slice(0, -1)) at = at[key];
    at[path.at(-1)] = junk;
    importedOrRefused(JSON.stringify(value));
  }), 400);
});

test("an import is all or nothing: a file with one bad entry changes neither the page nor what is stored", () => {
  const bad = { id: 7 }; // no entry kind has a numeric id
  check(fc.property(keptArb, keptArb, fc.constantFrom("log", "characters", "foes"), fc.nat(), (have, file, list, pick) => {
    const storage = new MemoryStorage();
    const store = new KeptStore(storage);
    store.importText(exportKept(have));
    const stored = storage.getItem(STORAGE_KEY);
    const shown = store.state;
    const entries = [...file[list], bad];
    const broken = { ...file, [list]: entries.length > 1 ? entries.toSpliced(pick % entries.length, 0, bad).slice(0, -1) : entries };
    assert.throws(() => store.importText(exportKept(broken)), (error) => { assertPlayerWorded(error, ""); return true; });
    assert.equal(store.state, shown);
    assert.equal(storage.getItem(STORAGE_KEY), stored);
  }), 100);
});

test("files nested thousands deep, huge, or with __proto__ keys: refused in a player's words, never an exception", () => {
  // regression: nested 5000 deep inside an encounter's log, the reader's own size check threw
  // RangeError (call stack) instead of refusing; the engine refuses requests nested that deep too
  const deepIn = (depth) => JSON.stringify({ rollbook: 2, encounter: { current: { ...EMPTY_FIGHT, log: [{ text: "", more: "@" }] }, updated: "2026-11-30T18:00:00.000Z" } })
    .replace('"@"', "[".repeat(depth) + "]".repeat(depth));
  for (const depth of [100, 5000, 900_000]) {
    assert.throws(() => parseKeptFile(deepIn(depth)), (error) => { assertPlayerWorded(error, ""); return /levels deep/.test(error.reason); }, String(depth));
  }
  assert.ok(parseKeptFile(deepIn(10)).encounter);
  tried(4);
  check(fc.property(fc.nat({ max: 3000 }), fc.constantFrom("[", '{"a":'), (depth, open) => {
    const close = open === "[" ? "]" : "}";
    importedOrRefused(`{"rollbook":2,"log":[${open.repeat(depth)}${open === "[" ? "" : "1"}${close.repeat(depth)}]}`);
  }), 50);
  // larger than any export: refused before it is read
  assertPlayerWorded(catchIt(() => parseKeptFile(`{"rollbook":2,"x":"${"x".repeat(2_000_001)}"}`)), "");
  tried(1);
  // __proto__ keys (JSON.parse makes them own keys) are names like any other: kept as they came or refused
  for (const text of [
    '{"rollbook":2,"__proto__":{"log":[1]}}',
    '{"rollbook":2,"characters":[],"foes":[{"id":"g","name":"G","rules":"cyno","side":"f","score":{"__proto__":5},"created":"2026-11-30T18:00:00.000Z"}]}',
    '{"rollbook":2,"characters":[{"id":"c","name":"C","hp_roll":5,"created":"2026-11-30T18:00:00.000Z","scores":{"STR":1,"DEX":1,"AGL":1,"CON":1,"INT":1,"PER":1,"WIS":1,"CHA":1,"COM":1},"options":{"__proto__":"x"}}]}',
    `{"rollbook":2,"encounter":{"current":${JSON.stringify({ ...EMPTY_FIGHT, rules: "cyno", initiative: "die", rulings: readings("cyno") })},"full":{"__proto__":{"armor":1,"toughness":1}},"updated":"2026-11-30T18:00:00.000Z"}}`,
  ]) {
    const state = importedOrRefused(text);
    if (state) assert.equal(Object.getPrototypeOf(state.encounter?.full ?? {}), Object.prototype, text);
    if (text.includes('"full"')) assert.ok(state?.encounter, "the encounter with a __proto__ id is read, its full values own entries");
    assert.equal({}.armor, undefined); // nothing reached Object.prototype
    tried(1);
  }
});

function catchIt(action) {
  try { action(); } catch (error) { return error; }
  assert.fail("not refused");
}

// --- what this browser stored -------------------------------------------------------------

test("any text found in storage: read as a valid state, or set aside as unreadable and said in a player's words", () => {
  check(fc.property(fc.oneof(fc.string({ maxLength: 100 }), fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    keptArb.map((s) => JSON.stringify({ rollbook: 2, ...s }))), (raw) => {
    const storage = new MemoryStorage({ [STORAGE_KEY]: raw });
    const store = new KeptStore(storage);
    if (store.trouble === null) {
      assert.deepEqual(checkKept({ rollbook: 2, ...store.state }), store.state);
    } else {
      assert.equal(store.trouble, "damaged");
      assert.equal(store.damagedText(), raw); // never lost
      for (const word of ENGINE_WORDS) if (!raw.includes(word)) assert.ok(!store.problem.includes(word), store.problem);
    }
  }), 200);
});

test("any valid state of format 1 (before foe templates) is brought forward to a valid current state", () => {
  check(fc.property(keptArb, (state) => {
    const { foes, ...older } = state;
    const current = checkKept({ rollbook: 1, ...older });
    assert.deepEqual(current, { ...state, foes: [] });
    assert.deepEqual(checkKept({ rollbook: 2, ...current }), current);
    const store = new KeptStore(new MemoryStorage({ [STORAGE_KEY]: JSON.stringify({ rollbook: 1, ...older }) }));
    assert.equal(store.trouble, null);
    assert.deepEqual(store.state, current);
  }), 150);
});

// --- share links --------------------------------------------------------------------------

const SCHEMA = { expression: "text", seed: "int", shared: "bool", vars: "vars", label: "text" };
const LABELS = { expression: "expression", seed: "seed" };

// Query strings as hostile links make them: the schema's fields with any text, repeated, encoded oddly.
const queryArb = fc.array(fc.tuple(
  fc.oneof(fc.constantFrom(...Object.keys(SCHEMA)), fc.string({ maxLength: 8 })),
  fc.oneof(fc.string({ maxLength: 40 }), fc.string({ maxLength: 600 }), fc.integer().map(String), fc.constantFrom("1", "0", "-0", "1e3", "0x10", "9007199254740993", " 5", "STR:3,DEX:-1", "STR:1:2", "a:b", ",,,", "%", "%zz")),
), { maxLength: 8 }).chain((pairs) => fc.constantFrom(
  "?" + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"),
  "?" + pairs.map(([k, v]) => `${k}=${v}`).join("&"), // raw: "%", "+", "#" and "&" as they come
));

test("a link reader given any query: each field read within its range, or left out with a player-worded reason", () => {
  check(fc.property(fc.oneof(queryArb, fc.string({ maxLength: 200 })), (search) => {
    const { values, problems } = readQuery(SCHEMA, search, LABELS);
    const params = new URLSearchParams(search);
    const present = Object.keys(SCHEMA).filter((field) => params.get(field) !== null);
    assert.equal(Object.keys(values).length + problems.length, present.length); // field by field: read or said
    for (const field of Object.keys(values)) assert.ok(present.includes(field));
    if ("expression" in values) assert.ok(typeof values.expression === "string" && values.expression.length <= 500);
    if ("label" in values) assert.ok(typeof values.label === "string" && values.label.length <= 500);
    if ("seed" in values) assert.ok(Number.isSafeInteger(values.seed) && String(values.seed) === params.get("seed").replace(/^(-?)0+(?=\d)/, "$1").replace(/^-0$/, "0"));
    if ("shared" in values) assert.equal(typeof values.shared, "boolean");
    if ("vars" in values) {
      assert.equal(Object.getPrototypeOf(values.vars), Object.prototype);
      for (const [name, score] of Object.entries(values.vars)) {
        assert.match(name, /^[A-Za-z]{1,12}$/);
        assert.ok(Number.isSafeInteger(score) && Math.abs(score) < 1e9);
      }
    }
    for (const problem of problems) {
      assert.match(problem, /^(this link's (expression|seed) “|part of this link \(“)[^]*could not be read, so it was left out$/);
      const quoted = problem.match(/“([^]*)”/)[1];
      const rest = problem.replace(quoted, "");
      for (const word of ENGINE_WORDS) assert.ok(!rest.includes(word), problem);
    }
  }), 500);
});

test("any valid state written into a link reads back the same", () => {
  const stateArb = record({
    expression: textUpTo(500, 1), seed: fc.maxSafeInteger(), shared: fc.boolean(), vars: dictionary(letters(12), fc.integer({ min: -999_999_999, max: 999_999_999 }), { minKeys: 1, maxKeys: 4 }),
    label: textUpTo(500, 1),
  });
  check(fc.property(stateArb, (state) => {
    assert.deepEqual(readQuery(SCHEMA, writeQuery(SCHEMA, state)), { values: state, problems: [] });
  }));
});

test("a link drawn from kept data never leaves the site, whatever the text", () => {
  const ROOTS = ["https://example.org/rollbook/", "http://127.0.0.1:8000/", "https://x.github.io/a/b/"];
  const pieces = fc.constantFrom("javascript:", "JaVaScRiPt:", "data:", "vbscript:", "//", "/", "\\", "..", ".", "%2e", "%2f", "?", "#", "@",
    ":", "\t", "\n", " ", "\u0000", "evil.example", "tools", "roller", "https:", "&", "=", "x");
  const hostile = fc.oneof(fc.string({ maxLength: 60 }), fc.array(pieces, { maxLength: 10 }).map((p) => p.join("")),
    fc.webUrl(), fc.webPath(), fc.webSegment().map((s) => `tools/${s}/`));
  check(fc.property(fc.constantFrom(...ROOTS), hostile, (root, path) => {
    const href = sitePage(root, path);
    if (href === null) return;
    const url = new URL(href);
    const base = new URL(root);
    assert.equal(url.protocol, base.protocol, href);
    assert.equal(url.origin, base.origin, href);
    assert.ok(url.pathname.startsWith(base.pathname), href);
    assert.ok(!/^\s*javascript:/i.test(href), href);
  }), 1000);
});
