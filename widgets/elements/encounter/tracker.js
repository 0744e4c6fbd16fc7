// <rollbook-encounter>: the encounter tracker of tools/encounter/. A fight is the engine's JSON
// (engine/rollbook/encounter/): every step (start, add, next, attack, damage, heal, effects, …)
// is one `encounter …` request with the current encounter, and the answer's encounter is the new
// state. The page computes no rule: it keeps the states and renders the answers.
//
// This module is the element: its state, one step (`step`), Undo, ending, and the page's
// outline. Its parts, one module each: start.js (the start form), add.js (adding a combatant),
// combatant.js (a combatant's card and its edits), actions.js (the acting combatant's attack and
// other actions), log.js (the last step's answer and the encounter's log), fields.js.
//
// Kept in this browser with everything else (widgets/kept.js `encounter`): the state now, the
// states before it (Undo takes the newest back, up to MAX_UNDO), each combatant's armor and
// Toughness when added (the bars' full length) and, for a seeded encounter (?seed=N when it was
// started), the next step's seed: the same steps then give the same dice on any device.

import { ask, newSeed } from "../../engine.js";
import { define, html, nothing, repeat, RollbookElement } from "../../element.js";
import { fieldInError, revealProblem } from "../../field-problem.js";
import { CHANGED_ELSEWHERE, KeptError, MAX_UNDO, put } from "../../kept.js";
import { readQuery } from "../../links.js";
import { keptNotice } from "../../kept-notice.js";
import { kept } from "../../session.js";
import { BEHIND, indexedDbMark, indexedDbOrNull, StepLock } from "../../step-lock.js";
import { given, tableRows } from "../../tool.js";
import { ADD_BLANK, addView } from "./add.js";
import { blankEdit, combatantView } from "./combatant.js";
import { rulingLink } from "./fields.js";
import { answerHere, logView, notKeptLine, stepView } from "./log.js";
import { RULES, START_CHOICES, startValues, startView } from "./start.js";

const MAX_SEED = Number.MAX_SAFE_INTEGER - 1_000_000;
// Every change to the encounter (a step, Undo, start, end, bringing it back), one at a time
// across this browser's tabs, each made from what the one before kept (step-lock.js says how).
const stepLock = new StepLock(kept, { mark: indexedDbOrNull() ? indexedDbMark() : null });

