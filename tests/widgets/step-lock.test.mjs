// Encounter steps from two tabs at once (widgets/step-lock.js) on Node's test runner, over
// storage that behaves as Chromium's localStorage does between tabs' processes: each tab reads
// its own copy, which hears of another tab's write only a little later (with a storage event).
import assert from "node:assert/strict";
import { test } from "node:test";

import { KeptStore, STORAGE_KEY } from "../../widgets/kept.js";
import { BEHIND, LOCK, StepLock } from "../../widgets/step-lock.js";
import { readings } from "./encounter-fixtures.mjs";

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One browser's localStorage as its tabs see it: `lag` ms before a write reaches the other tabs. */
class Browser {
  constructor(lag) { this.lag = lag; this.truth = new Map(); this.tabs = []; }
  tab() {
    const browser = this;
    const copy = new Map(this.truth);
    const tab = {
      copy,
      store: null,
      storage: {
        get length() { return copy.size; },
        key: (i) => [...copy.keys()][i] ?? null,
        getItem: (key) => (copy.has(key) ? copy.get(key) : null),
        setItem(key, value) {
          copy.set(key, value);
          browser.truth.set(key, value);
          for (const other of browser.tabs.filter((t) => t !== tab)) {
            setTimeout(() => { other.copy.set(key, value); if (key === STORAGE_KEY) other.store.reload(); }, browser.lag);
          }
        },
        removeItem(key) { copy.delete(key); browser.truth.delete(key); },
      },
    };
    tab.store = new KeptStore(tab.storage);
    this.tabs.push(tab);
    return tab;
  }
  stored() { return JSON.parse(this.truth.get(STORAGE_KEY)); }
}

/** navigator.locks for one lock name: each request waits for the one before it. */
function locks() {
  let last = Promise.resolve();
  return {
    request(name, fn) {
      assert.equal(name, LOCK);
      const run = last.then(fn);
      last = run.catch(() => {});
      return run;
    },
  };
}

/** IndexedDB's record, as every tab reads it: the same, at once. */
function mark() {
  let value = null;
  return { read: async () => value, write: async (next) => { value = structuredClone(next); } };
}

let tick = 0;
const now = () => new Date(Date.UTC(2026, 11, 1) + 1000 * ++tick).toISOString();
const fighter = (id, name) => ({
  id, name, side: id, initiative: null, con: 46, dex: 33, str: 80, hp: 30, hp_max: 30, armor: 40, armor_name: null,
  toughness: 5, fortitude: 0, attack_skill: 50, defense_skill: 30, weapon: null, stabilized: false, acted: false, effects: [],
});
const state = (round) => ({
  encounter: 1, rules: "opencore", initiative: "individual", rulings: readings("opencore"), round, turn: null, order: [],
  combatants: [fighter("p1", "Buck"), fighter("o1", "Orc")], log: [], logged: 0,
});

/** One step as the tracker makes it: read the encounter, ask the engine (a moment), keep the answer. */
async function nextRound(store) {
  store.reload();
  const fight = store.encounter;
  await wait(2);
  store.saveEncounter({ ...fight, current: state(fight.current.round + 1), undo: [...fight.undo, fight.current], updated: now() }, { after: fight.current });
  return "kept";
}

function twoTabs({ lag = 30, withMark = true, catchUpMs = 1000, clock = () => Date.now() } = {}) {
  const browser = new Browser(lag);
  const first = browser.tab();
  first.store.saveEncounter({ current: state(0), undo: [], full: {}, seed: null, updated: now() });
  const second = browser.tab(); // opened after: its copy has the encounter
  const shared = { locks: locks(), mark: withMark ? mark() : null, catchUpMs, now, clock };
  return { browser, first, second, lock: (tab) => new StepLock(tab.store, shared), mark: shared.mark };
}

