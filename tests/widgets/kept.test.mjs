// The kept state (widgets/kept.js) on Node's test runner: validation, import/merge, the store
// over a stand-in for localStorage, undo, and damaged values set aside instead of lost.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkKept, checkRoll, exportKept, KeptError, KeptStore, MAX_LOG, MAX_UNDO, mergeKept, parseKeptFile, placeWords, STORAGE_KEY } from "../../widgets/kept.js";

class MemoryStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); this.full = false; }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { if (this.full) throw new Error("QuotaExceededError"); this.items.set(key, String(value)); }
}

const roll = (id, overrides = {}) => ({
  id, at: "2026-11-30T18:00:00.000Z", label: "2d6", expression: "2d6", vars: {}, seed: 7, total: 9, text: "2d6 (4, 5) = 9", page: "tools/roller/", link: null, ...overrides,
});
const scores = { STR: 80, DEX: 33, AGL: 95, CON: 46, INT: 89, PER: 95, WIS: 84, CHA: 68, COM: 1 };
// An encounter as the engine writes it (only its outline matters here: the engine checks the rest).
const fight = (round, overrides = {}) => ({
  encounter: 1, rules: "opencore", initiative: "individual", rulings: {}, round, turn: round ? 0 : null, order: [],
  combatants: [{ id: "p1", name: "Buck", side: "players", hp: 30 }, { id: "o1", name: "Orc", side: "orcs", hp: 20 }],
  log: [], logged: 0, ...overrides,
});
const running = (overrides = {}) => ({
  current: fight(2), undo: [fight(0), fight(1)], full: { p1: { armor: 40, toughness: 5 } }, seed: null,
  updated: "2026-11-30T18:00:00.000Z", ...overrides,
});
const character = (id, overrides = {}) => ({ id, name: "Buck", scores, hp_roll: 60, created: "2026-11-30T18:00:00.000Z", ...overrides });

test("a valid file is read back exactly as exported", () => {
  const kept = { log: [checkRoll(roll("a"))], characters: [checkKept({ rollbook: 1, characters: [character("c")] }).characters[0]], active: "c", foes: [], encounter: running() };
  const back = parseKeptFile(exportKept(kept, new Date("2026-12-01T00:00:00Z")));
  assert.deepEqual(back, kept);
});

test("each kind of bad file is refused with the path of its first problem", () => {
  const cases = [
    ["not json", /^file: this file is not a Rollbook export \(it could not be read as one\)/],
    ["[]", /^file: this file is not a Rollbook export \(its first line does not say so\)/],
    [JSON.stringify({ log: [] }), /^file: this file is not a Rollbook export/],
    [JSON.stringify({ rollbook: 3 }), /^file: this file was saved by a newer Rollbook: reload the site/],
    [JSON.stringify({ rollbook: 1, log: [roll("a", { total: "lots" })] }), /^log\[0\]\.total: expected a number, found "lots"/],
    [JSON.stringify({ rollbook: 1, log: [roll("a", { seed: -1 })] }), /^log\[0\]\.seed: expected a number from 0/],
    [JSON.stringify({ rollbook: 1, log: [roll("a", { at: "yesterday" })] }), /^log\[0\]\.at: expected a date and time/],
    [JSON.stringify({ rollbook: 1, log: [roll("a", { vars: { "S T R": 1 } })] }), /^log\[0\]\.vars\.S T R: a name is 1 to 12 letters/],
    [JSON.stringify({ rollbook: 1, characters: [character("c", { scores: { ...scores, STR: 101 } })] }), /^characters\[0\]\.scores\.STR: expected a number from 0 to 100, found 101/],
    [JSON.stringify({ rollbook: 1, characters: [character("c", { scores: { ...scores, LCK: 5 } })] }), /^characters\[0\]\.scores\.LCK: not an OpenCore ability/],
    [JSON.stringify({ rollbook: 1, characters: [character("c", { name: "  " })] }), /^characters\[0\]\.name: a character needs a name/],
    [JSON.stringify({ rollbook: 1, characters: [], active: "ghost" }), /^active: no character has the id "ghost"/],
    [JSON.stringify({ rollbook: 1, log: Array.from({ length: MAX_LOG + 1 }, (_, i) => roll(String(i))) }), /^log: at most 200 entries/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseKeptFile(text), (error) => error instanceof KeptError && message.test(error.message), text.slice(0, 60));
  }
});