class EncounterTracker extends RollbookElement {
  connected() {
    this.status = new Map(); // id -> the engine's status for the state shown
    this.step = null; // the last step: {title, events, outcomes, at} (at: the form tapped, where its answer is shown)
    this.leaving = null; // the combatant the last step removed, {id, at}: its place among the cards (combatant.js)
    this.seen = null; // the kept encounter's \`updated\` as last drawn: what a tap was made on
    this.mine = null; // the \`updated\` of this tab's own last step
    this.said = ""; // the polite live region's text
    this.problem = null; // the last step's refusal: {form, message, fields} (form null: the page's own)
    this.busy = false;
    this.ended = null; // after "End encounter": the function that brings it back
    this.endedFight = null; // and the encounter it ended
    this.ending = false; // this tab's End under way: the fight it hears gone is its own doing
    this.endedElsewhere = null; // the words said when the fight shown went by no doing of this tab's (another tab's End, an import)
    this.start = startValues();
    this.add = { ...ADD_BLANK };
    this.edits = {}; // id -> the combatant's edit form values
    this.targets = {}; // attacker id -> chosen target id
    this.weapons = [];
    this.weaponModes = new Map();
    this.armors = [];
    this.typical = {}; // rule set -> the engine's typical combatant (rulings opencore- and cyno-typical-combatant)
    this.rulingTitles = null; // ruling id -> its title (a ruling is shown by its title)
    this.forgotten = null; // the foe templates just forgotten: {names, back}
    const { values, problems } = readQuery({ seed: "int" }, location.search, { seed: "seed" });
    // ?seed=N: a seeded encounter (for a demonstration, a test); each step takes the next seed, so
    // N must leave room below JavaScript's largest exact whole number for a long fight's steps
    const seeded = values.seed !== undefined && values.seed >= 0 && values.seed <= MAX_SEED;
    this.seed = seeded ? values.seed : null;
    this.seedProblem = problems.length || (values.seed !== undefined && !seeded)
      ? `The link's seed was left out, so this encounter's dice are not seeded: a seed is a whole number from 0 to ${MAX_SEED.toLocaleString("en")}.`
      : null;
    this.shownAt = null; // the kept encounter (its \`updated\`) the status was asked for
    this.listen(kept.watch(() => this.#refresh()));
    this.#tables();
    this.#refresh();
  }

  async #tables() {
    // asked all at once: the worker answers them in turn, with no round trip to this page between
    const [weapons, armors, rulings, ...rest] = await Promise.all([
      ask({ command: "table", args: { name: "opencore.weapons" } }),
      ask({ command: "table", args: { name: "opencore.armor" } }),
      ask({ command: "rulings", args: {} }),
      // the typical combatant's scores (the placeholders of blank fields) and the ruling they follow
      ...RULES.map(({ value: rules }) => ask({ command: "encounter typical", args: { rules } })),
      // Cyno: the strike charts' lines a player picks (the engine's rows, as on the combat helpers)
      tableRows("cyno.strike.bonuses"), tableRows("cyno.strike.penalties"),
    ]);
    const [typicals, charts] = [rest.slice(0, RULES.length), rest.slice(RULES.length)];
    this.weapons = weapons.ok ? weapons.result.rows.map((r) => r.weapon) : [];
    // a weapon's damage modes (the Assault Rifle's), the first its default: offered under "Attack options"
    this.weaponModes = new Map(weapons.ok ? weapons.result.rows.map((r) => [r.weapon, (r.modes ?? []).map((m) => m.mode)]) : []);
    this.armors = armors.ok ? armors.result.rows.map((r) => r.armor) : [];
    RULES.forEach(({ value: rules }, i) => { if (typicals[i].ok) this.typical[rules] = typicals[i].result; });
    this.rulingTitles = new Map(rulings.ok ? rulings.result.rulings.map((r) => [r.id, r.title]) : []);
    this.conditions = charts.flat().filter((row) => row.id);
    this.update();
    // A refusal shown before the charts came (a strike tapped as the page opened) had its field
    // brought into view, then pushed down out of it by their lines (a browser test): brought back,
    // while it still has the focus (the player has not moved on).
    requestAnimationFrame(() => {
      const field = document.activeElement;
      if (field && this.contains(field) && field.getAttribute("aria-invalid") === "true") field.scrollIntoView({ block: "center" });
    });
  }

  /** The kept encounter changed (a step, an import, another tab): ask for its status once. */
  async #refresh() {
    const fight = kept.encounter;
    // An encounter kept again (started or brought back, here or in another tab): the one this tab
    // ended cannot come back over it, and once that one is ended too, this tab's Bring it back
    // would have brought back an older fight than the one just ended (property seed 932855).
    if (fight && this.ended) [this.ended, this.endedFight] = [null, null];
    // The fight this tab showed went, and not by its own End: said where the fight was, so it
    // never vanishes from under the GM's thumb unexplained.
    if (!fight && this.seen !== null && !this.ending && !this.ended) {
      this.endedElsewhere = ENDED_ELSEWHERE;
      this.said = ENDED_ELSEWHERE;
      this.showAnswer(".rollbook-encounter__ended"); // (the fight it replaces was where the eyes were)
    }
    if (fight) this.endedElsewhere = null;
    this.update();
    if (!fight || this.shownAt === fight.updated) return;
    // Changed elsewhere (Undo, an import, another tab, a reload): the last step shown is not this one's.
    this.shownAt = fight.updated;
    this.step = null;
    this.said = "";
    const answer = await ask({ command: "encounter show", args: { encounter: fight.current } });
    if (kept.encounter?.updated !== fight.updated) return;
    if (answer.ok) this.statusFrom(answer.result.status);
    else this.refused(null, { message: `The kept encounter was refused: ${answer.error.message}` });
    this.said ||= answer.ok ? answer.result.text : "";
    this.update();
  }

  statusFrom(list) {
    this.status = new Map(list.map((s) => [s.id, s]));
  }

  /** The encounter as it is now. */
  current() {
    return kept.encounter.current;
  }

  /** A combatant's edit and action form values. */
  edit(id) {
    return (this.edits[id] ??= blankEdit());
  }

  // --- steps ----------------------------------------------------------------------------------