test("two tabs stepping at the same moment: both steps kept, the second made from the first's", async () => {
  const { browser, first, second, lock } = twoTabs();
  const behind = () => "behind";
  const results = await Promise.all([lock(first).run(() => nextRound(first.store), behind), lock(second).run(() => nextRound(second.store), behind)]);
  assert.deepEqual(results, ["kept", "kept"]);
  const kept = browser.stored().encounter;
  assert.equal(kept.current.round, 2);
  assert.deepEqual(kept.undo.map((s) => s.round), [0, 1]); // nothing lost
  await wait(60);
  for (const tab of [first, second]) assert.deepEqual(tab.store.encounter, kept); // both show it
});

test("without the mark, the lock alone loses a step to the second tab's older copy (what the mark is for)", async () => {
  const { browser, first, second, lock } = twoTabs({ withMark: false });
  await Promise.all([lock(first).run(() => nextRound(first.store)), lock(second).run(() => nextRound(second.store))]);
  assert.deepEqual(browser.stored().encounter.undo.map((s) => s.round), [0]); // round 1 made twice: one lost
});

test("a tab whose copy never catches up refuses the step plainly, then goes on from what it shows", async () => {
  const { browser, first, second, lock, mark } = twoTabs({ lag: 10_000, catchUpMs: 50 });
  await lock(first).run(() => nextRound(first.store), () => "behind");
  const started = Date.now();
  assert.equal(await lock(second).run(() => nextRound(second.store), () => "behind"), "behind");
  assert.ok(Date.now() - started < 1000); // a bounded wait
  assert.equal(browser.stored().encounter.current.round, 1); // nothing written over the first tab's step
  assert.equal((await mark.read()).updated, second.store.encounter.updated); // taken as it is
  assert.equal(await lock(second).run(() => nextRound(second.store), () => "behind"), "kept");
  assert.match(BEHIND, /another tab's last step on this encounter has not reached this tab yet/);
});

test("an ended encounter: a tab still showing it waits until it is gone; a new one started after goes on", async () => {
  const { browser, first, second, lock } = twoTabs({ lag: 20 });
  await lock(first).run(async () => { first.store.clearEncounter(); });
  // the second tab still shows the fight: its step waits for the end, then has nothing to step
  assert.equal(await lock(second).run(async () => (second.store.encounter ? nextRound(second.store) : "none"), () => "behind"), "none");
  assert.equal(browser.stored().encounter, null);
  await lock(second).run(async () => { second.store.saveEncounter({ current: state(0), undo: [], full: {}, seed: null, updated: now() }, { after: null }); });
  await wait(40);
  assert.equal(await lock(first).run(() => nextRound(first.store), () => "behind"), "kept");
  assert.equal(browser.stored().encounter.current.round, 1);
});

test("with no Web Locks the step runs as it is; with no IndexedDB, under the lock alone", async () => {
  const { first } = twoTabs();
  assert.equal(await new StepLock(first.store, { locks: null }).run(() => nextRound(first.store)), "kept");
  const failing = { read: async () => { throw new Error("no IndexedDB"); }, write: async () => { throw new Error("no IndexedDB"); } };
  assert.equal(await new StepLock(first.store, { locks: locks(), mark: failing }).run(() => nextRound(first.store)), "kept");
  assert.equal(first.store.encounter.current.round, 2);
});

test("a mark older than the wait is not waited for: storage cleared since is taken as it is (a new encounter starts at once)", async () => {
  let ms = 0;
  const { browser, first, lock } = twoTabs({ catchUpMs: 5000, clock: () => ms });
  await lock(first).run(() => nextRound(first.store), () => "behind"); // the mark: round 1 kept, at 0 ms
  for (const tab of browser.tabs) tab.copy.clear(); // the site's data cleared (IndexedDB's mark stays)
  browser.truth.clear();
  first.store.reload();
  ms = 60_000; // a minute later
  const started = Date.now();
  const begun = await lock(first).run(async () => {
    first.store.saveEncounter({ current: state(0), undo: [], full: {}, seed: null, updated: now() }, { after: null });
    return "started";
  }, () => "behind");
  assert.equal(begun, "started");
  assert.ok(Date.now() - started < 1000); // no wait for a fight storage will never show again
  assert.equal(browser.stored().encounter.current.round, 0);
});
