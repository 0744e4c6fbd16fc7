// <rollbook-codex-check>: an Ogre CharacterCodex skill check. The modifier and the DC (typed, or
// a complexity from the DC table, asked of "codex dc"), a plain roll, take 10 / 10+ / 20 or an
// automatic success; the exact chance of success before rolling ("codex odds"), then the d20 chain
// die by die, the total and the outcome with its rank ("codex check"). The GM's two rulings
// (automatic failure, the take 10/20 conditions) fold away under More options, each shown by its
// title (asked of "rulings") and sent as the ruling's option. After a reload the modifier, the DC
// and the rulings are what the check was last rolled with (tool.js, `remember`).

import { ask } from "../engine.js";
import { choiceOptions } from "../choices.js";
import { COMMANDS } from "../facts.js";
import { define, given, html, nothing, RollbookTool, tableRows, typed, verdict } from "../tool.js";
import { chanceText, percent } from "./dice.js";

const CHECK = COMMANDS["codex check"]; // its parameters: the takes, the two rulings' ids and choices
// The takes the engine has, in words, between a plain roll and an automatic success (`automatic`).
const TAKE_WORDS = { "10": "Take 10", "10+": "Take 10+ (rolls under 10 count as 10)", "20": "Take 20" };
const TAKES = [
  { value: "", label: "Roll the d20" },
  ...choiceOptions(CHECK.take.choices, TAKE_WORDS),
  { value: "automatic", label: "Automatic success (the modifier is at least the DC)" },
];
// Taking 10 or 20: the ruling's reading (the player ticks "not threatened or distracted"), then its alternative.
const [ASKED, TRUSTED] = CHECK.take_conditions.choices;
const CONDITION_WORDS = { [ASKED]: "Yes: ask for the tick", [TRUSTED]: "No: the player’s choice" };
// Which takes ask for each tick is the engine's (a parameter's `only_with`): the safe tick with
// taking 10 or 20, the failure's cost with taking 20; the engine ignores either tick otherwise.
const askedWith = (param) => (values) => CHECK[param].only_with.take.includes(values.take);
const ASKS_SAFE = askedWith("safe");
const ASKS_COST = askedWith("failure_has_cost");
const RULINGS = "The GM's rulings";

function outcome(result) {
  if (result.automatic) return `Automatic ${result.automatic}`;
  if (result.total_success) return `Total success, rank ${result.success_rank}`;
  if (result.total_failure) return `Total failure, rank ${result.failure_rank}`;
  return result.success ? "Success" : "Failure";
}

class CodexCheck extends RollbookTool {
  static tool = "codex-check";
  static page = "tools/checks/";
  static action = "Roll the check";

  connected() {
    this.complexities = [];
    this.titles = new Map(); // ruling id -> its title: a ruling is shown by its title
    this.odds = null; // the engine's "codex odds" answer for the inputs as they are
    super.connected();
    tableRows("codex.dc").then((rows) => {
      this.complexities = rows;
      this.update();
    });
    ask({ command: "rulings", args: {} }).then((answer) => {
      if (answer.ok) this.titles = new Map(answer.result.rulings.map((r) => [r.id, r.title]));
      this.update();
    });
    this.#askOdds();
  }

  fields() {
    return [
      { name: "modifier", label: "Skill modifier", kind: "int", initial: "0", remember: true },
      { name: "complexity", label: "Complexity", kind: "choice", section: "The DC from a complexity",
        options: [{ value: "", label: "Choose…" }, ...this.complexities.map((r) => ({ value: r.complexity, label: `${r.complexity} (DC ${r.dc})` }))] },
      { name: "dc", label: "DC", kind: "int", initial: "15", remember: true },
      { name: "take", label: "Roll or take", kind: "choice", options: TAKES, wide: true },
      // the document: taking 10 or 20 is impossible while threatened or distracted; the engine refuses it unless told
      { name: "safe", label: "Not threatened or distracted (may take 10 or 20)", kind: "bool",
        hidden: (v) => !ASKS_SAFE(v) || v.take_conditions === TRUSTED },
      { name: "failure_has_cost", label: "Failure has a cost (taking 20 incurs it)", kind: "bool", hidden: (v) => !ASKS_COST(v) },
      { name: "impossible_fails", label: this.titles?.get(CHECK.impossible_fails.ruling) ?? "Automatic failure", kind: "choice",
        section: RULINGS, wide: true, initial: "", remember: true, help: "when even a 20 could not reach the DC",
        options: [{ value: "", label: "Not used: roll the check" },
          { value: "true", label: "Used: fail without rolling" }] },
      { name: "take_conditions", label: this.titles?.get(CHECK.take_conditions.ruling) ?? "Taking 10 or 20", kind: "choice",
        section: RULINGS, wide: true, initial: ASKED, remember: true, help: "the tick “Not threatened or distracted” before taking 10 or 20",
        options: choiceOptions(CHECK.take_conditions.choices, CONDITION_WORDS) },
    ];
  }

