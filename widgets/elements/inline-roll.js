// <rollbook-roll expression="2d10+STR" label="Sword damage">: a dice expression in the rules text
// as a button. A tap rolls it into the shared log and shows the total beside it. The hook writes
// these from explicit marks in the Markdown ([[roll 1d100 | Initiative]]) and from the tables'
// dice cells; before the widgets load they read as the plain expression.
//
// A name in the expression (STR, DEX, …) takes its value from the active character by the
// Rulings page's reading, asked of the engine ("opencore roll-values"); with no active character,
// the roll says which character page to visit. A roll that used one says whose scores it took
// ("Brakka's STR 76 counts as 2"). A weapon's damage that a low STR could bring below 1 carries the
// least it counts as (at-least="1", ruling opencore-damage-minimum): the engine rolls
// max(2d10+STR, 1), and the log keeps that, so "Roll again" keeps the minimum too.

import { ask } from "../engine.js";
import { define, html, nothing, RollbookElement } from "../element.js";
import { kept, rollIntoLog, SITE_ROOT } from "../session.js";
import { breakdown } from "./dice.js";

const NAMES = /\b[A-Z]{3}\b/g; // OpenCore's ability codes in an expression: STR, DEX, …

/** {STR: 76, DEX: 80} -> "STR=76,DEX=80", the form the engine's --scores takes. */
export function scoresText(scores) {
  return Object.entries(scores).map(([code, score]) => `${code}=${score}`).join(",");
}

/** An expression names abilities, and no character is active to give their values. */
class NeedsCharacter extends Error {
  constructor(names) {
    super(`${names.join(", ")} needs an active character`);
  }
}

class InlineRoll extends RollbookElement {
  static startsOnIntent = true; // reading a rules page costs no engine until a die is reached for
  connected() {
    this.expression = this.getAttribute("expression") ?? this.fallback;
    this.label = this.getAttribute("label") || this.expression;
    const atLeast = this.getAttribute("at-least");
    this.rolled = atLeast ? `max(${this.expression}, ${atLeast})` : this.expression; // what the engine rolls
    this.result = null;
    this.whose = null; // the scores the roll took, in words, or null
    this.problem = null;
    this.busy = false;
  }

  /** The values of the names in the expression and, when there are any, whose they are in words. */
  async #values() {
    const names = [...new Set(this.expression.match(NAMES) ?? [])];
    if (!names.length) return { vars: {}, whose: null };
    const character = kept.active;
    if (!character) throw new NeedsCharacter(names);
    const answer = await ask({ command: "opencore roll-values", args: { scores: scoresText(character.scores) } });
    if (!answer.ok) throw new Error(answer.error.message);
    const vars = Object.fromEntries(names.map((name) => [name, answer.result.values[name]]));
    const scores = names.map((name) => {
      const score = character.scores[name];
      return `${name} ${score}${vars[name] !== score ? ` counts as ${vars[name]}` : ""}`;
    });
    return { vars, whose: `${character.name}'s ${scores.join(", ")}` };
  }

  async #roll() {
    this.busy = true;
    this.problem = null;
    this.update();
    try {
      const { vars, whose } = await this.#values();
      const { answer } = await rollIntoLog({ expression: this.rolled, vars, label: this.label });
      if (answer.ok) [this.result, this.whose] = [answer.result, whose];
      else this.problem = answer.error.message;
    } catch (error) {
      this.problem = error instanceof NeedsCharacter
        ? html`${error.message}: make or pick one on the <a href=${new URL("tools/character/", SITE_ROOT).href}>Character page</a>`
        : error.message;
    }
    this.busy = false;
    this.update();
  }

  view() {
    const starting = this.busy && this.engine.state === "starting";
    return html`<button type="button" class="rollbook-roll__button" aria-label=${`Roll ${this.expression} (${this.label})`}
        @click=${() => this.#roll()}>${this.expression}</button><output class="rollbook-roll__result" aria-live="polite">${
        starting ? "starting the dice engine…"
        : this.busy ? "rolling…"
        : this.problem ? html`<span class="rollbook-problem">${this.problem}</span>`
        : this.result ? html`<strong>${this.result.total_exact ?? this.result.total}</strong> <span class="rollbook-roll__text">${breakdown(this.result.text)}</span>${
          this.whose ? html` <span class="rollbook-roll__whose">(${this.whose})</span>` : nothing}`
        : nothing}</output>`;
  }
}

define("rollbook-roll", InlineRoll);
