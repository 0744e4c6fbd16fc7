// <rollbook-criticals>: OpenCore's critical-hit lookup (tools/criticals/). Pick the damage type,
// type the d100 from physical dice or leave it empty to roll, add the unmodified attack roll and
// the target's remaining Toughness: the engine answers with the modified roll, the row and the
// effect, and the real table (asked of the engine too) is shown with that row marked.
// The critical tables on the rules pages link here with ?type=… preselected.

import { ask, newSeed } from "../engine.js";
import { define, html, nothing, RollbookElement } from "../element.js";
import { readQuery, shareLink } from "../links.js";
import { kept, pagePath, SITE_ROOT } from "../session.js";
import { newId } from "../kept.js";
import { breakdown, errorView } from "./dice.js";

const TYPES = ["slash", "impact", "puncture", "shrapnel", "burn"];
const LINK = { type: "text", roll: "int", attack_roll: "int", toughness: "int", seed: "int" };
const PAGE = "tools/criticals/";

function whole(raw) {
  const text = String(raw ?? "").trim();
  return text === "" ? null : /^-?\d+$/.test(text) ? Number(text) : NaN;
}

class CriticalLookup extends RollbookElement {
  connected() {
    const { values, problems } = readQuery(LINK, location.search);
    this.linkProblems = problems;
    this.inputs = { type: TYPES.includes(values.type) ? values.type : "slash", roll: values.roll ?? null,
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
    const answer = await ask({ command: "table", args: { name: `opencore.critical.${type}` } });
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

  async #lookUp(seed = null) {
    const bad = Object.entries(this.inputs).filter(([, value]) => Number.isNaN(value)).map(([field]) => field.replace("_", " "));
    if (bad.length) {
      this.answer = { ok: false, error: { message: `type a whole number for the ${bad.join(" and the ")}, or leave it empty` } };
      return this.update();
    }
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
    this.querySelector(".rollbook-crit-row")?.scrollIntoView({ block: "nearest" });
  }

  #log(result, seed) {
    // a rolled critical is a roll like any other: into the shared log, with its breakdown
    kept.addRoll({ id: newId(), at: new Date().toISOString(), label: `${result.type[0].toUpperCase()}${result.type.slice(1)} critical`,
      expression: "1d100", vars: {}, seed, total: result.roll, text: result.text, page: pagePath() });
  }

  #submit(event) {
    event.preventDefault();
    this.inputs = this.#read(event.target);
    this.#lookUp();
  }

  #changeType(event) {
    this.inputs = { ...this.inputs, type: event.target.value };
    this.answer = null;
    this.#loadTable();
    this.update();
  }

  view() {
    const { type, roll, attack_roll: attackRoll, toughness } = this.inputs;
    const shown = (value) => (value === null || Number.isNaN(value) ? "" : String(value));
    return html`
      <form class="rollbook-form" @submit=${(e) => this.#submit(e)}>
        <div class="rollbook-field">
          <label for="rollbook-crit-type">Damage type</label>
          <select id="rollbook-crit-type" name="type" @change=${(e) => this.#changeType(e)}>
            ${TYPES.map((t) => html`<option value=${t} ?selected=${t === type}>${t[0].toUpperCase() + t.slice(1)}</option>`)}
          </select>
        </div>
        <div class="rollbook-field">
          <label for="rollbook-crit-roll">Critical roll (1d100)</label>
          <input id="rollbook-crit-roll" name="roll" type="text" inputmode="numeric" .value=${shown(roll)}
            placeholder="empty: roll it" aria-describedby="rollbook-crit-roll-help">
          <small id="rollbook-crit-roll-help">From your own dice, or leave it empty and the engine rolls.</small>
        </div>
        <div class="rollbook-field">
          <label for="rollbook-crit-attack">Unmodified attack roll</label>
          <input id="rollbook-crit-attack" name="attack_roll" type="text" inputmode="numeric" .value=${shown(attackRoll)}
            aria-describedby="rollbook-crit-attack-help">
          <small id="rollbook-crit-attack-help">Optional: a very low or very high attack roll moves the critical roll (the modifiers below the form).</small>
        </div>
        <div class="rollbook-field">
          <label for="rollbook-crit-toughness">Target's remaining Toughness</label>
          <input id="rollbook-crit-toughness" name="toughness" type="text" inputmode="numeric" .value=${shown(toughness)}>
        </div>
        <button type="submit" class="md-button md-button--primary">Look up</button>
      </form>
      ${this.engineNotice()}
      ${this.linkProblems.length ? html`<p class="rollbook-problem">${this.linkProblems.join("; ")}</p>` : nothing}
      <section class="rollbook-answer" aria-live="polite" aria-busy=${this.busy ? "true" : "false"}>${this.#answerView()}</section>
      ${this.#tableView()}`;
  }

  #answerView() {
    if (!this.answer) return html`<p class="rollbook-answer__hint">Pick the damage type, then Look up.</p>`;
    if (!this.answer.ok) return errorView(this.answer.error, null, "rollbook-crit-problem");
    const r = this.answer.result;
    const link = shareLink(SITE_ROOT, PAGE, LINK, { ...this.asked, roll: this.asked.seed === undefined ? r.die : undefined });
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
      <p class="rollbook-share"><a href=${link}>Link to this critical</a> ·
        <a href=${new URL("opencore/damage-and-criticals/", SITE_ROOT).href}>The critical hit rules</a></p>`;
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