  async changed(name) {
    if (name === "complexity" && this.values.complexity) {
      const answer = await ask({ command: "codex dc", args: { complexity: this.values.complexity } });
      if (answer.ok) this.values = { ...this.values, dc: String(answer.result.dc) };
      else this.answer = answer;
    } else if (name === "dc") {
      this.values = { ...this.values, complexity: "" }; // a typed DC is no longer the picked one
    }
    this.#askOdds();
  }

  #args(values) {
    const take = values.take === "automatic" ? undefined : values.take || undefined;
    return given({ modifier: typed(values.modifier), dc: typed(values.dc), take });
  }

  #checkArgs(values) {
    // the two ticks are shown (and sent) only with the take they are about; a ruling only when switched
    const trusted = values.take_conditions === TRUSTED;
    return given({ ...this.#args(values), automatic: values.take === "automatic" || undefined,
      safe: (ASKS_SAFE(values) && !trusted && values.safe) || undefined,
      failure_has_cost: (ASKS_COST(values) && values.failure_has_cost) || undefined,
      impossible_fails: values.impossible_fails === "true" || undefined,
      take_conditions: trusted ? TRUSTED : undefined });
  }

  async #askOdds() {
    const asked = this.#args(this.values);
    const answer = await ask({ command: "codex odds", args: asked });
    this.odds = { asked, answer };
    this.update();
  }

  request(values, seed) {
    return { command: "codex check", args: { ...this.#checkArgs(values), seed } };
  }

  preview() {
    const answer = this.odds?.answer;
    // until the engine's first answer, the line's room is held (its words, no numbers): drawn
    // with the answer, it moved Roll the check 67 px down under the reader's thumb about a second
    // after a returning player's page appeared (the engine starts at once from the cache)
    if (!answer) {
      return html`<p class="rollbook-chance" aria-hidden="true"><strong>Chance of success: …</strong>; total success …, total failure …</p>`;
    }
    if (!answer.ok) return nothing; // a bad input is reported when the check is rolled
    const { chances, can_succeed_automatically: automatic } = answer.result;
    return html`<p class="rollbook-chance" aria-live="polite">
      <strong>Chance of success: ${chanceText(chances.success)}</strong>;
      total success ${percent(chances.total_success)}, total failure ${percent(chances.total_failure)}
      ${automatic ? html`<br>The modifier is at least the DC: the character may succeed automatically without rolling (Roll or take: Automatic success).` : nothing}</p>`;
  }

  details(result) {
    const dc = html`${result.modifier >= 0 ? "+" : ""}${result.modifier} vs DC ${result.dc}`;
    return html`
      ${verdict(dc, result.total ?? "no roll", outcome(result))}
      ${result.chain.length ? html`<ul class="rollbook-dice" aria-label="the d20s, in order">${result.chain.map((link) => html`
        <li class="rollbook-die ${link.open_ended ? "rollbook-die--exploded" : ""}">
          <span class="rollbook-die__face">${link.roll}${link.open_ended ? "!" : ""}</span><span class="rollbook-die__kind">d20</span>
          <span class="rollbook-die__status">${link.note}</span></li>`)}</ul>`
        : html`<p>${result.automatic ? `Automatic ${result.automatic}` : `Taking ${result.take}`}: no die rolled.</p>`}
      <p class="rollbook-meaning">${result.meaning}</p>
      ${result.time_multiplier > 1 || result.penalties_incurred ? html`<ul class="rollbook-facts">
        ${result.time_multiplier > 1 ? html`<li>Taking ${result.take} takes <strong>${result.time_multiplier} times as long</strong> as a single check.</li>` : nothing}
        ${result.penalties_incurred ? html`<li>The character <strong>incurs the failure's penalties</strong> before completing the task.</li>` : nothing}
      </ul>` : nothing}
      <p>Chance of success was ${chanceText(result.chance)}.
        ${result.impossible_on_20 && !result.automatic ? "A natural 20 alone could not succeed: the GM may rule automatic failure." : nothing}</p>`;
  }

  kept(result, values) {
    const take = result.take ? ` (take ${result.take})` : "";
    // an automatic result has no total: the log shows "no roll"
    return { label: `Check ${result.modifier >= 0 ? "+" : ""}${result.modifier} vs DC ${result.dc}${take}: ${outcome(result)}`,
      total: result.total ?? 0, total_text: result.total === null ? "no roll" : undefined };
  }
}

define("rollbook-codex-check", CodexCheck);
