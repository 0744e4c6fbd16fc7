// <rollbook-character>: the OpenCore character generator of tools/character/. Roll a character
// (or type the scores rolled with real dice), reroll or lock one ability, and see the sheet the
// engine works out: COM rule, composites, saves with their exact chances, HP step by step.
// Characters are kept in this browser by name; the active one gives STR, CON, … to the dice in
// the rules text. A link with ?scores=…&hp_roll=… (or ?seed=…) shows the same character anywhere.
//
// The name field and the Keep button sit right under the roll's big numbers: roll, name, keep,
// with no scrolling on a phone; the scores and the whole sheet follow.
//
// What is kept is the player's inputs (the scores as rolled or typed, the HP roll, the readings the
// table chose for the rulings its saves and Perception follow): the sheet is asked of the engine
// again each time, so it can never go stale. Those readings fold away under More options, each
// by its words and its ruling's title; the kept character and its link carry them.

import { ask, newSeed } from "../engine.js";
import { define, html, nothing, ref, repeat, RollbookElement } from "../element.js";
import { fieldInError, labelled, revealProblem } from "../field-problem.js";
import { CHARACTER_RULINGS as RULINGS_FACTS } from "../facts.js";
import { CHARACTER_RULINGS, KeptError, namesInWords, newId } from "../kept.js";
import { keptNotice } from "../kept-notice.js";
import { fittingLink, readQuery } from "../links.js";
import { kept, SITE_ROOT } from "../session.js";
import { ABILITY_NAMES, sheetDetails, sheetSummary } from "./character-sheet.js";
import { select } from "./encounter/fields.js";
import { scoresText } from "./inline-roll.js";

const CODES = Object.keys(ABILITY_NAMES);
const HP = "hp_roll"; // the HP roll's field, next to the nine abilities
// The rulings a table may read the other way, in words: the ruling's reading first, then the
// alternative (the values of CHARACTER_RULINGS, in order); the Rulings page has each in full.
const READINGS = [
  { name: "save_direction", label: "A saving throw succeeds", words: ["At or below the composite", "At or above the composite"] },
  { name: "willpower_composite", label: "Willpower is rolled against", words: ["SDAC, as written", "IPW"] },
  { name: "perception", label: "A Perception roll succeeds", words: ["Higher than PER, as written", "At or below PER, like Awareness"] },
].map((reading) => ({ ...reading, ruling: RULINGS_FACTS[reading.name].ruling })); // the ruling's id, for its link
const BY_RULING = Object.fromEntries(READINGS.map((r) => [r.name, CHARACTER_RULINGS[r.name][0]])); // as the rulings read
const RULINGS_SECTION = "The GM's rulings";
const LINK = { name: "text", scores: "vars", hp_roll: "int", seed: "int", ...CHARACTER_RULINGS };
const LINK_LABELS = Object.fromEntries(READINGS.map((r) => [r.name, r.label]));
const PAGE = "tools/character/";
const WHOLE_NUMBER = /^\d+$/;

/** A character being made: the fields as typed (text), which abilities are locked, the readings
 *  chosen, and what it is. */
function blankDraft(name = "", readings = BY_RULING) {
  return {
    id: null, // the kept character this is, null until kept
    name,
    fields: Object.fromEntries([...CODES, HP].map((field) => [field, ""])),
    locked: new Set(),
    readings: { ...readings }, // ruling option -> the reading chosen (CHARACTER_RULINGS)
    seed: null, // the seed that rolled all of it, while nothing was rerolled or typed
    created: null,
  };
}

function draftOf(character) {
  return {
    id: character.id,
    name: character.name,
    fields: { ...Object.fromEntries(CODES.map((code) => [code, String(character.scores[code])])), [HP]: String(character.hp_roll) },
    locked: new Set(character.locked),
    readings: readingsOf(character.options), // kept before it had them: as the rulings read
    seed: character.seed,
    created: character.created,
  };
}

