// <rollbook-roller>: the dice roller of tools/roller/. Type an expression (or tap a die), roll,
// see every die and a large total; the exact odds of the expression under it; every roll goes
// to the shared log. A link with ?expression=…&seed=… shows that exact roll on any device.
// After a reload the field holds the last expression rolled here, and the recent ones are a tap
// away: both are read from the kept roll log, not kept a second time.

import { ask, newSeed } from "../engine.js";
import { define, html, nothing, repeat, RollbookElement } from "../element.js";
import { fittingLink, readQuery } from "../links.js";
import { kept, rollIntoLog, SITE_ROOT } from "../session.js";
import { fieldInError, revealProblem } from "../field-problem.js";
import { barLength, breakdown, diceOfRoll, errorView, fractionValue, percentView } from "./dice.js";

const QUICK_DICE = ["d4", "d6", "d8", "d10", "d12", "d20", "d100", "d%"];
const LINK = { expression: "text", seed: "int", vars: "vars", label: "text" };
const PAGE = "tools/roller/";
// Rolls behind an estimate, when exact odds are out of reach (the engine may roll fewer when the
// dice run out, and says how many it rolled).
const ESTIMATE_ROLLS = 5000;
const RECENT = 5; // recent expressions offered as buttons

/** The distinct expressions of the log's rolls with no named values, newest first; those rolled
 *  on `page` only, when given. */
export function recentExpressions(log, { page = null, count = RECENT } = {}) {
  const seen = [];
  for (let i = log.length - 1; i >= 0 && seen.length < count; i--) {
    const { expression, vars, page: where } = log[i];
    if (!expression || Object.keys(vars ?? {}).length || (page && where !== page)) continue;
    if (!seen.includes(expression)) seen.push(expression);
  }
  return seen;
}

// The odds' own fields, by the engine's argument each one fills.
const TARGETS = [{ name: "at_least", label: "Chance of at least" }, { name: "at_most", label: "Chance of at most" }];

class DiceRoller extends RollbookElement {
  connected() {
    this.expression = this.expression ?? recentExpressions(kept.log, { page: PAGE, count: 1 })[0] ?? "";
    this.listen(kept.watch(() => this.update()));
    this.answer = null; // the engine's last roll response
    this.asked = null; // what that answer answers: {expression, vars, seed, label, shared}
    this.odds = null; // the engine's prob response for the last expression
    this.targets = { at_least: null, at_most: null };
    this.shownTable = null; // the odds' table as last made, for which dice: {dice, view} (see #table)
    this.busy = false;
    const { values, problems } = readQuery(LINK, location.search);
    this.linkProblems = problems;
    if (values.expression && values.seed !== undefined) {
      this.expression = values.expression;
      this.#roll({ expression: values.expression, vars: values.vars ?? {}, seed: values.seed, label: values.label ?? null, shared: true });
    }
  }

  /** Roll, once per tap: a second tap before the answer is shown is not a second roll. */
  #roll(roll) {
    return this.once(() => this.#rollNow(roll));
  }