  /** One step: ask `command` with the current encounter; keep the answer's encounter and the
   *  previous one for Undo. Returns the answer's result, or null when refused (shown). */
  async run(command, args, options = {}) {
    if (this.busy || !kept.encounter) return null;
    const seen = this.seen; // the encounter the player saw when tapping
    // (where the platform has no locks, the store still refuses a step made from an older state: kept.js saveEncounter)
    return this.locked(() => this.#step(command, args, { ...options, seen }));
  }

  /** Whether a tap made on the encounter \`seen\` still applies to the kept \`fight\`: a second tap made
   *  before the first one's answer was drawn is not taken twice (quietly: its answer is on screen),
   *  and one made on a fight another tab has moved on is refused where it was made. */
  stillSeen(fight, seen, form) {
    if (seen === undefined || seen === null || fight.updated === seen) return true;
    if (fight.updated !== this.mine) {
      this.refused(form, { message: `Not kept: ${CHANGED_ELSEWHERE}` }); // as when the store refuses it (kept.js)
    }
    return false;
  }

  /** `change` (async) with the encounter to itself across tabs; null when this tab could not be
   *  brought up to date with another tab's last step (said at the page's top, `not` naming what
   *  was not done: "Not kept" for a step, "Not ended" for End, where "Not kept" read as nonsense). */
  locked(change, not = "Not kept") {
    return stepLock.run(change, () => {
      this.refused(null, { message: `${not}: ${BEHIND}.` });
      return null;
    });
  }

  async #step(command, args, { rolls = false, title = null, form = null, blame = null, alsoKeep = null, seen = null, words = null, onKept = null,
    leaving = null }) {
    kept.reload(); // what another tab kept, though its storage event may not have arrived yet
    const fight = kept.encounter;
    if (!fight) return this.#goneElsewhere(seen);
    if (this.busy || !this.stillSeen(fight, seen, form)) return null;
    this.busy = true;
    this.problem = null;
    this.update();
    const seed = rolls ? (fight.seed ?? newSeed()) : null;
    const answer = await ask({ command, args: { encounter: fight.current, ...given(args), ...(rolls ? { seed } : {}) } });
    this.busy = false;
    if (!answer.ok) {
      if (answer.error.reload) { // a newer deploy replaced this page's engine: no Retry can start it (deploy.js)
        this.refused(form, { message: NOT_DONE_UPDATED });
        return null;
      }
      // `blame`: the field a refusal naming none is about (the form's one number, e.g. an amount)
      // `words`: the refusal as said where no field of it is shown (a one-tap add: the name it gave)
      const error = answer.error.fields?.length || !blame ? answer.error : { ...answer.error, fields: [blame] };
      this.refused(form, words ? { message: words(error) } : error);
      return null;
    }
    const result = answer.result;
    const full = { ...fight.full };
    for (const c of result.encounter.combatants) {
      if (!fight.current.combatants.some((o) => o.id === c.id) && result.encounter.rules === "opencore") {
        put(full, c.id, { armor: c.armor, toughness: c.toughness }); // an own entry, even for the id "__proto__"
      }
    }
    for (const id of Object.keys(full)) if (!result.encounter.combatants.some((c) => c.id === id)) delete full[id];
    // its status is in this answer: no need to ask for it again (an encounter is known by when it
    // was kept: one read again from storage, another tab's roll kept, is the same encounter)
    const updated = new Date().toISOString();
    this.shownAt = updated;
    if (!this.keep({
      current: result.encounter,
      undo: [...fight.undo, fight.current].slice(-MAX_UNDO),
      full,
      seed: rolls && fight.seed !== null ? fight.seed + 1 : fight.seed,
      updated,
    }, fight.current, form)) return null;
    this.mine = updated;
    this.statusFrom(result.status);
    // `title`: the step's heading, or a function of the answer that words it (e.g. the name the engine gave)
    const heading = typeof title === "function" ? title(result) : title;
    this.step = { title: heading ?? result.events[0]?.text.split("\n")[0] ?? "Done", events: result.events,
                  outcomes: result.outcomes ?? [], at: form, notKept: this.#notKept() };
    this.leaving = leaving;
    // `alsoKeep`: what the step adds to the roll log, kept with the step, before the lock is let go
    // (an await): a reload in between kept the fight's step and lost its roll (a loaded CI run)
    alsoKeep?.(result, seed, this.step);
    // `onKept`: what the page changes with the step, drawn in the same frame as its answer (the add
    // form emptied: emptied after the lock was let go, it wiped a name typed since the answer showed)
    onKept?.(result);
    const outcome = this.step.outcomes.find((o) => `act-${o.id}` === form || `edit-${o.id}` === form);
    this.said = `${this.step.title}${outcome ? `: ${outcome.text}` : ""}. ${this.#turnWords(result.encounter)}${this.step.notKept ? ` ${this.step.notKept}` : ""}`;
    const held = this.#hold(form, leaving);
    this.update();
    this.showAnswer("[data-step-answer]", held);
    return { result, seed };
  }

  /** When storage refused the step just made (full, blocked: the store keeps it for this visit),
   *  the words said with its answer, where it was tapped: a step shown as done is not said kept
   *  by the page while the notice saying otherwise is off-screen. Null when it was kept. */
  #notKept() {
    return kept.saved ? null : `Not kept in this browser: ${kept.why ?? "its storage refused it"}. It is on this page until it is closed; Export to a file keeps it.`;
  }

  /** Once drawn, bring the last step's answer (where the tap was made) into view, as little as
   *  needed: it is drawn next to the tapped button, so this moves the page only when the answer
   *  would land off-screen (or under the Next bar: its scroll margin, encounter.css). */
  showAnswer(selector = "[data-step-answer]", held = null) {
    requestAnimationFrame(() => {
      // the part tapped stays where the thumb is, though lines were added above it (a target's outcome)
      const at = held && this.querySelector(`[data-anchor="${held.form}"]`);
      const moved = at ? at.getBoundingClientRect().top - held.top : 0;
      if (Math.abs(moved) >= 1) globalThis.scrollBy(0, moved);
      this.querySelector(selector)?.scrollIntoView({ block: "nearest" });
    });
  }

  /** Where the part of the page that `form` names (data-anchor) is now, to keep it there; for a
   *  combatant `leaving`, where its Remove is, for its answer to come there (leftView). */
  #hold(form, leaving = null) {
    const at = form && this.querySelector(leaving ? `li[data-id="${CSS.escape(leaving.id)}"] .rollbook-combatant__remove` : `[data-anchor="${form}"]`);
    return at ? { form, top: at.getBoundingClientRect().top } : null;
  }

  /** Keep `fight`, the step made from the encounter state `after` (when it is not the one
   *  stored now, another tab moved the fight on: refused, and the stored one is shown). A step
   *  another tab's step of the same instant came before, found only as the two are settled
   *  (kept/store.js), is refused then, where it was tapped (`form`). */
  keep(fight, after, form = null) {
    const onLost = (reason) => {
      if (this.mine !== fight.updated) return; // a later step of this tab's has been refused or said since
      this.mine = null;
      this.step = null;
      this.said = "Not kept.";
      this.refused(form, { message: `Not kept: ${reason}` });
    };
    try {
      kept.saveEncounter(fight, after === undefined ? { onLost } : { after, onLost });
      return true;
    } catch (error) {
      this.refused(null, { message: error instanceof KeptError ? `Not kept: ${error.message}` : String(error) });
      return false;
    }
  }

  /** Show a refusal (`error`: the engine's {message, fields}) at the form it is about, then move
   *  focus and view to the first field in error, or to the message when it names none. */
  refused(form, error) {
    this.problem = { form, message: error.message, fields: error.fields ?? [] };
    this.update();
    requestAnimationFrame(() => {
      const at = revealProblem(this, ".rollbook-problem[tabindex]");
      if (at?.matches(".rollbook-problem")) at.focus({ preventScroll: true }); // a message about no field takes the focus
    });
  }

  /** The refusal as `form` shows it (`fields`: its [argument, label, other arguments it answers for?] in order): `of(argument)`
   *  is the message for the field it is about, `line` the message alone when it is about none. */
  problemFor(form, fields = []) {
    this.drawnForms?.add(form);
    const problem = this.problem?.form === form ? this.problem : null;
    const blamed = problem ? fieldInError(problem, fields.map(([name, , args]) => ({ name, args })))?.name ?? null : null;
    return {
      of: (arg) => (problem && blamed === arg ? problem.message : null),
      line: problem && blamed === null
        ? html`<p class="rollbook-problem" role="alert" tabindex="-1" id=${`rollbook-enc-${form ?? "page"}-problem`}>${problem.message}</p>`
        : nothing,
    };
  }

  #turnWords(encounter) {
    const now = this.#active(encounter);
    if (encounter.round === 0) return "Before the first round.";
    return now ? `Round ${encounter.round}: ${now.name}'s turn.` : `Round ${encounter.round}.`;
  }

  #active(encounter) {
    if (encounter.turn === null || encounter.turn === undefined) return null;
    const id = encounter.order[encounter.turn];
    return encounter.combatants.find((c) => c.id === id) ?? null;
  }

  async #next() {
    const fight = kept.encounter;
    if (!fight) return this.#goneElsewhere(this.seen); // heard ended in another tab, not drawn yet
    const title = fight.current.round === 0 || this.#lastTurn(fight.current) ? "Initiative rolled" : null;
    const done = await this.run("encounter next", {}, { rolls: true, title, form: "next" });
    if (done) {
      // The heading says whose turn it is: the step shows only what else happened (initiative, bleeding, …);
      // what it did to each combatant (bleeding, an effect ended) is on the combatant's card.
      const turn = done.result.events.findLast((e) => e.kind === "turn");
      const rest = done.result.events.filter((e) => e !== turn);
      if (turn) this.said = `${turn.text}${this.step.notKept ? ` ${this.step.notKept}` : ""}`;
      const now = this.#active(done.result.encounter);
      this.step = { ...this.step, title: rest.length ? title ?? (now ? `${now.name}'s turn` : this.step.title) : null, events: rest, at: null };
      this.update();
      this.showAnswer("[aria-current='true']");
    }
  }

  #lastTurn(encounter) {
    return encounter.turn !== null && encounter.turn === encounter.order.length - 1;
  }

  #undo() {
    if (!kept.encounter?.undo.length || this.busy) return null;
    const seen = this.seen; // a quick second tap undoes one step, not two
    return this.locked(async () => {
      const fight = kept.encounter; // as the last step left it (it may have been in another tab)
      if (!fight) return this.#goneElsewhere(seen);
      if (!fight.undo.length || this.busy || !this.stillSeen(fight, seen, "next")) return;
      const previous = fight.undo.at(-1);
      const updated = new Date().toISOString();
      if (this.keep({ ...fight, current: previous, undo: fight.undo.slice(0, -1), updated }, fight.current, "next")) {
        this.mine = updated;
        this.problem = null;
        this.step = { title: "Undone", events: [], notKept: this.#notKept() };
        this.said = `Undone. ${this.#turnWords(previous)}${this.step.notKept ? ` ${this.step.notKept}` : ""}`;
      }
      this.update();
    });
  }

  /** A tap made on an encounter another tab ended meanwhile: refused, said at the page's top
   *  (the start form is what is shown now). Null. */
  #goneElsewhere(seen) {
    if (seen !== null && seen !== undefined) {
      this.refused(null, { message: NOT_KEPT_ENDED });
      this.said = "Not kept.";
    }
    return null;
  }

  /** End the encounter shown: only that one. One another tab kept a step on or started since the
   *  tap (heard or not yet, or written at the same instant and settled first) is kept and shown,
   *  and End is refused where it was tapped: the page said "Encounter ended." while the other
   *  tab's encounter stayed kept (issue 39). */
  #end() {
    const seen = this.seen; // the encounter the player saw when tapping End
    return this.locked(async () => {
      kept.reload(); // what another tab kept, though its storage event may not have arrived yet
      const fight = kept.encounter;
      if (!fight) { // ended in another tab meanwhile: nothing is left to end
        this.step = null;
        this.said = "Encounter ended in another tab.";
        this.update();
        return;
      }
      if (seen !== null && fight.updated !== seen) return this.#notEnded();
      this.ending = true;
      let back;
      try {
        back = kept.clearEncounter(fight);
        await kept.settled(); // settled across tabs: a write of the same instant may have come first
      } finally {
        this.ending = false;
      }
      if (kept.encounter) return this.#notEnded();
      this.endedFight = fight; // to tell, on Bring it back, whether it is this one that came back
      this.ended = back;
      this.step = null;
      this.problem = null;
      this.said = "Encounter ended.";
      this.update();
      // End is tapped far down the fight, which is gone now: "Encounter ended." and Bring it back
      // are brought to where the thumb is (they were 170 px above the screen after End)
      this.showAnswer(".rollbook-encounter__ended");
    }, "Not ended");
  }

  #notEnded() {
    this.step = null;
    this.refused(null, { message: NOT_ENDED });
    this.said = "Not ended.";
    this.update();
  }

  bringBack() {
    return this.locked(async () => {
      const [ended, back] = [this.endedFight, this.ended]; // (back is gone once another encounter is kept: #refresh)
      await back?.(); // the store brings it back only where no encounter is kept (another tab's is never replaced)
      const now = kept.encounter;
      if (!back || (now && ended && now.updated !== ended.updated)) {
        // another tab started or brought back an encounter meanwhile: that one is kept and shown, never replaced
        this.refused(null, { message: NOT_BROUGHT_BACK });
        this.said = "Not brought back.";
      } else {
        this.problem = null;
        this.said = "Encounter brought back.";
      }
      this.ended = null;
      this.endedFight = null;
      this.update();
    }, "Not brought back");
  }

  // --- the view -------------------------------------------------------------------------------

  view() {
    const fight = kept.encounter;
    this.seen = fight?.updated ?? null; // what a tap is made on (the unreadable encounter's End too)
    this.drawnForms = new Set(); // the forms this drawing shows a refusal at (problemFor)
    const view = html`
      ${this.engineNotice()}
      <p class="rollbook-visually-hidden" role="status" aria-live="polite">${this.said}</p>
      ${keptNotice(this)}
      ${!fight ? startView(this) : unreadable(fight.current) ? this.#unreadableView(unreadable(fight.current)) : this.#fightView(fight)}`;
    if (this.problem && this.problem.form !== null && !this.drawnForms.has(this.problem.form)) {
      // the form the refusal is about is gone from the page (another tab's Undo or step moved the
      // turn on, and the tapped Attack with it): said at the tracker's top, and brought into view
      this.problem = { ...this.problem, form: null, fields: [] };
      requestAnimationFrame(() => revealProblem(this, "#rollbook-enc-page-problem"));
      return this.view();
    }
    return view;
  }

  /** "Starting the dice engine…" next to the button just tapped, while a step waits for it. */
  waiting() {
    return this.busy && this.engine.state === "starting"
      ? html`<p class="rollbook-encounter__waiting" role="status">${this.engine.message ?? "Starting the dice engine…"}</p>`
      : nothing;
  }

  /** A kept encounter the page cannot draw: said plainly, with the way out (ending it, which can be
   *  brought back), never a page stopped by a TypeError. */
  #unreadableView(reason) {
    return html`<div class="rollbook-problem" role="alert">
      <p>The kept encounter could not be read (${reason}), so it is not shown. Export to a file keeps a copy of it; End the encounter starts another.</p>
      <button type="button" class="md-button" @click=${() => this.#end()}>End the encounter</button></div>`;
  }

  /** A combatant just removed: the step's answer in its card's place, until the next step, brought
   *  where its Remove was (showAnswer keeps the form it names there: #hold). Without it the answer
   *  went with the card, and the browser, keeping what was in view in place, brought what lay above
   *  the card under the finger (the add form's button, at 390 px). */
  #leftView(enc) {
    const leaving = this.leaving;
    if (!leaving || this.step?.at !== `edit-${leaving.id}` || enc.combatants.some((c) => c.id === leaving.id)) return null;
    return html`<li class="rollbook-combatant-left" data-anchor=${`edit-${leaving.id}`}>${
      answerHere(this.step, this.step.outcomes.find((o) => o.id === leaving.id))}</li>`;
  }

  #fightView(fight) {
    const enc = fight.current;
    const active = this.#active(enc);
    const ordered = [...enc.order.map((id) => enc.combatants.find((c) => c.id === id)).filter(Boolean),
      ...enc.combatants.filter((c) => !enc.order.includes(c.id))];
    // Each card keyed by its combatant: drawn by place, a fold opened on one card (Edit Troll)
    // was another's after the order changed (initiative rolled: Edit Goblin, open where the thumb
    // was). Drawn here, not by repeat() as lit renders: view() must know which forms it shows.
    const cards = ordered.map((c) => [c.id, combatantView(this, fight, c, c === active)]);
    const left = this.#leftView(enc);
    if (left) cards.splice(Math.min(this.leaving.at, cards.length), 0, [LEFT, left]);
    return html`
      <div class="rollbook-encounter__head">
        <h2 class="rollbook-encounter__now">${enc.round === 0 ? "Before the first round" : html`Round ${enc.round}${active ? html`: <span>${active.name}'s turn</span>` : nothing}`}</h2>
        <p class="rollbook-encounter__meta">${RULES.find((r) => r.value === enc.rules).label}${fight.seed !== null ? ` · seeded, next seed ${fight.seed}` : ""}</p>
      </div>
      ${this.problemFor(null).line}
      <div aria-live="off" aria-busy=${this.busy ? "true" : "false"} class="rollbook-encounter__answer">${this.step?.at ? nothing : stepView(this.step)}</div>
      ${enc.round === 0 ? addView(this, enc) : nothing /* before the first round: adding is the work, at the top */}
      ${enc.combatants.length ? nothing : html`<p>No combatants yet: add them above, then roll initiative.</p>`}
      <ol class="rollbook-combatants" aria-label="Combatants in turn order">
        ${repeat(cards, ([id]) => id, ([, card]) => card)}
      </ol>
      ${enc.round === 0 ? nothing : addView(this, enc)}
      ${logView(enc)}
      <details class="rollbook-encounter__more">
        <summary>Rulings and ending the encounter</summary>
        <ul class="rollbook-encounter__rulings">${START_CHOICES[enc.rules].map((c) => {
          const chosen = c.name === "initiative" ? enc.initiative : enc.rulings[c.name];
          return html`<li>${c.label}: ${c.options.find(([value]) => value === chosen)?.[1] ?? chosen}${c.ruling ? html` (${rulingLink(c.ruling, this.rulingTitles)})` : nothing}</li>`;
        })}</ul>
        <button type="button" class="md-button" @click=${() => this.#end()}>End the encounter</button>
      </details>
      ${this.problemFor("next").line}
      ${this.step?.notKept && !this.step.title ? notKeptLine(this.step) : nothing /* a Next whose answer is the heading alone */}
      ${this.waiting()}
      <div class="rollbook-encounter__bar">
        <button type="button" class="md-button rollbook-encounter__undo" ?disabled=${!fight.undo.length}
          @click=${() => this.#undo()}>Undo${fight.undo.length ? ` (${fight.undo.length})` : ""}</button>
        <button type="button" class="md-button md-button--primary rollbook-encounter__next" aria-busy=${this.busy ? "true" : "false"} @click=${() => this.#next()}>
          ${enc.round === 0 ? "Roll initiative" : this.#lastTurn(enc) ? "Next round" : "Next turn"}</button>
      </div>`;
  }
}

