// One encounter step at a time across this browser's tabs, each made from the encounter as the
// step before it left it.
//
// Web Locks put the steps in a line, but they do not carry what is kept: in Chromium every tab's
// process reads localStorage from its own copy, brought up to date by messages that may still be
// on their way when the lock reaches it, so a tab could make its step from the encounter before
// the other tab's, and keep it over that one (a step lost). So the lock holder, before it lets
// go, writes when the encounter it kept was updated (its `updated`) to IndexedDB, which every
// process reads from the browser's one copy, transaction after transaction; the next holder reads
// it first and, while its localStorage still shows an older encounter, waits for the storage
// event that brings the newer one (session.js reloads the store on it), at most CATCH_UP_MS.
// Should it never come, the step is refused, plainly, and the store's encounter taken as it is.
// A mark older than that wait (its `at`) is not waited for: a write reaches the other tabs in
// milliseconds, so storage that still does not show it was changed since by other means (the
// site's data cleared, a damaged value set aside), and what it shows is what there is.
//
// Why this and not the alternatives: a BroadcastChannel message naming the revision travels on
// its own channel and may arrive after the lock does (nothing orders the two), so it cannot say
// for certain that storage is behind; moving the encounter itself to IndexedDB would make the
// kept state two stores, read asynchronously, exported, imported and set aside in two places.
// One small IndexedDB record and a bounded wait keep kept.js as it is. Where IndexedDB is
// missing or refused (some private modes) the mark is skipped: the lock and kept.js's refusal of
// a step made from an older state are what is left.
//
// No DOM here (Node's test runner checks it with stand-ins for the locks, the mark and storage).

export const LOCK = "rollbook-encounter-step";
export const CATCH_UP_MS = 5000;
// How long a read or write of the mark may take (IndexedDB answers in milliseconds) before it is
// given up: the page goes on without it, settling by the lock alone, which can lose a change another
// tab made at the same instant (each tab's localStorage is its own copy, brought up to date by
// messages). So it is given up only when it is surely never coming (a CI run once waited 18
// minutes on one): a loaded phone's storage may take seconds, and 3 s was given up too soon for that.
const MARK_MS = 10_000;
export const BEHIND = "another tab's last step on this encounter has not reached this tab yet: try again";

const DB = "rollbook";
const MARKS = "marks";

/** This browser's IndexedDB, or null where there is none or its getter throws (some private modes). */
export function indexedDbOrNull() {
  try {
    return globalThis.indexedDB ?? null;
  } catch {
    return null;
  }
}

/** This browser's Web Locks, or null where there are none or their getter throws (a page of the
 *  site must still load: a throw here stopped the encounter's module, "a widget's module did not load"). */
export function locksOrNull() {
  try {
    return globalThis.navigator?.locks ?? null;
  } catch {
    return null;
  }
}

/** A lock holder's mark in IndexedDB, under `name`: `read()` and `write(mark)`. The encounter's
 *  ("encounter") is {updated} (when the encounter it kept was updated) or {ended} (when it ended
 *  the encounter); the kept store's ("kept", kept.js) is {written}, the stamp of its last write. */
export function indexedDbMark(idb = indexedDbOrNull(), name = "encounter") {
  let opened = null;
  const open = () => (opened ??= new Promise((resolve, reject) => {
    const request = idb.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(MARKS);
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => { db.close(); opened = null; }; // a newer version of the site upgrades it
      db.onclose = () => { opened = null; }; // the site's data cleared (by the player, elsewhere): open it again
      resolve(db);
    };
    request.onerror = () => { opened = null; reject(request.error); };
    request.onblocked = () => { opened = null; reject(new Error("blocked")); };
  }));
  const go = (mode, act) => {
    const done = (async () => {
      const db = await open();
      return new Promise((resolve, reject) => {
        const tx = db.transaction(MARKS, mode);
        const request = act(tx.objectStore(MARKS));
        tx.oncomplete = () => resolve(request.result); // committed: the next holder's read sees it
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    })();
    // A mark that does not come is no mark: the settling goes on by the lock alone, never held up
    // (the lock is held meanwhile, and every change of every tab waits for it).
    return Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), MARK_MS))]);
  };
  return {
    read: () => go("readonly", (marks) => marks.get(name)).then((value) => value ?? null),
    write: (mark) => go("readwrite", (marks) => marks.put(mark, name)),
  };
}

const time = (iso) => Date.parse(iso);

/** `store` (a KeptStore) shows what `mark` says was kept, or something kept after it. */
function caughtUp(store, mark) {
  const updated = store.encounter?.updated ?? null;
  if (mark.ended) return updated === null || time(updated) > time(mark.ended); // none, or one started since
  return updated !== null && time(updated) >= time(mark.updated);
}

/** The mark for what `store` shows now; `at`: when it was written (ms, this machine's clock). */
function markOf(store, now, at) {
  const updated = store.encounter?.updated ?? null;
  return updated ? { updated, at } : { ended: now, at };
}

export class StepLock {
  /** `locks`: navigator.locks (null: none); `mark`: indexedDbMark() or a stand-in (null: none). */
  constructor(store, { locks = locksOrNull(), mark = null, catchUpMs = CATCH_UP_MS, now = () => new Date().toISOString(), clock = () => Date.now() } = {}) {
    this.store = store;
    this.locks = locks;
    this.mark = mark;
    this.catchUpMs = catchUpMs;
    this.now = now;
    this.clock = clock;
  }

  /** Run `step` (async) holding the lock, once this tab shows what the last holder kept.
   *  `behind()` is called instead of `step` when it never arrives (its result is returned). */
  run(step, behind) {
    if (!this.locks) return step();
    return this.locks.request(LOCK, async () => {
      const mark = await this.#read();
      // (storage that failed in this tab is not what it shows: nothing to catch up with)
      const fresh = mark && typeof mark.at === "number" && this.clock() - mark.at <= this.catchUpMs;
      if (fresh && this.store.saved && !(await this.#catchUp(mark))) {
        await this.#write(markOf(this.store, this.now(), this.clock())); // taken as it is: the next tap goes on from it
        return behind();
      }
      try {
        return await step();
      } finally {
        await this.store.settled?.(); // the step written to storage (kept.js), not only shown
        // what this holder leaves kept, for the next (unless it is what the mark already says)
        const after = markOf(this.store, this.now(), this.clock());
        if (this.store.saved && !(mark && (after.updated ? after.updated === mark.updated : mark.ended))) await this.#write(after);
      }
    });
  }

  async #read() {
    try { return this.mark ? await this.mark.read() : null; } catch { return null; }
  }

  async #write(mark) {
    try { if (this.mark) await this.mark.write(mark); } catch { /* no mark: the lock alone */ }
  }

  /** Wait for storage events (each reloads the store) until it shows `mark`, or the time is up. */
  #catchUp(mark) {
    this.store.reload();
    if (caughtUp(this.store, mark)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (result) => { stop(); clearTimeout(timer); resolve(result); };
      const stop = this.store.watch(() => { if (caughtUp(this.store, mark)) done(true); });
      const timer = setTimeout(() => { this.store.reload(); done(caughtUp(this.store, mark)); }, this.catchUpMs);
    });
  }
}