  async #rollNow({ expression, vars = {}, seed, label = null, shared = false }) {
    expression = expression.trim();
    if (!expression) {
      this.answer = { ok: false, error: { kind: "input", message: "type one first, e.g. 2d6+3, 4d6kh3 or d%" } };
      this.asked = { expression };
      this.odds = null;
      this.update();
      return this.#reveal();
    }
    this.busy = true;
    this.update();
    let answer;
    if (shared) { // a shared roll is shown, not logged again on every visit of the link
      const args = { expression, seed };
      if (Object.keys(vars).length) args.vars = vars;
      answer = await ask({ command: "roll", args });
    } else {
      ({ answer } = await rollIntoLog({ expression, vars, label, seed }));
    }
    this.busy = false;
    this.answer = answer;
    this.asked = { expression, vars, seed: answer.ok ? answer.result.seed ?? seed : seed, label, shared };
    if (!answer.ok) this.odds = null; // the odds shown were another expression's
    this.update();
    if (answer.ok) {
      if (!shared) this.showAnswer(); // the total wholly on screen, under the thumb
      this.#askOdds(expression, vars); // (the next tap need not wait for the odds)
      return;
    }
    await this.#reveal();
    const input = this.querySelector("input[name=expression]");
    if (input && answer.error.column) input.setSelectionRange(answer.error.column - 1, expression.length);
  }

  /** Once the view shows the error: focus and view to the field in error. */
  #reveal() {
    return new Promise((done) => requestAnimationFrame(() => done(revealProblem(this))));
  }

  /** The odds' field (at least, at most) the engine's error on them is about, if any. */
  #targetInError() {
    return this.odds?.answer?.ok === false ? fieldInError(this.odds.answer.error, TARGETS) : null;
  }

  async #askOdds(expression = this.odds?.expression, vars = this.odds?.vars ?? {}) {
    if (!expression) return;
    const args = { expression };
    if (Object.keys(vars).length) args.vars = vars;
    for (const [name, target] of Object.entries(this.targets)) if (target !== null) args[name] = target;
    let answer = await ask({ command: "prob", args });
    let refused = null; // why exact odds are out of reach, when they are
    if (!answer.ok && answer.error.kind === "limit" && answer.error.message.startsWith("exact odds are out of reach")) {
      refused = answer.error.message;
      this.odds = { expression, vars, answer: null, refused, estimating: true };
      this.update();
      // the engine rolls it, seeded: the same estimate for the same seed, on any device; one seed
      // per expression, so a new "at least" reads the same rolls
      if (this.estimateSeed?.expression !== expression) this.estimateSeed = { expression, seed: newSeed() };
      answer = await ask({ command: "prob", args: { ...args, estimate: ESTIMATE_ROLLS, seed: this.estimateSeed.seed } });
    }
    this.odds = { expression, vars, answer, refused };
    this.update();
    if (this.#targetInError()) await this.#reveal();
  }

  #submit(event) {
    event.preventDefault();
    this.expression = new FormData(event.target).get("expression") ?? "";
    this.#roll({ expression: this.expression });
  }

  #quick(die) {
    this.once(() => { // (a tap not taken leaves the field as it is)
      this.expression = die;
      const input = this.querySelector("input[name=expression]");
      if (input) input.value = die;
      return this.#rollNow({ expression: die });
    });
  }

  #target(name, event) {
    // sent as typed: the engine says what is wrong with one that is not a whole number
    const raw = event.target.value.trim();
    this.targets = { ...this.targets, [name]: raw === "" ? null : /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw };
    this.#askOdds();
  }

  view() {
    // (an engine that stopped or could not start is not the expression's fault: the notice says it)
    const failed = this.answer && !this.answer.ok && this.answer.error.kind !== "load";
    return html`
      <form class="rollbook-roller__form" @submit=${(e) => this.#submit(e)}>
        <label for="rollbook-expression">Dice expression</label>
        <div class="rollbook-row">
          <input id="rollbook-expression" name="expression" type="text" .value=${this.expression}
            autocomplete="off" autocapitalize="off" spellcheck="false" enterkeyhint="go"
            placeholder="e.g. 4d6kh3, 1d20+5, d%"
            aria-invalid=${failed ? "true" : "false"}
            aria-describedby=${failed ? "rollbook-roller-problem" : nothing}
            @input=${(e) => { this.expression = e.target.value; }}>
          <button type="submit" class="md-button md-button--primary">Roll</button>
        </div>
      </form>
      ${this.#recentView()}
      ${this.engineNotice()}
      ${this.linkProblems.length ? html`<p class="rollbook-problem">${this.linkProblems.join("; ")}</p>` : nothing}
      <section class="rollbook-answer" aria-live="polite" aria-busy=${this.busy ? "true" : "false"}>
        ${this.busy && this.engine.state === "ready" ? html`<p class="rollbook-answer__wait">Rolling…</p>` : nothing}
        ${this.busy && this.engine.state === "starting" ? html`<p class="rollbook-answer__wait">Your roll is kept: it is rolled as soon as the engine is ready.</p>` : nothing}
        ${this.answer ? this.#answerView() : html`<p class="rollbook-answer__hint">Type dice and press Roll, or tap a die.</p>`}
      </section>
      <div class="rollbook-quick" role="group" aria-label="Quick dice">
        ${QUICK_DICE.map((die) => html`<button type="button" class="md-button" @click=${() => this.#quick(die)}>${die}</button>`)}
      </div>
      ${this.#oddsView()}
    `;
  }

  /** The recent expressions, each rolled again with one tap. */
  #recentView() {
    const recent = recentExpressions(kept.log);
    if (!recent.length) return nothing;
    // keyed by expression: drawn by place, the focused "Roll 1d4 again" became "Roll 2d6 again" as
    // 1d4 moved to the front, and Enter pressed twice rolled 2d6
    return html`<div class="rollbook-quick rollbook-recent" role="group" aria-labelledby="rollbook-recent-title">
      <span class="rollbook-recent__title" id="rollbook-recent-title">Recent</span>
      ${repeat(recent, (expression) => expression, (expression) => html`<button type="button" class="md-button" aria-label=${`Roll ${expression} again`}
        @click=${() => this.#quick(expression)}>${expression}</button>`)}
    </div>`;
  }

  #answerView() {
    const { error } = this.answer;
    if (!this.answer.ok && error.kind === "load" && this.engine.state === "failed") return nothing; // the notice above says it, with Retry
    if (!this.answer.ok) return errorView(error, this.asked?.expression, "rollbook-roller-problem", error.kind === "load" ? null : "Dice expression");
    const result = this.answer.result;
    const link = fittingLink(SITE_ROOT, PAGE, LINK, this.asked); // null: too long for a link
    return html`
      ${this.asked.shared ? html`<p class="rollbook-answer__shared">A shared roll (seed ${this.asked.seed}): the same dice as on the device it came from.</p>` : nothing}
      <p class="rollbook-total"><span class="rollbook-total__label">${this.asked.label || result.expression}</span>
        <output class="rollbook-total__value">${shownTotal(result)}</output></p>
      ${diceOfRoll(result)}
      <p class="rollbook-breakdown"><code>${breakdown(result.text)}</code></p>
      <p class="rollbook-share">${link === null ? "No link to this roll: its dice are too long to fit in one." : html`<a href=${link}>Link to this roll</a>`}</p>`;
  }

  /** The odds' table, made again only for other dice, not for a new "at least" or "at most" (the
   *  engine answers those with the same distribution): the same template given to lit-html again
   *  changes nothing on the page (made again, d20!>=3's 5,241 rows took about 60 ms of script at
   *  each new "at least"). */
  #table(result) {
    const dice = JSON.stringify([this.odds.expression, this.odds.vars ?? {}, Boolean(result.estimate)]);
    if (this.shownTable?.dice !== dice) this.shownTable = { dice, view: distributionTable(result) };
    return this.shownTable.view;
  }

  #oddsView() {
    const odds = this.odds?.answer;
    const estimated = odds?.ok && odds.result.estimate;
    const wrong = this.#targetInError();
    const target = ({ name, label }) => html`<label>${label} <input type="text" inputmode="numeric" size="5" name=${name}
      aria-invalid=${wrong?.name === name ? "true" : "false"} aria-describedby=${wrong?.name === name ? "rollbook-odds-problem" : nothing}
      @change=${(e) => this.#target(name, e)}></label>`;
    return html`<section class="rollbook-odds" aria-labelledby="rollbook-odds-title">
      <h2 id="rollbook-odds-title">${estimated || this.odds?.estimating ? "Estimated odds" : "Exact odds"}${this.odds ? html` of <code>${this.odds.expression}</code>` : nothing}</h2>
      <div class="rollbook-row rollbook-targets">
        ${TARGETS.map(target)}
      </div>
      ${wrong ? errorView(this.odds.answer.error, null, "rollbook-odds-problem", wrong.label) : nothing}
      ${this.odds?.estimating ? html`<p class="rollbook-answer__wait">Exact odds are out of reach for this one: estimating them by rolling it ${ESTIMATE_ROLLS.toLocaleString("en")} times…</p>`
        : !odds ? html`<p>Roll something to see the exact chance of every total.</p>`
        : !odds.ok ? (wrong ? nothing : errorView(odds.error, this.odds.expression, "rollbook-odds-problem"))
        : html`${estimated ? estimateNote(odds.result, this.odds.refused) : nothing}${distributionView(odds.result, this.#table(odds.result))}`}
    </section>`;
  }
}

/** What an estimate is: not exact, from how many seeded rolls, how far off a chance may be. */
function estimateNote(result, refused) {
  const margin = Number((result.margin * 100).toPrecision(2));
  return html`<p class="rollbook-estimate"><strong>Estimate, not exact:</strong> from ${result.rolls.toLocaleString("en")} rolls
    (seed ${result.seed}); each chance is within about ±${margin} percentage points (95%).
    ${refused ? html`<span class="rollbook-estimate__why">${refused.replace(/^exact odds are out of reach: /, "Exact odds are out of reach: ").replace(/ \(.*\)$/, "")}.</span>` : nothing}</p>`;
}

/** A total as the engine wrote it: exact ("7/2") where the notation divides, else the number. */
export function shownTotal(result) {
  return result.total_exact ?? String(result.total);
}

/** A float the engine sent for a range end (min, max): short, as a reader writes it. */
function short(number) {
  return Number.isInteger(number) ? String(number) : String(Number(number.toPrecision(6)));
}

const EXACT_SHOWN = 40; // characters of an exact fraction shown beside its percentage

function chanceLine(result, name, words) {
  if (result[name] === undefined) return nothing;
  const low = result[`p_${name}`];
  const high = result[`p_${name}_max`];
  if (result.estimate) {
    return html`<p class="rollbook-chance"><strong>${words} ${result[name]}: about ${percentView(low)}</strong>
      (estimated, ±${Number((result.margin * 100).toPrecision(2))} points)</p>`;
  }
  // the exact fraction beside it while it is short enough to read (400d6's have 312 digits a side)
  const exact = low.length <= EXACT_SHOWN && high.length <= EXACT_SHOWN;
  const upTo = high !== low ? html`up to ${exact ? high : percentView(high)} if the cut-off tail counts` : nothing;
  return html`<p class="rollbook-chance"><strong>${words} ${result[name]}: ${percentView(low)}</strong>
    ${exact ? html`(${low}${high !== low ? html`, ${upTo}` : nothing})` : high !== low ? html`(${upTo})` : nothing}</p>`;
}

/** Mean, range, chances, then `table` (distributionTable's). The lines above the table are in a
 *  box of their own: a chance line that appears beside the table, as its sibling, had the browser
 *  work out the style of every one of its rows again (d20!>=3: 170-200 ms of the page's main
 *  thread; inside the box, 10-14 ms). */
function distributionView(result, table) {
  const about = result.estimate ? "about " : "";
  return html`<div class="rollbook-odds__summary">
    <dl class="rollbook-stats">
      <div><dt>Mean</dt><dd>${about}${short(result.mean)}</dd></div>
      <div><dt>Min</dt><dd>${short(result.min)}</dd></div>
      <div><dt>Max</dt><dd>${short(result.max)}</dd></div>
      <div><dt>Spread (SD)</dt><dd>${about}${Number(result.stdev.toFixed(3))}</dd></div>
    </dl>
    ${chanceLine(result, "at_least", "At least")}
    ${chanceLine(result, "at_most", "At most")}
    ${result.residual !== "0" ? html`<p class="rollbook-note">Open-ended chains are cut where less than ${percentView(result.residual)} is left; the odds are exact up to that.</p>` : nothing}
    </div>
    ${table}`;
}

/** Every total as a table whose bars are drawn from its own numbers (<progress> elements: no
 *  style attribute, which the site's Content Security Policy refuses). */
function distributionTable(result) {
  // totals are exact text ("7/2" where the notation divides): ordered by their value, shown as written
  // an estimate of many totals comes by range from the engine ("48000–48499"), already in order
  const rows = result.ranges ? result.ranges.map((r) => [r.from === r.to ? String(r.from) : `${r.from}–${r.to}`, r.share])
    : Object.entries(result.distribution).sort((a, b) => fractionValue(a[0]) - fractionValue(b[0]));
  const peak = Math.max(...rows.map(([, p]) => fractionValue(p)));
  return html`
    <div class="rollbook-distribution" tabindex="0" role="region" aria-label="Chance of each total">
      <table>
        <caption>${!result.estimate ? "Chance of each total"
          : `Share of each total${result.ranges ? ", by range," : ""} in ${result.rolls.toLocaleString("en")} rolls (estimated chance)`}</caption>
        <thead><tr><th scope="col">Total</th><th scope="col">Chance</th><th scope="col"><span class="rollbook-visually-hidden">Bar</span></th></tr></thead>
        <tbody>${rows.map(([total, p]) => html`<tr>
          <th scope="row">${total}</th><td>${percentView(p)}</td>
          <td class="rollbook-bar-cell"><progress class="rollbook-bar" max="1" .value=${barLength(p, peak)} aria-hidden="true"></progress></td>
        </tr>`)}</tbody>
      </table>
    </div>`;
}

define("rollbook-roller", DiceRoller);