/** The readings in `options` (a kept character's, or a link's), each as the ruling reads where
 *  it has none. */
function readingsOf(options = {}) {
  return Object.fromEntries(Object.entries(BY_RULING).map(([name, reading]) => [name, options[name] ?? reading]));
}

/** The readings that differ from the rulings': what the engine and a link are told. */
function switched(readings) {
  return Object.fromEntries(Object.entries(readings).filter(([name, reading]) => reading !== BY_RULING[name]));
}

/** A field that is not a number at all (the engine checks the range of the ones that are). */
class FieldProblem extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

function label(field) {
  return field === HP ? "HP roll" : ABILITY_NAMES[field];
}

// What of the form a phone's first screen shows (the rest of the first drawing comes after that
// frame's paint: RollbookElement.drawsInTwo).
const FIRST_ROWS = 4;

class CharacterGenerator extends RollbookElement {
  static drawsInTwo = true;

  connected() {
    this.answer = null; // the engine's answer for the draft as it is now (null while fields are empty)
    this.problem = null; // {field, message}: what the last change got wrong
    this.notice = null; // {text, undo, deleted}: what the last keep/delete did
    this.busy = false;
    this.shared = false; // the draft came from a link, not from this browser
    this.asked = 0; // answers to older questions are dropped: the newest edit wins
    this.titles = new Map(); // ruling id -> its title: a ruling is shown by its title
    this.moreOpen = false; // whether More options is open
    this.moreDrawn = false; // whether its fields have been drawn (once it is first opened)
    this.listen(kept.watch(() => this.update()));
    ask({ command: "rulings", args: {} }).then((answer) => {
      if (answer.ok) this.titles = new Map(answer.result.rulings.map((r) => [r.id, r.title]));
      this.update();
    });
    // each composite's abilities, to name it on the sheet (asked before any sheet: the worker
    // answers in order, so the first sheet already has the names)
    this.composites = null; // code -> the ability codes it is made of
    ask({ command: "table", args: { name: "opencore.composites" } }).then((answer) => {
      if (answer.ok) this.composites = new Map(answer.result.rows.map((row) => [row.code, row.abilities]));
      this.update();
    });
    const { values, problems } = readQuery(LINK, location.search, LINK_LABELS);
    this.linkProblems = problems;
    if (values.scores || values.seed !== undefined) {
      this.draft = blankDraft(values.name ?? "", readingsOf(values));
      this.moreOpen = Object.keys(switched(this.draft.readings)).length > 0; // the link's readings in view
      this.shared = true;
      this.#ask({ scores: values.scores ? scoresText(values.scores) : "", hp_roll: values.hp_roll, seed: values.seed }, { fill: [...CODES, HP] });
    } else if (kept.active) {
      this.#open(kept.active);
    } else {
      this.draft = blankDraft();
    }
  }

  // --- asking the engine ---------------------------------------------------------------------

