// A kept encounter the page cannot draw is refused as it is read (issue 39), checked against the
// engine's own facts (widgets/facts.js, from engine/rollbook/encounter/shape.py): no turn order,
// rulings that are not the rule set's or not a reading they have, an initiative the rule set does
// not roll, a log entry that is none, a combatant field no combatant has, a name longer than the
// engine keeps. Refused in a player's words; in storage, only the encounter is set aside.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ENCOUNTER } from "../../widgets/facts.js";
import { checkEncounter, checkKept, KeptError, KeptStore, parseKeptFile, placeWords, STORAGE_KEY } from "../../widgets/kept.js";
import { readings } from "./encounter-fixtures.mjs";

class MemoryStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
  removeItem(key) { this.items.delete(key); }
}

const fighter = (id, overrides = {}) => ({
  id, name: "Buck", side: "players", initiative: 40, con: 46, dex: 33, str: 80, hp: 30, hp_max: 30, armor: 40, armor_name: "Leather",
  toughness: 5, fortitude: 0, attack_skill: 50, defense_skill: 30, weapon: "Sword", stabilized: false, acted: false, effects: [], ...overrides,
});
const fight = (overrides = {}) => ({
  encounter: 1, rules: "opencore", initiative: "individual", rulings: readings("opencore"), round: 1, turn: 0, order: ["p1", "o1"],
  combatants: [fighter("p1"), fighter("o1", { name: "Orc", side: "orcs" })],
  log: [{ text: "Round 1 begins." }], logged: 1, ...overrides,
});
const kept = (current, undo = []) => ({ current, undo, full: {}, seed: null, updated: "2026-12-05T12:00:00.000Z" });
const without = (object, key) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));

