// Table mode's wake lock (widgets/table-mode.js) over fakes of the Screen Wake Lock API, the
// document's visibility and localStorage: taken when asked, taken back when the tab returns,
// let go when switched off, remembered across reloads, and a refusal said in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ScreenAwake, TABLE_MODE_KEY } from "../../widgets/table-mode.js";

class FakeSentinel extends EventTarget {
  constructor() { super(); this.released = false; }
  async release() { if (!this.released) { this.released = true; this.dispatchEvent(new Event("release")); } }
}

class FakeWakeLock {
  constructor({ refuse = null } = {}) { this.sentinels = []; this.refuse = refuse; }
  async request(type) {
    assert.equal(type, "screen");
    if (this.refuse) throw new Error(this.refuse);
    const sentinel = new FakeSentinel();
    this.sentinels.push(sentinel);
    return sentinel;
  }
}

class FakeDocument extends EventTarget {
  constructor() { super(); this.visibilityState = "visible"; }
  show(state) { this.visibilityState = state; this.dispatchEvent(new Event("visibilitychange")); }
}

class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.get(key) ?? null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("off by default; on takes the wake lock, off releases it", async () => {
  const wakeLock = new FakeWakeLock();
  const awake = new ScreenAwake({ wakeLock, doc: new FakeDocument(), storage: new MemoryStorage() });
  assert.equal(awake.supported, true);
  assert.equal(awake.wanted, false);
  assert.equal(wakeLock.sentinels.length, 0);
  await awake.on();
  assert.equal(awake.held, true);
  await awake.off();
  assert.equal(awake.held, false);
  assert.equal(wakeLock.sentinels[0].released, true);
});

test("the browser lets go when the tab is hidden; it is taken again when the tab is visible", async () => {
  const wakeLock = new FakeWakeLock();
  const doc = new FakeDocument();
  const awake = new ScreenAwake({ wakeLock, doc, storage: new MemoryStorage() });
  await awake.on();
  doc.show("hidden");
  await wakeLock.sentinels[0].release(); // what the browser does on hiding
  assert.equal(awake.held, false);
  assert.equal(wakeLock.sentinels.length, 1, "not taken while hidden");
  doc.show("visible");
  await settle();
  assert.equal(wakeLock.sentinels.length, 2);
  assert.equal(awake.held, true);
});

test("switched off, a returning tab does not take it again", async () => {
  const wakeLock = new FakeWakeLock();
  const doc = new FakeDocument();
  const awake = new ScreenAwake({ wakeLock, doc, storage: new MemoryStorage() });
  await awake.on();
  await awake.off();
  doc.show("visible");
  await settle();
  assert.equal(wakeLock.sentinels.length, 1);
});

test("the choice is remembered: a reload with table mode on takes the lock by itself", async () => {
  const storage = new MemoryStorage();
  await new ScreenAwake({ wakeLock: new FakeWakeLock(), doc: new FakeDocument(), storage }).on();
  assert.equal(storage.getItem(TABLE_MODE_KEY), "on");
  const wakeLock = new FakeWakeLock();
  const again = new ScreenAwake({ wakeLock, doc: new FakeDocument(), storage });
  await settle();
  assert.equal(again.wanted, true);
  assert.equal(wakeLock.sentinels.length, 1);
});

test("a refusal is said in words and tried again when the tab returns", async () => {
  const wakeLock = new FakeWakeLock({ refuse: "Battery saver is on" });
  const doc = new FakeDocument();
  const awake = new ScreenAwake({ wakeLock, doc, storage: new MemoryStorage() });
  await awake.on();
  assert.equal(awake.held, false);
  assert.equal(awake.wanted, true);
  assert.match(awake.problem, /cannot be kept awake now \(Battery saver is on\)/);
  wakeLock.refuse = null;
  doc.show("visible");
  await settle();
  assert.equal(awake.held, true);
  assert.equal(awake.problem, null);
});

test("without the API it is unsupported and never asks", async () => {
  const awake = new ScreenAwake({ wakeLock: null, doc: new FakeDocument(), storage: new MemoryStorage() });
  assert.equal(awake.supported, false);
  assert.equal(awake.wanted, false);
});

test("listeners hear every change, and stop hearing once unwatched", async () => {
  const awake = new ScreenAwake({ wakeLock: new FakeWakeLock(), doc: new FakeDocument(), storage: new MemoryStorage() });
  const heard = [];
  const unwatch = awake.watch((a) => heard.push(a.held));
  await awake.on();
  await awake.off();
  unwatch();
  await awake.on();
  assert.deepEqual(heard, [true, false, false]); // taken; released (the sentinel's event, then off's own)
});
