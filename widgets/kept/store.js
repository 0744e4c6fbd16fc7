// The kept state in this browser: one JSON value under one key of localStorage, so a save is all
// or nothing; every change a step applied to what is stored now, settled across tabs under a Web
// Lock; storage that is full, blocked or holds a damaged value said in a player's words, and a
// damaged value set aside, never written over. No DOM here: Node's test runner checks it.

import { exportKept, mergeKept, parseKeptFile } from "./file.js";
import { checkCharacter, checkEncounter, checkFoe, checkKept, checkRoll, FORMAT, KeptError, MAX_CHARACTERS, MAX_FOES, MAX_LOG } from "./schema.js";
import { CHANGED_ELSEWHERE, EXPORT_HINT, placeWords, WHY } from "./words.js";

export const STORAGE_KEY = "rollbook.kept.v1";

const empty = () => ({ log: [], characters: [], active: null, foes: [], encounter: null });

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
// Every value written also names the value it descends from (`root`): the first one no store of
// this version wrote (a hand edit, an older version's tab, a test's own fight; hashed, so every
// tab names it alike) or none. The last holder's value is only gone on from while storage holds
// its line: one put there by other means since is what there is (CI, 2026-12-06: a step was
// settled on the last holder's value from before, and the encounter storage held was lost).
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
    this.from = null; // the stamp of the last settled value that stored value holds every change of
    this.root = EMPTY_ROOT; // the value that stored value descends from (see above)
    this.watchers = new Set();
    this.saved = true;
    this.trouble = null;
    this.why = null;
    this.problem = null;
    this.damaged = null; // {text, where, aside, encounter}: a stored value that could not be read (encounter: only its encounter, the rest read)
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
      [this.written, this.from, this.root] = [null, null, EMPTY_ROOT];
      return this.base;
    }
    try {
      const value = JSON.parse(raw);
      const state = checkKept(value);
      this.raw = raw;
      this.base = state; // what is stored, as read
      this.written = typeof value?.written === "string" ? value.written : null;
      this.from = typeof value?.settled === "string" ? value.settled : null;
      this.root = typeof value?.root === "string" && this.written !== null ? value.root : rootOf(raw);
      return state;
    } catch (error) {
      // where, in the player's words (the backup's key is for whoever recovers it, not for them)
      const where = error instanceof KeptError && error.path ? `${placeWords(error.path)}: ${error.reason}` : "it is damaged";
      const rest = withoutEncounter(raw, error);
      // (the encounter alone: "The kept encounter could not be read (turn order: is missing)")
      this.damaged = { text: raw, where: rest ? where.replace(/^the encounter, /, "") : where, aside: this.#setAside(raw), encounter: rest !== null };
      this.raw = raw;
      this.root = rootOf(raw); // what is written next descends from it, not from the last holder's value
      this.#sayDamaged();
      if (rest !== null) this.base = rest; // what is stored, as far as it can be read
      return rest;
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
    const { where, aside, encounter } = this.damaged;
    const what = `${encounter ? "The kept encounter" : "What this browser kept before"} could not be read${where ? ` (${where})` : ""}`;
    if (aside) {
      [this.trouble, this.why] = ["damaged", null];
      this.problem = encounter
        ? `${what}, so it is not shown. It was set aside in this browser, not deleted: Export the unreadable copy gives it as a file. Everything else kept is here.`
        : `${what}. It was set aside in this browser, not deleted: Export the unreadable copy gives it as a file. Rollbook starts afresh.`;
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
    this.#forgetDamagedLetGo();
    this.#notify();
  }

  /** Another tab let go of the damaged value this one says (its copy forgotten, Start afresh, or
   *  the site's storage cleared): no longer said here either. Said on while a copy is set aside
   *  or the value is stored as it was, as a page load would find it. */
  #forgetDamagedLetGo() {
    const stored = this.#stored();
    if (!this.damaged || stored === undefined || stored === this.damaged.text || this.#backups().length) return;
    this.damaged = null;
    if (this.trouble === "damaged") [this.trouble, this.why, this.problem] = [null, null, null];
  }

  /** Reload when storage holds another value than the one this state was read from (nothing
   *  said to the watchers otherwise). */
  catchUp() {
    if (this.#stored() !== this.raw) this.reload();
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
    const lost = []; // changes said kept that no longer apply (another tab's change of the same instant came first)
    for (const change of steps) {
      try { next = change.step(next); } catch (error) { lost.push({ ...change, error }); }
    }
    // what is shown stays the same object where it is the same value (an encounter shown is not
    // taken for one changed elsewhere: encounter/tracker.js)
    for (const part of Object.keys(next)) {
      if (JSON.stringify(next[part]) === JSON.stringify(this.state[part])) next = { ...next, [part]: this.state[part] };
    }
    // written even when nothing changed: storage may hold another tab's write of the same instant
    if (!this.#write(next, steps.at(-1).what)) { this.saved = false; this.#notify(); return; }
    for (const { what, error, onLost } of lost) {
      const reason = error instanceof KeptError ? error.message : String(error?.message ?? error);
      if (onLost) onLost(reason); // said where it was made (the encounter's step: tracker.js)
      else this.problem = `${what[0].toUpperCase()}${what.slice(1)} was not kept: ${reason}.`;
    }
    if (lost.length || Object.keys(next).some((part) => next[part] !== this.state[part])) {
      this.state = next;
      this.#notify();
    }
    await this.#writeMark({ written: this.written, text: this.raw, at: this.clock() });
  }

  /** What the last holder settled (`last`: {written, text, at} from the mark), or what storage
   *  shows when it shows that already or a value made from it (a change written at once whose
   *  settling a reload cut short: CI, 2026-12-05), or there is none, or it is older than a write
   *  takes to reach every tab, or storage holds a value no store of this version wrote (no
   *  stamp) or none (then storage changed since by other means: the site's data cleared, a
   *  value set aside, an older version's tab; the last holder's value would undo that change:
   *  an encounter lost with a step said kept, CI 2026-12-06), or storage holds a value settled
   *  after the mark (its holder gone before writing the mark), or the mark cannot be read.
   *  (A tab that read storage empty goes on from a mark of the same line under SETTLED_FOR_MS
   *  old: it cannot tell storage it had not heard yet from storage emptied by other means, and
   *  only the first loses nothing said kept; clearing the site's data clears the mark too.) */
  #settledBase(last) {
    const fresh = this.#fresh();
    if (this.raw === null) return fresh;
    if (!last || typeof last.text !== "string" || last.written === this.written || last.written === this.from) return fresh;
    if (typeof last.at !== "number" || !(this.clock() - last.at <= SETTLED_FOR_MS)) return fresh;
    // storage holds a value settled after the mark was written: a holder's page was gone between
    // its two writes (storage, then the mark), and the mark is the older of the two (a browser
    // property test: a step that storage held and a reload showed was written over)
    if (settledAfter(this.from, last.written)) return fresh;
    try {
      const value = JSON.parse(last.text);
      if (value?.root !== this.root) return fresh; // storage was given another value since: that one is what there is
      return checkKept(value);
    } catch {
      return fresh;
    }
  }

  async #readMark() {
    try {
      return this.mark ? await this.mark.read() : null;
    } catch (error) { // no mark: the lock alone (said on the console: a change of the same instant may be lost)
      console.warn("rollbook: the kept mark could not be read; settling by the lock alone", error);
      return null;
    }
  }

  async #writeMark(mark) {
    try {
      if (this.mark) await this.mark.write(mark);
    } catch (error) {
      console.warn("rollbook: the kept mark could not be written; the next holder settles by storage alone", error);
    }
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
  #change(step, what, { allOrNothing = false, unlessBlocked = false, onLost = null } = {}) {
    const base = this.saved ? this.#fresh() : this.state;
    let next;
    try {
      next = step(base);
    } catch (error) {
      if (base !== this.state) { this.state = base; this.#notify(); } // show what refused it
      throw error;
    }
    const saved = this.#write(next, what, this.from); // (made from what was read: #fresh)
    if (!saved && allOrNothing && !(unlessBlocked && this.trouble === "blocked")) {
      if (base !== this.state) { this.state = base; this.#notify(); }
      throw new KeptError(`nothing was kept: ${this.why}`);
    }
    this.state = next;
    this.saved = saved;
    this.#notify();
    if (saved && this.locks) { // settled under the lock (above): made again if another tab's write undid it
      this.pending.push({ step, what, onLost });
      this.#settle();
    }
    return saved;
  }

  /** Write `state`; `from`: the stamp of the last settled value it holds every change of (null:
   *  none, it was made from no settled value; left out: it is one itself, settled under the lock).
   *  A value written at once from none (storage empty, or a value with no stamp) claims no stamp:
   *  it once claimed its own, so it looked settled after a holder's mark of the millisecond
   *  before that its tab had not heard yet, and the next settling went on from it and lost that
   *  holder's change, said kept (a browser test, 2026-12-07). */
  #write(state, what, from = undefined) {
    if (this.trouble === "blocked" && !this.storage) return this.#notKept(what);
    if (this.damaged && !this.damaged.aside) {
      this.damaged.aside = this.#setAside(this.damaged.text);
      if (!this.damaged.aside) return this.#notKept(what, "damaged");
      this.#sayDamaged();
    }
    const written = `${new Date(this.clock()).toISOString()}~${Math.random().toString(36).slice(2, 10)}`;
    const settled = from === undefined ? written : from;
    const text = JSON.stringify({ rollbook: FORMAT, written, settled, root: this.root, ...state });
    try {
      this.storage.setItem(this.key, text);
    } catch (error) {
      return this.#notKept(what, quota(error) ? "full" : "blocked");
    }
    this.raw = text;
    this.base = state;
    this.written = written;
    this.from = settled;
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
   *  (in the same write); `onLost(reason)`: another tab's change of the same instant, settled
   *  first, left no room for it. */
  saveCharacter(character, { orActive = false, onLost = null } = {}) {
    const checked = checkCharacter(character);
    this.#putIn("characters", checked, MAX_CHARACTERS, "characters", checked.name,
      (s) => (orActive && s.active === null ? { ...s, active: checked.id } : s), onLost);
    return checked;
  }

  /** `checked` into the list `name`: in place of the entry with its id, else at the end (at most
   *  `most`); `then` changes the result further. */
  #putIn(name, checked, most, what, words, then = (s) => s, onLost = null) {
    this.#change((s) => {
      const entries = s[name];
      const replaces = entries.some((e) => e.id === checked.id);
      if (!replaces && entries.length >= most) throw new KeptError(`at most ${most} ${what} are kept; delete one first`);
      return then({ ...s, [name]: replaces ? entries.map((e) => (e.id === checked.id ? checked : e)) : [...entries, checked] });
    }, words, { onLost });
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
   *  the change is refused and the stored encounter is shown: at once (thrown), or, when another
   *  tab's change of the same instant is settled first, `onLost(reason)` once it is known. */
  saveEncounter(encounter, { after, onLost = null } = {}) {
    const checked = checkEncounter(encounter);
    const text = JSON.stringify(checked);
    this.#change((s) => {
      if (s.encounter && JSON.stringify(s.encounter) === text) return s; // made already (settled again)
      if (after !== undefined && JSON.stringify(s.encounter?.current ?? null) !== JSON.stringify(after)) {
        throw new KeptError(CHANGED_ELSEWHERE, { reason: "changed elsewhere" });
      }
      return { ...s, encounter: checked };
    }, "the encounter's last step", { onLost });
    return checked;
  }

  /** Forget the encounter `before` (by default the one shown): one another tab kept since, a step
   *  or a new one, is not ended by this. Returns the function that brings it back. */
  clearEncounter(before = this.state.encounter) {
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

/** The stored value `raw` read without its encounter, when the encounter alone is what `error`
 *  refused (one the page cannot draw: issue 39); else null. The rest is then shown and kept. */
function withoutEncounter(raw, error) {
  if (!(error instanceof KeptError) || !/^encounter\b/.test(error.path ?? "")) return null;
  try {
    return checkKept({ ...JSON.parse(raw), encounter: null });
  } catch {
    return null;
  }
}

/** `entry` back in `entries` where it was (at most `most`): an undone delete. */
function putBack(entries, entry, at, most) {
  const back = [...entries];
  back.splice(Math.min(at, back.length), 0, entry);
  return back.slice(0, most);
}

// The root of a value that comes from none (storage empty: two tabs' first changes are one line).
const EMPTY_ROOT = "empty";

/** Whether the stamp `a` (`written`: an ISO time, "~", a random tail) was made at a later
 *  millisecond than `b`; false when either is not a stamp or both share a millisecond. */
function settledAfter(a, b) {
  if (typeof a !== "string" || typeof b !== "string") return false;
  const [at, bt] = [a.split("~")[0], b.split("~")[0]];
  return at.length === 24 && bt.length === 24 && at > bt;
}

/** The root named by a value no store of this version wrote: its text hashed (FNV-1a, 32 bits,
 *  with its length), the same in every tab that reads it. */
function rootOf(raw) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < raw.length; i++) hash = Math.imul(hash ^ raw.charCodeAt(i), 0x01000193);
  return `text:${raw.length}:${(hash >>> 0).toString(16)}`;
}

/** A write refused for lack of room (else the browser refuses every write). */
function quota(error) {
  return error?.name === "QuotaExceededError" || error?.code === 22 || /quota/i.test(String(error?.message));
}

/** A new id for a roll or a character: random, so two devices never clash on import. */
export function newId() {
  return globalThis.crypto.randomUUID();
}