// A player never reads these (the properties test has the same list).
const ENGINE_WORDS = /undefined|NaN|\[object|JSON|null|TypeError|RangeError|prototype|_/;

test("a kept encounter the page cannot draw is refused at the place of its problem, in a player's words", () => {
  assert.deepEqual(checkEncounter(kept(fight())).current, fight()); // the fixture itself is one the engine writes
  const cases = [
    ["no turn order", without(fight(), "order"), "encounter.current.order", /^is missing$/],
    ["a turn order that is no list", fight({ order: "p1" }), "encounter.current.order", /^expected a list/],
    ["no rulings", without(fight(), "rulings"), "encounter.current.rulings", /^is missing$/],
    ["rulings that are a list", fight({ rulings: ["zero"] }), "encounter.current.rulings", /^expected a group of values, found a list$/],
    ["a ruling of the other rule set", fight({ rulings: { ...readings("opencore"), aim_lines: "aimed" } }), "encounter.current.rulings.aim_lines", /^not one of this rule set's rulings$/],
    ["a reading a ruling does not have", fight({ rulings: { ...readings("opencore"), death_at: "never" } }), "encounter.current.rulings.death_at", /^not a reading this ruling has, found "never"/],
    ["a ruling missing", fight({ rulings: without(readings("opencore"), "death_at") }), "encounter.current.rulings.death_at", /^is missing$/],
    ["an initiative the rule set does not roll", fight({ initiative: "side" }), "encounter.current.initiative", /^not a way this rule set rolls initiative, found "side"/],
    ["no initiative", without(fight(), "initiative"), "encounter.current.initiative", /^is missing$/],
    ["a log entry that is none", fight({ log: ["Round 1 begins."] }), "encounter.current.log[0]", /^expected a group of values, found "Round 1 begins\."/],
    ["a log entry with no text", fight({ log: [{ when: 1 }] }), "encounter.current.log[0].text", /^expected text, found nothing/],
    ["a log longer than the engine keeps", fight({ log: Array.from({ length: ENCOUNTER.log_kept + 1 }, () => ({ text: "x" })) }), "encounter.current.log", /^at most 60 entries/],
    ["a field no combatant has", fight({ combatants: [fighter("p1", { mana: 3 }), fighter("o1")] }), "encounter.current.combatants[0].mana", /^not something a combatant has$/],
    ["a name longer than the engine keeps", fight({ combatants: [fighter("p1", { name: "x".repeat(81) }), fighter("o1")] }), "encounter.current.combatants[0].name", /^text longer than 80 characters$/],
    ["a score past its range", fight({ combatants: [fighter("p1", { con: 101 }), fighter("o1")] }), "encounter.current.combatants[0].con", /^expected a number from 0 to 100, found 101$/],
    ["a Cyno field in an OpenCore fight", fight({ combatants: [fighter("p1", { dp: 3 }), fighter("o1")] }), "encounter.current.combatants[0].dp", /^not something a combatant has$/],
    ["an effect of no known kind", fight({ combatants: [fighter("p1", { effects: [{ kind: "curse", rounds: 2, dealt: 1, ends: "rounds" }] }), fighter("o1")] }),
      "encounter.current.combatants[0].effects[0].kind", /^not an effect the encounter knows, found "curse"/],
    ["an effect with a field of the wrong kind", fight({ combatants: [fighter("p1", { effects: [{ kind: "note", text: 5, rounds: null, dealt: 1, ends: "by-hand" }] }), fighter("o1")] }),
      "encounter.current.combatants[0].effects[0].text", /^expected text, found 5/],
    ["a hit location's state no critical table gives", fight({ combatants: [fighter("p1", { effects: [{ kind: "location", location: "Left arm", skill_penalty: -20, rounds: null, dealt: 1, ends: "by-hand" }] }), fighter("o1")] }),
      "encounter.current.combatants[0].effects[0].location", /^not one of damaged, severely damaged, broken, severed, destroyed, found "Left arm"/],
    ["a field beside the encounter's", fight({ weather: "rain" }), "encounter.current.weather", /^not part of an encounter$/],
    ["a turn past the turn order", fight({ turn: 2 }), "encounter.current.turn", /^points past the end of the turn order$/],
    ["no count of log entries", without(fight(), "logged"), "encounter.current.logged", /^is missing$/],

  ];
  for (const [what, state, path, reason] of cases) {
    assert.throws(() => checkEncounter(kept(state)), (error) => {
      assert.ok(error instanceof KeptError, `${what}: ${error}`);
      assert.equal(error.path, path, what);
      assert.match(error.reason, reason, what);
      const said = `${placeWords(error.path)}: ${error.reason}`;
      assert.ok(!ENGINE_WORDS.test(said), `${what}: ${said}`);
      return true;
    }, what);
  }
});

test("a kept Undo state the page cannot draw is refused too", () => {
  assert.throws(() => checkEncounter(kept(fight(), [without(fight(), "order")])),
    (error) => error.path === "encounter.undo[0].order" && error.reason === "is missing");
});

test("what the engine writes is read: a Cyno fight without its later rulings, no one yet, every effect kind", () => {
  const cyno = {
    encounter: 1, rules: "cyno", initiative: "die", rulings: without(without(readings("cyno"), "target_size"), "ranged_parry"),
    round: 0, turn: null, order: [], combatants: [], log: [], logged: 0,
  };
  assert.deepEqual(checkEncounter(kept(cyno)).current, cyno);
  const effects = [
    { kind: "stun", rounds: 2, dealt: 1, ends: "rounds" },
    { kind: "bloodloss", rounds: null, dealt: 1, ends: "stabilized", hp_per_round: -2 },
    { kind: "location", rounds: null, dealt: 1, ends: "by-hand", location: "broken", skill_penalty: -20 },
    { kind: "note", rounds: 3, dealt: 1, ends: "rounds", text: "On fire" },
  ];
  const state = fight({ combatants: [fighter("p1", { effects, str: null, armor_name: null, weapon: null, initiative: null }), fighter("o1")], turn: null });
  assert.deepEqual(checkEncounter(kept(state)).current, state);
});

test("the place of a ruling reads by the ruling's title, the turn order and the log in words", () => {
  assert.equal(placeWords("encounter.current.rulings.death_at"), `the encounter, the ruling “${ENCOUNTER.rulings.opencore.death_at.title}”`);
  assert.equal(placeWords("encounter.current.order"), "the encounter, turn order");
  assert.equal(placeWords("encounter.current.log[2].text"), "the encounter, log entry 3, text");
  assert.equal(placeWords("encounter.undo[0].combatants[1].effects[0].kind"), "the encounter (step 1 that Undo takes back), combatant 2, effect 1, kind");
});

test("an imported file with an encounter the page cannot draw is refused whole", () => {
  const file = JSON.stringify({ rollbook: 2, characters: [], encounter: kept(without(fight(), "order")) });
  assert.throws(() => parseKeptFile(file), (error) => error instanceof KeptError && error.path === "encounter.current.order");
});

test("in storage, only the encounter the page cannot draw is set aside: the rest is read, and said", () => {
  const roll = { id: "r1", at: "2026-12-05T12:00:00.000Z", label: "2d6", expression: "2d6", vars: {}, seed: 7, total: 9, text: "2d6 (4, 5) = 9" };
  const stored = JSON.stringify({ rollbook: 2, log: [roll], characters: [], active: null, foes: [], encounter: kept(without(fight(), "order")) });
  const storage = new MemoryStorage({ [STORAGE_KEY]: stored });
  const store = new KeptStore(storage);
  assert.equal(store.encounter, null); // never drawn
  assert.deepEqual(store.log.map((r) => r.id), ["r1"]); // the rest is kept as it was
  assert.equal(store.trouble, "damaged");
  assert.equal(store.problem, "The kept encounter could not be read (turn order: is missing), so it is not shown."
    + " It was set aside in this browser, not deleted: Export the unreadable copy gives it as a file. Everything else kept is here.");
  assert.equal(store.damagedText(), stored); // the whole value as it was, for whoever mends it
  const backup = [...storage.items.keys()].find((key) => key.startsWith(`${STORAGE_KEY}.damaged.`));
  assert.equal(storage.getItem(backup), stored);
  store.addRoll({ ...roll, id: "r2" });
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)).log.map((r) => r.id), ["r1", "r2"]);
  assert.equal(new KeptStore(storage).encounter, null);
  assert.equal(checkKept(JSON.parse(storage.getItem(STORAGE_KEY))).encounter, null);
});
