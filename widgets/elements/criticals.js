// <rollbook-criticals>: OpenCore's critical-hit lookup (tools/criticals/). Pick the damage type,
// type the d100 from physical dice or leave it empty to roll, add the unmodified attack roll and
// the target's remaining Toughness: the engine answers with the modified roll, the row and the
// effect, and the real table (asked of the engine too) is shown with that row marked.
// The critical tables on the rules pages link here with ?type=… preselected.

import { ask, newSeed } from "../engine.js";
import { define, html, nothing, RollbookElement } from "../element.js";
import { fittingLink, readQuery } from "../links.js";
import { kept, pagePath, SITE_ROOT } from "../session.js";
import { newId } from "../kept.js";
import { CRITICAL_TYPES } from "../facts.js";
import { fieldInError, revealProblem } from "../field-problem.js";
import { breakdown, errorView } from "./dice.js";

// The engine's critical types, in its order (the first is the form's until one is picked), and each one's table.
const TYPES = CRITICAL_TYPES.map((critical) => critical.type);
const TABLES = Object.fromEntries(CRITICAL_TYPES.map((critical) => [critical.type, critical.table]));
const LINK = { type: "text", roll: "int", attack_roll: "int", toughness: "int", seed: "int" };
const PAGE = "tools/criticals/";

// The typed fields, by the engine's argument each one fills.
const FIELDS = [
  { name: "roll", id: "rollbook-crit-roll", label: "Critical roll (1d100)", placeholder: "empty: roll it",
    help: "From your own dice, or leave it empty and the engine rolls." },
  { name: "attack_roll", id: "rollbook-crit-attack", label: "Unmodified attack roll",
    help: "Optional: a very low or very high attack roll moves the critical roll (the modifiers below the form)." },
  { name: "toughness", id: "rollbook-crit-toughness", label: "Target's remaining Toughness" },
];
const TYPE = { name: "type", id: "rollbook-crit-type", label: "Damage type" };

/** A typed number as the engine takes it: a whole number, else the text (the engine says what is
 *  wrong with it); empty is null. */
function whole(raw) {
  const text = String(raw ?? "").trim();
  return text === "" ? null : /^-?\d{1,15}$/.test(text) ? Number(text) : text;
}

class CriticalLookup extends RollbookElement {
  connected() {
    const { values, problems } = readQuery(LINK, location.search, { type: TYPE.label, ...Object.fromEntries(FIELDS.map((f) => [f.name, f.label])) });
    this.linkProblems = problems;
    this.inputs = { type: TYPES.includes(values.type) ? values.type : TYPES[0], roll: values.roll ?? null,
      attack_roll: values.attack_roll ?? null, toughness: values.toughness ?? null };
    this.answer = null;
    this.asked = null;
    this.table = null; // the engine's table for the chosen type
    this.busy = false;
    this.#loadTable();
    if (values.roll !== undefined || values.seed !== undefined) this.#lookUp(values.seed ?? null);
  }