  /** The fields filled in, as the engine's arguments; `leaving` out the ones to roll afresh. */
  #given(leaving = []) {
    const scores = {};
    let hpRoll;
    for (const [field, raw] of Object.entries(this.draft.fields)) {
      const typed = raw.trim();
      if (!typed || leaving.includes(field)) continue;
      if (!WHOLE_NUMBER.test(typed)) throw new FieldProblem(field, `type the number rolled (1 to 100), found "${typed}"`);
      if (field === HP) hpRoll = Number(typed);
      else scores[field] = Number(typed);
    }
    return { scores: scoresText(scores), hp_roll: hpRoll };
  }

  /** Ask for the sheet; the fields named in `fill` take what the engine rolled for them; `tapped`:
   *  asked by a tap or by leaving a changed field, so a problem takes focus and view (a tap on a
   *  button just after typing leaves the field first, and its problem must not go unseen). */
  async #ask(args, { fill = [], tapped = false } = {}) {
    const asked = ++this.asked;
    this.busy = true;
    this.problem = null;
    this.update();
    const request = { scores: args.scores, ...switched(this.draft.readings) };
    if (args.hp_roll !== undefined) request.hp_roll = args.hp_roll;
    if (args.seed !== undefined) request.seed = args.seed;
    const answer = await ask({ command: "opencore character", args: request });
    if (asked !== this.asked) return; // a newer edit was made meanwhile
    this.busy = false;
    if (!answer.ok) {
      this.answer = null;
      this.problem = { field: fieldOf(answer.error), message: answer.error.message };
      this.update();
      if (tapped) this.#reveal();
      return;
    }
    for (const field of fill) this.draft.fields[field] = String(field === HP ? answer.result.hp_roll : answer.result.rolled[field]);
    const missing = this.#missing();
    this.answer = missing.length ? null : answer;
    this.update();
    if (tapped && this.answer) this.showAnswer(".rollbook-character__answer"); // HP and the composites on screen
  }

  #missing() {
    return [...CODES, HP].filter((field) => !this.draft.fields[field].trim());
  }

  /** Ask with the arguments `makeArgs` reads from the fields; a field that is not a number is
   *  shown as the problem instead. */
  #askWith(makeArgs, options) {
    let args;
    try {
      args = makeArgs();
    } catch (problem) {
      if (!(problem instanceof FieldProblem)) throw problem;
      this.answer = null;
      this.problem = problem;
      this.update();
      if (options?.tapped) this.#reveal();
      return;
    }
    return this.#ask(args, options);
  }

  /** Once the view shows it: focus and view to the field in error, or to the message. */
  #reveal() {
    requestAnimationFrame(() => revealProblem(this));
  }

  // --- what the player does ------------------------------------------------------------------

  /** A new character: every ability not locked, and the HP roll, rolled with a fresh seed; once
   *  per tap (a second tap before the sheet is shown rolls no other character). */
  #roll() {
    return this.once(() => this.#rollNow());
  }

  #rollNow() {
    const locked = [...this.draft.locked];
    const draft = blankDraft(this.draft.name, this.draft.readings); // the table's readings stay
    for (const code of locked) draft.fields[code] = this.draft.fields[code];
    draft.locked = new Set(locked);
    const seed = newSeed();
    draft.seed = locked.length ? null : seed; // with locked scores the seed alone no longer makes it
    this.draft = draft;
    this.shared = false;
    this.notice = null;
    return this.#askWith(() => ({ ...this.#given(), seed }), { fill: [...CODES.filter((code) => !draft.locked.has(code)), HP], tapped: true });
  }

  #reroll(field) {
    return this.once(() => {
      this.draft.seed = null;
      return this.#askWith(() => ({ ...this.#given([field]), seed: newSeed() }), { fill: [field], tapped: true });
    });
  }

  #type(field, value) {
    this.draft.fields[field] = value;
    this.draft.seed = null;
  }

  #lock(code, locked) {
    if (locked) this.draft.locked.add(code);
    else this.draft.locked.delete(code);
    this.update();
  }

  #startOver() {
    this.asked++; // an answer still on its way belongs to the character left behind
    this.busy = false;
    this.draft = blankDraft("", this.draft.readings); // the table's readings stay
    this.answer = null;
    this.problem = null;
    this.shared = false;
    this.notice = null;
    this.update();
  }

  /** The table reads a ruling the other way (or back): the sheet is asked again. */
  #read(name, reading) {
    this.draft.readings = { ...this.draft.readings, [name]: reading };
    if (this.answer) this.#askWith(() => this.#given(), { tapped: true });
    else this.update();
  }

  #open(character) {
    this.draft = draftOf(character);
    if (Object.keys(switched(this.draft.readings)).length) this.moreOpen = true;
    this.shared = false;
    this.notice = null;
    this.#askWith(() => this.#given());
  }

  async #keep(event) {
    event.preventDefault();
    const name = this.draft.name.trim();
    if (!this.answer) return this.#say("Roll the character or type all its scores first, then keep it.", { problem: true });
    if (!name) return this.#say("type a name first, then keep it", { problem: true, field: "name" });
    const now = new Date().toISOString();
    const { rolled, hp_roll } = this.answer.result;
    try {
      const first = kept.active === null;
      let lost = null; // why the settling left it out, if it did
      const character = kept.saveCharacter({
        id: this.draft.id ?? newId(), name, scores: rolled, rolled: null, hp_roll, locked: [...this.draft.locked],
        options: { ...this.draft.readings }, seed: this.draft.seed, created: this.draft.created ?? now, updated: now,
      }, { orActive: true, onLost: (reason) => { lost = reason; } }); // the first one kept is the one the rules text uses
      this.draft = { ...this.draft, id: character.id, created: character.created, name: character.name };
      this.shared = false;
      await kept.settled(); // written (with any other tab's change of the same instant): said kept only now
      // Judged by the settling, not by the list shown now: another tab's write of the same instant,
      // made before it heard this one, can leave it out of storage for a moment, and that tab's own
      // settling puts it back (a CI run said "Birch 3 was not kept." of a character kept so).
      if (lost !== null) return this.#say(`${character.name} was not kept: ${lost}.`, { problem: true });
      if (!kept.saved) {
        // on this page for the visit only: said at once, never "kept"
        return this.#say(`${character.name} was not kept in this browser: ${kept.why}. It stays on this page until you close it${first ? " (and is the active character)" : ""}; Export to a file keeps it.`, { problem: true });
      }
      // the link that opened it has done its work: a reload now shows the kept character, not the link's
      if (location.search) history.replaceState(history.state, "", location.pathname + location.hash);
      this.#say(`${character.name} is kept in this browser${first ? " and is the active character" : ""}.`);
    } catch (error) {
      this.#say(error instanceof KeptError ? error.message : `could not keep the character (${error.message})`, { problem: true });
    }
  }

  /** Deletes made while the last one's Undo is offered are said and undone together: a quick
   *  second tap lands on the next character's Delete once the list has closed up, and Undo
   *  brought back only that one. It is said in the list, where the last deleted one was. */
  #delete(character, row) {
    const at = kept.characters.findIndex((c) => c.id === character.id); // where the notice goes
    const height = row?.getBoundingClientRect().height ?? 0; // and the room it keeps: nothing below moves
    const undo = kept.deleteCharacter(character.id);
    const shown = this.draft.id === character.id ? this.draft : null;
    if (shown) shown.id = null; // still on screen, no longer kept
    const deleted = [...(this.notice?.deleted ?? []), {
      name: character.name,
      undo: () => {
        undo();
        if (shown && this.draft === shown) shown.id = character.id;
      },
    }];
    this.notice = {
      text: `${namesInWords(deleted.map((d) => d.name))} ${deleted.length === 1 ? "was" : "were"} deleted.`,
      deleted,
      at,
      height,
      undo: () => [...deleted].reverse().forEach((d) => d.undo()), // the last first: each goes back where it was
    };
    this.update();
  }

  #say(text, { problem = false, field = null } = {}) {
    this.notice = { text, problem, field };
    this.update();
    if (problem) this.#reveal();
  }

  // --- the view ------------------------------------------------------------------------------

  view() {
    const keptHere = this.draft.id !== null && kept.characters.some((c) => c.id === this.draft.id);
    return html`
      <div class="rollbook-row rollbook-character__actions">
        <button type="button" class="md-button md-button--primary" @click=${() => this.#roll()}>Roll a character</button>
        <button type="button" class="md-button" @click=${() => this.#startOver()}>Start over</button>
      </div>
      ${this.engineNotice()}
      ${this.linkProblems.length ? html`<p class="rollbook-problem">${this.linkProblems.join("; ")}</p>` : nothing}
      ${this.shared ? html`<p class="rollbook-answer__shared">A shared character: the same scores, HP roll and rulings as on the device it came from. Name it and keep it to have it here.</p>` : nothing}
      <div class="rollbook-character__answer" aria-busy=${this.busy ? "true" : "false"}>
        ${this.busy && this.engine.state === "starting" ? html`<p class="rollbook-answer__wait">Your roll is kept: it is rolled as soon as the engine is ready.</p>` : nothing}
        ${this.answer ? sheetSummary(this.answer.result, this.draft.name.trim(), this.composites) : this.#hint()}
      </div>
      ${this.#keepForm(keptHere)}
      ${this.#scoresForm()}
      ${this.whole ? this.#readingsFold() : nothing}
      ${this.whole && this.answer ? sheetDetails(this.answer.result) : nothing}
      ${this.whole ? this.#shareView() : nothing}
      ${this.whole ? this.#keptList() : nothing}
    `;
  }

  #scoresForm() {
    const problemField = this.problem?.field;
    const result = this.answer?.result;
    const row = (field) => {
      const id = `rollbook-score-${field}`;
      const invalid = problemField === field;
      const changed = result && field !== HP && result.abilities[field] !== result.rolled[field];
      return html`<div class="rollbook-score">
        <label for=${id}>${label(field)} <span class="rollbook-score__code">${field === HP ? "1d100" : field}</span></label>
        <input id=${id} name=${field} type="text" inputmode="numeric" autocomplete="off" enterkeyhint="done" maxlength="4"
          .value=${this.draft.fields[field]} aria-invalid=${invalid ? "true" : "false"}
          aria-describedby=${[invalid ? "rollbook-character-problem" : "", changed ? `${id}-after` : ""].filter(Boolean).join(" ") || nothing}
          @input=${(e) => this.#type(field, e.target.value)} @change=${() => this.#askWith(() => this.#given(), { tapped: true })}>
        <button type="button" class="md-button" ?disabled=${this.draft.locked.has(field)} @click=${() => this.#reroll(field)}>Reroll<span class="rollbook-visually-hidden"> ${label(field)}</span></button>
        ${field === HP ? html`<span></span>` : html`<label class="rollbook-lock">
          <input type="checkbox" .checked=${this.draft.locked.has(field)} @change=${(e) => this.#lock(field, e.target.checked)}>
          Lock<span class="rollbook-visually-hidden"> ${label(field)}</span></label>`}
        ${changed ? html`<p class="rollbook-score__after" id=${`${id}-after`}>${field} becomes ${result.abilities[field]} by the Charisma rule</p>` : nothing}
        ${invalid ? this.#problemView(field) : nothing}
      </div>`;
    };
    return html`<form class="rollbook-character__scores" @submit=${(e) => { e.preventDefault(); this.#askWith(() => this.#given(), { tapped: true }); }}>
      <fieldset>
        <legend>Scores (1d100 each; type your own dice or tap Reroll)</legend>
        ${(this.whole ? CODES : CODES.slice(0, FIRST_ROWS)).map(row)}
        ${this.whole ? row(HP) : nothing}
      </fieldset>
      ${this.problem && !CODES.includes(problemField) && problemField !== HP ? this.#problemView(null) : nothing}
      <button type="submit" class="md-button">Work out the sheet</button>
    </form>`;
  }

  /** More options: how the table reads the rulings the saves and Perception follow, each by its
   *  words, with its ruling's title linking to the Rulings page. Its fields are drawn when it is
   *  first opened: closed, its three selects with their labels and ruling links cost the
   *  generator's drawing about as much as six score rows did, for a fold most players never open. */
  #readingsFold() {
    const chosen = Object.keys(switched(this.draft.readings)).length;
    return html`<details class="rollbook-fold rollbook-character__readings" ?open=${this.moreOpen}
      @toggle=${(e) => this.#toggleMore(e.target.open)}>
      <summary>More options <span class="rollbook-fold__hint">${RULINGS_SECTION}${chosen ? ` (${chosen} read the other way)` : ""}</span></summary>
      ${this.moreOpen || this.moreDrawn ? this.#readingsFields() : nothing}
    </details>`;
  }

  #toggleMore(open) {
    this.moreOpen = open;
    if (!open || this.moreDrawn) return;
    this.moreDrawn = true; // kept drawn once opened: closing it again redraws nothing
    this.renderNow();
  }

  #readingsFields() {
    return html`<fieldset class="rollbook-fold__group"><legend>${RULINGS_SECTION}</legend>
        <div class="rollbook-fields">${READINGS.map((r) => select(`rollbook-character-${r.name.replaceAll("_", "-")}`, r.label,
          this.draft.readings[r.name], CHARACTER_RULINGS[r.name].map((value, i) => [value, r.words[i]]),
          (value) => this.#read(r.name, value), { ruling: r.ruling, titles: this.titles, wide: true }))}</div>
      </fieldset>`;
  }

  /** The problem, in its field's row (after the field's label) or, naming none, above the button. */
  #problemView(field) {
    return html`<p class="rollbook-problem rollbook-score__problem" id="rollbook-character-problem" role="alert">${labelled(field && label(field), this.problem.message)}</p>`;
  }

  #hint() {
    if (this.busy || this.problem) return nothing;
    const missing = this.#missing();
    if (missing.length === CODES.length + 1) return html`<p class="rollbook-answer__hint">Tap <strong>Roll a character</strong>, or type the nine scores and the HP roll you rolled with real dice.</p>`;
    return html`<p class="rollbook-answer__hint">Still to roll or type: ${missing.map(label).join(", ")}.</p>`;
  }

  /** Whether what is on screen differs from the kept character it was opened from. */
  #unsaved() {
    const character = kept.characters.find((c) => c.id === this.draft.id);
    if (!character || !this.answer) return false;
    const { rolled, hp_roll } = this.answer.result;
    const readings = readingsOf(character.options);
    return character.name !== this.draft.name.trim() || character.hp_roll !== hp_roll
      || CODES.some((code) => character.scores[code] !== rolled[code])
      || READINGS.some(({ name }) => readings[name] !== this.draft.readings[name]);
  }

  #keepForm(keptHere) {
    const notice = this.notice;
    return html`<form class="rollbook-character__keep" @submit=${(e) => this.#keep(e)}>
      <label for="rollbook-character-name">Character name</label>
      <div class="rollbook-row">
        <input id="rollbook-character-name" name="name" type="text" autocomplete="off" maxlength="100" enterkeyhint="done"
          .value=${this.draft.name} aria-invalid=${notice?.field === "name" ? "true" : "false"}
          aria-describedby=${notice?.field === "name" ? "rollbook-character-notice" : nothing}
          @input=${(e) => { this.draft.name = e.target.value; this.update(); }}>
        <button type="submit" class="md-button md-button--primary">${keptHere ? "Save changes" : "Keep this character"}</button>
      </div>
      ${keptHere && this.#unsaved() ? html`<p class="rollbook-note">Changed since it was kept: <strong>Save changes</strong> keeps the changes.</p>` : nothing}
      ${notice && !notice.deleted ? html`<div class=${notice.problem ? "rollbook-problem" : "rollbook-done"} role=${notice.problem ? "alert" : "status"}>
        <p id="rollbook-character-notice">${notice.field === "name" ? labelled("Character name", notice.text) : notice.text}</p>
      </div>` : nothing}
    </form>`;
  }

  #shareView() {
    if (!this.answer) return nothing;
    // (null, so no link, when one would not read back whole: the roller's and the helpers' guard)
    const link = fittingLink(SITE_ROOT, PAGE, LINK, {
      name: this.draft.name.trim(), scores: this.answer.result.rolled, hp_roll: this.answer.result.hp_roll,
      ...switched(this.draft.readings),
    });
    return html`<div class="rollbook-row rollbook-character__share">
      ${link ? html`<a class="md-button" href=${link}>Link to this character</a>` : nothing}
      <button type="button" class="md-button" @click=${() => print()}>Print the sheet</button>
    </div>`;
  }

  /** Each kept character keyed by its id: drawn by place, Delete pressed twice from the keyboard
   *  deleted the next character too (the focused button became its), and Undo brought back one.
   *  A delete is said, with its Undo, in the deleted one's place and room, under the thumb that
   *  tapped Delete, and nothing below moves (said under the name field, far above, it was off
   *  screen in a long list, and the list closed up under the finger). */
  #keptList() {
    const active = kept.active;
    const deletion = this.notice?.deleted ? this.notice : null;
    const rows = kept.characters.map((character) => ({ key: character.id, character }));
    if (deletion) rows.splice(Math.min(deletion.at, rows.length), 0, { key: DELETED, deletion });
    return html`<section class="rollbook-character__kept" aria-labelledby="rollbook-kept-characters">
      <h2 id="rollbook-kept-characters">Kept characters</h2>
      ${keptNotice(this)}
      ${rows.length ? html`<ul class="rollbook-character__list">${repeat(rows, (row) => row.key, ({ character }) => character ? html`<li>
        <p><strong class="rollbook-character__who">${character.name}</strong>
          ${character.id === active?.id ? html`<span class="rollbook-character__active">Active: the dice in the rules use it</span>` : nothing}</p>
        <p class="rollbook-character__scores-line">${CODES.map((code) => `${code} ${character.scores[code]}`).join(" · ")} · HP roll ${character.hp_roll}</p>
        <div class="rollbook-row">
          <button type="button" class="md-button" @click=${() => this.#open(character)}>Open<span class="rollbook-visually-hidden"> ${character.name}</span></button>
          ${character.id === active?.id ? nothing : html`<button type="button" class="md-button" @click=${() => kept.setActive(character.id)}>Make active<span class="rollbook-visually-hidden"> (${character.name})</span></button>`}
          <button type="button" class="md-button" @click=${(e) => this.closingUp(() => this.#delete(character, e.currentTarget.closest("li")))}>Delete<span class="rollbook-visually-hidden"> ${character.name}</span></button>
        </div>
      </li>` : this.#deletedView(deletion))}</ul>` : html`<p>None yet. Name a character and keep it: it stays in this browser, and the active one gives its scores to the dice in the rules text (<code>2d10+STR</code>).</p>`}
    </section>`;
  }

  #deletedView(deletion) {
    // its room set through the CSSOM (ref), not a style attribute: the site's CSP refuses those
    const room = (li) => { if (li) li.style.minHeight = `${deletion.height}px`; };
    return html`<li class="rollbook-character__deleted" ${ref(room)}><div class="rollbook-done" role="status">
      <p id="rollbook-character-deleted">${deletion.text}</p>
      <button type="button" class="md-button md-button--primary" @click=${() => { deletion.undo(); this.notice = null; this.update(); }}>Undo delete</button>
    </div></li>`;
  }
}

const DELETED = Symbol("the delete's notice"); // its key in the kept list: no character's id

/** The field an engine error is about: "scores.STR" -> "STR", "hp_roll" -> the HP roll; about
 *  the scores as a whole (one text, "STR=76,…"), the ability its message names ("STR must be
 *  between 1 and 100, not 101"). */
function fieldOf(error) {
  const field = fieldInError(error, [...CODES.map((code) => ({ name: `scores.${code}`, code })), { name: HP, code: HP }]);
  if (field || !error.fields?.includes("scores")) return field?.code ?? null;
  return CODES.find((code) => new RegExp(`\\b${code}\\b`).test(error.message)) ?? null;
}

define("rollbook-character", CharacterGenerator);