const LEFT = Symbol("a removed combatant's answer"); // its key among the cards: no combatant's id

const NOT_DONE_UPDATED = "Not done: Rollbook was updated on the site while this page was open. Reload the page, then tap again; "
  + "the encounter is kept as it was before this tap.";
const NOT_ENDED = "Not ended: another tab has kept a step on this encounter, or started another, since End was tapped; "
  + "it is the one shown here. End the encounter again to end it.";
const NOT_KEPT_ENDED = "Not kept: the encounter was ended in another tab before this step reached it; that tab's Bring it back brings it back.";
const ENDED_ELSEWHERE = "The encounter shown here was ended in another tab, or replaced by an import.";
const NOT_BROUGHT_BACK = "Not brought back: another tab has kept an encounter since this one was ended, and it is the one shown here; "
  + "the ended one was not put over it.";

/** Why the page cannot draw the kept encounter state `enc`, in a player's words, or null. What is
 *  kept is checked when it is read (kept.js checkEncounterState), but not yet every part drawn
 *  here: a state with no turn order, no rulings or a log entry that is none stopped the page with
 *  "Cannot read properties of undefined" (issue 39). */
function unreadable(enc) {
  if (!Object.hasOwn(START_CHOICES, enc.rules) || !RULES.some((r) => r.value === enc.rules)) return `its rules are neither ${RULES.map((r) => r.label).join(" nor ")}`;
  if (!Array.isArray(enc.order)) return "its turn order is missing";
  if (typeof enc.rulings !== "object" || enc.rulings === null || Array.isArray(enc.rulings)) return "its rulings are missing";
  if (!Array.isArray(enc.log) || !enc.log.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) return "its log has an entry that is not one";
  return null;
}

define("rollbook-encounter", EncounterTracker);