  async #loadTable() {
    const type = this.inputs.type;
    const answer = await ask({ command: "table", args: { name: TABLES[type] } });
    if (this.inputs.type === type) {
      this.table = answer;
      this.update();
    }
  }

  #read(form) {
    const data = new FormData(form);
    const inputs = { type: data.get("type") };
    for (const field of ["roll", "attack_roll", "toughness"]) inputs[field] = whole(data.get(field));
    return inputs;
  }

  async #lookUp(seed = null, tapped = false) {
    const args = { type: this.inputs.type };
    for (const field of ["roll", "attack_roll", "toughness"]) if (this.inputs[field] !== null) args[field] = this.inputs[field];
    if (args.roll === undefined) args.seed = seed ?? newSeed(); // the engine rolls the d100
    this.busy = true;
    this.update();
    this.answer = await ask({ command: "opencore crit", args });
    this.asked = args;
    this.busy = false;
    if (this.answer.ok && args.seed !== undefined && seed === null) this.#log(this.answer.result, args.seed);
    this.update();
    if (!this.answer.ok) requestAnimationFrame(() => revealProblem(this, "#rollbook-crit-problem"));
    else if (tapped) this.showAnswer(); // after a tap: the effect wholly on screen, under the thumb
  }

  /** The field the engine's error is about (the fields above, or the damage type), if any. */
  #fieldInError() {
    return this.answer?.ok === false ? fieldInError(this.answer.error, [TYPE, ...FIELDS]) : null;
  }

  #log(result, seed) {
    // a rolled critical is a roll like any other: into the shared log, with its breakdown
    kept.addRoll({ id: newId(), at: new Date().toISOString(), label: `${result.type[0].toUpperCase()}${result.type.slice(1)} critical`,
      expression: "1d100", vars: {}, seed, total: result.roll, text: result.text, page: pagePath() });
  }

  #submit(event) {
    event.preventDefault();
    const form = event.target;
    this.once(() => { // a second tap before the answer is shown looks up nothing more
      this.inputs = this.#read(form);
      return this.#lookUp(null, true);
    });
  }

  #changeType(event) {
    this.inputs = { ...this.inputs, type: event.target.value };
    this.answer = null;
    this.#loadTable();
    this.update();
  }

  view() {
    const shown = (value) => (value === null ? "" : String(value));
    const wrong = this.#fieldInError();
    const problem = (field) => (wrong === field ? errorView(this.answer.error, null, "rollbook-crit-problem", field.label) : nothing);
    const describedBy = (field) => [wrong === field ? "rollbook-crit-problem" : "", field.help ? `${field.id}-help` : ""].filter(Boolean).join(" ") || nothing;
    return html`
      <form class="rollbook-form" @submit=${(e) => this.#submit(e)}>
        <div class="rollbook-field">
          <label for=${TYPE.id}>${TYPE.label}</label>
          <select id=${TYPE.id} name="type" aria-invalid=${wrong === TYPE ? "true" : "false"} aria-describedby=${describedBy(TYPE)}
            @change=${(e) => this.#changeType(e)}>
            ${TYPES.map((t) => html`<option value=${t} ?selected=${t === this.inputs.type}>${t[0].toUpperCase() + t.slice(1)}</option>`)}
          </select>
          ${problem(TYPE)}
        </div>
        ${FIELDS.map((field) => html`<div class="rollbook-field">
          <label for=${field.id}>${field.label}</label>
          <input id=${field.id} name=${field.name} type="text" inputmode="numeric" .value=${shown(this.inputs[field.name])}
            placeholder=${field.placeholder ?? nothing} aria-invalid=${wrong === field ? "true" : "false"} aria-describedby=${describedBy(field)}>
          ${field.help ? html`<small id=${`${field.id}-help`}>${field.help}</small>` : nothing}
          ${problem(field)}
        </div>`)}
        ${this.answer?.ok === false && !wrong ? errorView(this.answer.error, null, "rollbook-crit-problem") : nothing}
        <button type="submit" class="md-button md-button--primary">Look up</button>
      </form>
      ${this.engineNotice()}
      ${this.linkProblems.length ? html`<p class="rollbook-problem">${this.linkProblems.join("; ")}</p>` : nothing}
      <section class="rollbook-answer" aria-live="polite" aria-busy=${this.busy ? "true" : "false"}>${this.#answerView()}</section>
      ${this.#tableView()}`;
  }

  #answerView() {
    if (!this.answer) return html`<p class="rollbook-answer__hint">Pick the damage type, then Look up.</p>`;
    if (!this.answer.ok) return nothing; // shown in the form, at its field or above the button
    const r = this.answer.result;
    const link = fittingLink(SITE_ROOT, PAGE, LINK, { ...this.asked, roll: this.asked.seed === undefined ? r.die : undefined });
    return html`
      <p class="rollbook-total"><span class="rollbook-total__label">Modified roll</span>
        <output class="rollbook-total__value">${r.roll}</output></p>
      <p class="rollbook-crit-effect"><strong>${r.effect}</strong></p>
      <dl class="rollbook-working">
        <div><dt>d100</dt><dd>${r.die}</dd></div>
        <div><dt>Attack roll modifier</dt><dd>${r.attack_modifier >= 0 ? "+" : ""}${r.attack_modifier}</dd></div>
        <div><dt>Toughness</dt><dd>−${r.toughness}</dd></div>
        ${r.unclamped !== r.roll ? html`<div><dt>Beyond the table</dt><dd>${r.unclamped}, read as ${r.roll}</dd></div>` : nothing}
        <div><dt>Row</dt><dd>${r.row}</dd></div>
      </dl>
      <p class="rollbook-breakdown"><code>${breakdown(r.text)}</code></p>
      <p class="rollbook-share">${link ? html`<a href=${link}>Link to this critical</a> · ` : nothing}<a href=${new URL("opencore/damage-and-criticals/", SITE_ROOT).href}>The critical hit rules</a></p>`;
  }

  #tableView() {
    const table = this.table;
    if (!table) return nothing;
    if (!table.ok) return errorView(table.error, null, "rollbook-crit-table-problem");
    const marked = this.answer?.ok && this.answer.result.type === this.inputs.type ? this.answer.result.row : null;
    const t = table.result;
    return html`<div class="rollbook-crit-table" tabindex="0" role="region" aria-label=${t.title}>
      <table>
        <caption>${t.title}${t.caption ? html` (${t.caption})` : nothing}</caption>
        <thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
        <tbody>${t.cells.map((row) => html`<tr class=${row[0] === marked ? "rollbook-crit-row" : ""}
            aria-current=${row[0] === marked ? "true" : nothing}>
          <th scope="row">${row[0] === marked ? html`<span class="rollbook-marker">▶ this roll: </span>` : nothing}${row[0]}</th>
          ${row.slice(1).map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody>
      </table></div>`;
  }
}

define("rollbook-criticals", CriticalLookup);
