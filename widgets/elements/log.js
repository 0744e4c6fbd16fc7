// <rollbook-log>: the roll log shared by every widget and page of the visit (and kept across
// reloads): what was rolled and where, when, the total and its breakdown; roll an entry again,
// open it as a link, clear the log (with Undo).

import { define, html, nothing, repeat, RollbookElement } from "../element.js";
import { fittingLink, sitePage } from "../links.js";
import { breakdown } from "./dice.js";
import { keptNotice } from "../kept-notice.js";
import { kept, rollIntoLog, SITE_ROOT } from "../session.js";

const LINK = { expression: "text", seed: "int", vars: "vars", label: "text" };
const SHOWN = 50; // newest first; the rest stay kept (and exported) but off the screen

// One formatter for every entry: toLocaleTimeString() builds a new one per call, which on a slow
// phone made each roll's re-render of a long log measurably slower. Made when the first entry is
// drawn, not when the module loads: a page's first Intl formatter loads the locale's data (12-40 ms
// at full CPU in Chromium), a long task on a phone for a log that may be empty.
let CLOCK = null;

function clock(iso) {
  CLOCK ??= new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return CLOCK.format(new Date(iso));
}

class RollLog extends RollbookElement {
  static asksEngine = false; // a roll again from the log starts the engine when tapped
  connected() {
    this.undo = null; // after "Clear": the function that brings the log back
    // a new entry shows after the roll's own answer is on screen (its first time format alone
    // took 13 ms at full CPU, 52 ms at 4x, in the same task as the first total)
    this.listen(kept.watch(() => this.updateAfterPaint()));
  }

  #clear() {
    this.undo = kept.clearLog();
    this.update();
  }

  #undo() {
    this.undo?.();
    this.undo = null;
    this.update();
  }

  async #again(entry) {
    this.undo = null;
    const { answer } = await rollIntoLog({ expression: entry.expression, vars: entry.vars, label: entry.label });
    this.problem = answer.ok ? null : answer.error.message;
    this.update();
  }

  // An entry's page and link come from kept or imported data: drawn as links only when they are
  // pages of this site (sitePage), otherwise the page's name as plain text and no link.
  #pageView(entry) {
    if (!entry.page) return nothing;
    const href = sitePage(SITE_ROOT, entry.page);
    return href ? html` · <a href=${href}>${entry.page}</a>` : html` · ${entry.page}`;
  }

  #linkView(entry) {
    // a roll's own link only when it reads back whole (an expression past 500 characters would be
    // left out of it, and the link would roll another thing than the entry it stands for)
    const href = entry.link ? sitePage(SITE_ROOT, entry.link) : fittingLink(SITE_ROOT, "tools/roller/", LINK, entry);
    return href ? html` · <a href=${href} aria-label=${`Link to the roll ${entry.label} = ${entry.total}`}>Link</a>` : nothing;
  }

  view() {
    // Newest first, each entry keyed by its roll (ids are once each: kept/schema.js): drawn by
    // place, a new roll rewrote every entry, and a focused "Roll again" became the next entry's
    // (Enter on "Roll again: 2d6", then Enter again, rolled 3d8).
    const entries = kept.log.slice(-SHOWN).reverse();
    return html`
      <div class="rollbook-log__head">
        <h2 class="rollbook-log__title" id="rollbook-log-title">Roll log</h2>
        ${entries.length ? html`<button type="button" class="md-button" @click=${() => this.#clear()}>Clear log</button>` : nothing}
        ${this.undo ? html`<button type="button" class="md-button md-button--primary" @click=${() => this.#undo()}>Undo clear</button>` : nothing}
      </div>
      ${keptNotice(this)}
      ${this.problem ? html`<p class="rollbook-problem" role="alert">${this.problem}</p>` : nothing}
      <div role="log" aria-live="polite" aria-labelledby="rollbook-log-title"><ol class="rollbook-log__entries">
        ${repeat(entries, (entry) => entry.id, (entry) => html`<li class="rollbook-log__entry">
          <p class="rollbook-log__what"><span class="rollbook-log__label">${entry.label}</span>
            <strong class="rollbook-log__total">${entry.total_text ?? entry.total}</strong></p>
          <p class="rollbook-log__text"><code>${breakdown(entry.text)}</code></p>
          <p class="rollbook-log__meta">
            <time datetime=${entry.at}>${clock(entry.at)}</time>
            ${this.#pageView(entry)}
            ${this.#linkView(entry)}
          </p>
          ${entry.expression ? html`<button type="button" class="md-button" aria-label=${`Roll again: ${entry.label}`} @click=${() => this.#again(entry)}>Roll again</button>` : nothing}
        </li>`)}
      </ol></div>
      ${entries.length ? nothing : html`<p class="rollbook-log__empty">No rolls yet. Rolls made anywhere on the site (the dice in the rules text too) appear here.</p>`}
    `;
  }
}

define("rollbook-log", RollLog);