test("a place in a file reads in a player's words, with no file-format wording", () => {
  assert.equal(placeWords("log[3].total_text"), "roll 4 of the log, total text");
  assert.equal(placeWords("characters[0].scores.STR"), "character 1, scores, STR");
  assert.throws(() => parseKeptFile("not json"), (error) => !/JSON|Unexpected token|rollbook"/.test(error.reason));
  assert.throws(() => parseKeptFile(JSON.stringify({ rollbook: 1, characters: [null] })),
    (error) => error.path === "characters[0]" && error.reason === "expected a group of values, found nothing");
});

test("html in a name is kept as text (the widgets render it as text, never markup)", () => {
  const [c] = checkKept({ rollbook: 1, characters: [character("c", { name: "<img src=x onerror=alert(1)>" })] }).characters;
  assert.equal(c.name, "<img src=x onerror=alert(1)>");
});

test("importing adds what is new and leaves what is kept as it is", () => {
  const kept = { log: [roll("a", { total: 1 })], characters: [], active: null, encounter: null };
  const imported = { log: [roll("a", { total: 99 }), roll("b", { at: "2026-11-30T17:00:00.000Z" })], characters: [], active: null, encounter: null };
  const { kept: merged, added, skipped } = mergeKept(kept, imported);
  assert.deepEqual(merged.log.map((r) => [r.id, r.total]), [["b", 9], ["a", 1]]); // by time, the kept "a" unchanged
  assert.deepEqual(added, { rolls: 1, characters: 0, foes: 0, encounter: 0 });
  assert.deepEqual(skipped, { rolls: 1, characters: 0, foes: 0, encounter: 0 });
});

test("the store saves every change, and a bad import changes nothing", () => {
  const storage = new MemoryStorage();
  const store = new KeptStore(storage);
  let heard = 0;
  store.watch(() => heard++);
  store.addRoll(roll("a"));
  assert.equal(JSON.parse(storage.getItem(STORAGE_KEY)).log[0].id, "a");
  assert.throws(() => store.importText("{\"rollbook\": 1, \"log\": 5}"), KeptError);
  assert.deepEqual(store.log.map((r) => r.id), ["a"]);
  assert.equal(heard, 1);
  assert.deepEqual(new KeptStore(storage).log, store.log); // a reload reads the same
});

test("clear and delete can be undone", () => {
  const store = new KeptStore(new MemoryStorage());
  store.addRoll(roll("a"));
  const undoClear = store.clearLog();
  store.addRoll(roll("b"));
  undoClear();
  assert.deepEqual(store.log.map((r) => r.id), ["a", "b"]);
  store.saveCharacter(character("c"));
  store.setActive("c");
  const undoDelete = store.deleteCharacter("c");
  assert.equal(store.active, null);
  undoDelete();
  assert.equal(store.active.name, "Buck");
});

test("the log keeps the newest MAX_LOG rolls", () => {
  const store = new KeptStore(new MemoryStorage());
  for (let i = 0; i < MAX_LOG + 5; i++) store.addRoll(roll(String(i)));
  assert.equal(store.log.length, MAX_LOG);
  assert.equal(store.log[0].id, "5");
});

test("a damaged stored value is set aside under a backup key, not thrown away", () => {
  const storage = new MemoryStorage({ [STORAGE_KEY]: "{\"rollbook\": 1, \"log\": 7}" });
  const store = new KeptStore(storage);
  assert.deepEqual(store.log, []);
  assert.match(store.problem, /could not be read \(log: expected a list, found 7\); it was set aside in this browser, not deleted/);
  const backup = [...storage.items.keys()].find((key) => key.startsWith(`${STORAGE_KEY}.damaged.`));
  assert.equal(storage.getItem(backup), "{\"rollbook\": 1, \"log\": 7}");
});

test("a full storage keeps the roll in memory and says so", () => {
  const storage = new MemoryStorage();
  const store = new KeptStore(storage);
  storage.full = true;
  store.addRoll(roll("a"));
  assert.equal(store.log.length, 1);
  assert.match(store.problem, /could not save in this browser .*export your data/);
});

test("an encounter is kept with its undo states, and a bad one is refused with its path", () => {
  const cases = [
    [{ current: fight(1, { encounter: 2 }) }, /^encounter\.current\.encounter: not an encounter of version 1, found 2/],
    [{ current: fight(1, { rules: "d&d" }) }, /^encounter\.current\.rules: expected "opencore" or "cyno", found "d&d"/],
    [{ current: fight(-1) }, /^encounter\.current\.round: expected a number from 0/],
    [{ current: fight(1, { combatants: [{ id: "p1", name: 5 }] }) }, /^encounter\.current\.combatants\[0\]\.name: expected text, found 5/],
    [{ current: fight(1, { combatants: [{ id: "p1", name: "A" }, { id: "p1", name: "B" }] }) }, /^encounter\.current\.combatants\[1\]\.id: "p1" is used twice/],
    [{ undo: [fight(0), "x"] }, /^encounter\.undo\[1\]: expected a group of values, found "x"/],
    [{ undo: Array.from({ length: MAX_UNDO + 1 }, () => fight(0)) }, /^encounter\.undo: at most 20 entries/],
    [{ full: { p1: { armor: -1, toughness: 0 } } }, /^encounter\.full\.p1\.armor: expected a number from 0/],
    [{ seed: 1.5 }, /^encounter\.seed: expected a whole number, found 1\.5/],
    [{ current: fight(1, { log: Array.from({ length: 900 }, () => ({ text: "x".repeat(80) })) }) }, /^encounter\.current: \d+ characters, more than the engine takes \(64000\)/],
  ];
  for (const [overrides, message] of cases) {
    const file = JSON.stringify({ rollbook: 1, encounter: running(overrides) });
    assert.throws(() => parseKeptFile(file), (error) => error instanceof KeptError && message.test(error.message), JSON.stringify(overrides).slice(0, 60));
  }
  const storage = new MemoryStorage();
  const store = new KeptStore(storage);
  store.saveEncounter(running());
  assert.deepEqual(new KeptStore(storage).encounter, running()); // a reload reads the same
  assert.throws(() => store.saveEncounter(running({ current: null })), (error) => error instanceof KeptError && /^encounter\.current: expected a group of values/.test(error.message));
  assert.deepEqual(store.encounter, running()); // a refused save changes nothing
  const undoClear = store.clearEncounter();
  assert.equal(new KeptStore(storage).encounter, null);
  undoClear();
  assert.deepEqual(new KeptStore(storage).encounter, running());
  assert.equal(checkKept({ rollbook: 1 }).encounter, null); // files from before encounters have none
});

test("an imported encounter takes the kept one's place, which Undo can bring back", () => {
  const have = running();
  const coming = running({ current: fight(5), undo: [fight(4)], full: { o1: { armor: 0, toughness: 0 } } });
  const base = { log: [], characters: [], active: null };
  const { kept: merged, added } = mergeKept({ ...base, encounter: have }, { ...base, encounter: coming });
  assert.equal(added.encounter, 1);
  assert.deepEqual(merged.encounter.current, fight(5));
  assert.deepEqual(merged.encounter.undo, [fight(4), fight(2)]); // the kept one is the newest undo
  assert.deepEqual(merged.encounter.full, { p1: { armor: 40, toughness: 5 }, o1: { armor: 0, toughness: 0 } });
  const again = mergeKept({ ...base, encounter: have }, { ...base, encounter: have });
  assert.deepEqual([again.added.encounter, again.skipped.encounter], [0, 1]);
  assert.deepEqual(again.kept.encounter, have); // the same encounter: nothing changes
  assert.deepEqual(mergeKept({ ...base, encounter: have }, { ...base, encounter: null }).kept.encounter, have);
  const full = running({ current: fight(30), undo: Array.from({ length: MAX_UNDO }, (_, i) => fight(i)) });
  assert.equal(mergeKept({ ...base, encounter: have }, { ...base, encounter: full }).kept.encounter.undo.length, MAX_UNDO);
});

const goblin = (id, overrides = {}) => ({
  id, name: "Goblin", rules: "opencore", side: "foes", weapon: "Knife", armor_name: null,
  score: { con: 30, dex: 60, hp: 12, attack_skill: 35, defense_skill: 25 }, created: "2026-11-30T18:00:00.000Z", ...overrides,
});

test("a kept value of format 1 (before foe templates) is brought forward: everything in it kept, no foes", () => {
  const before = { rollbook: 1, log: [roll("a")], characters: [character("c")], active: "c", encounter: running() };
  const storage = new MemoryStorage({ [STORAGE_KEY]: JSON.stringify(before) });
  const store = new KeptStore(storage);
  assert.equal(store.problem, null);
  assert.deepEqual(store.foes, []);
  assert.deepEqual(store.log, [checkRoll(roll("a"))]);
  assert.equal(store.active.name, "Buck");
  assert.deepEqual(store.encounter, running());
  store.saveFoe(goblin("g"));
  const saved = JSON.parse(storage.getItem(STORAGE_KEY));
  assert.equal(saved.rollbook, 2); // written forward, in the format this version reads
  assert.deepEqual(new KeptStore(storage).foes, [goblin("g")]);
  assert.equal(parseKeptFile(JSON.stringify(before)).foes.length, 0); // an old export imports too
});

test("foe templates are checked, kept, replaced by id, exported, imported and deleted with an undo", () => {
  const cases = [
    [goblin("g", { rules: "d20" }), /^foes\[0\]\.rules: expected "opencore" or "cyno"/],
    [goblin("g", { name: " " }), /^foes\[0\]\.name: a foe needs a name/],
    [goblin("g", { score: { hp: "12" } }), /^foes\[0\]\.score\.hp: expected a whole number, found "12"/],
    [goblin("g", { score: { "hit points": 12 } }), /^foes\[0\]\.score\.hit points: not a score's name/],
  ];
  for (const [foe, message] of cases) {
    assert.throws(() => parseKeptFile(JSON.stringify({ rollbook: 2, foes: [foe] })), (error) => error instanceof KeptError && message.test(error.message));
  }
  const store = new KeptStore(new MemoryStorage());
  store.saveFoe(goblin("g"));
  store.saveFoe(goblin("g", { name: "Goblin chief" }));
  assert.deepEqual(store.foes.map((f) => f.name), ["Goblin chief"]);
  const other = new KeptStore(new MemoryStorage());
  other.saveFoe(goblin("o", { name: "Orc" }));
  const { added } = other.importText(store.exportText());
  assert.equal(added.foes, 1);
  assert.deepEqual(other.foes.map((f) => f.name), ["Orc", "Goblin chief"]);
  const undo = other.deleteFoe("o");
  assert.deepEqual(other.foes.map((f) => f.name), ["Goblin chief"]);
  undo();
  assert.deepEqual(other.foes.map((f) => f.name), ["Orc", "Goblin chief"]);
});
