// <rollbook-opencore-check>: an OpenCore saving throw or check for the active character
// ("opencore check" with the character's scores and the rulings it was made with). The d100 can be
// typed from physical dice or rolled. A link carries the scores and rulings, so it shows the same
// result on a device that does not keep the character. <rollbook-opencore-successes>: the
// document's success check by the number of rolls above a number ("opencore successes").

import { choiceOptions } from "../choices.js";
import { COMMANDS } from "../facts.js";
import { define, given, html, RollbookTool, typed, verdict } from "../tool.js";
import { CHARACTER_RULINGS } from "../kept.js";
import { kept, SITE_ROOT } from "../session.js";
import { scoresText } from "./inline-roll.js";
import { chanceText } from "./dice.js";

// The command's choices, in the rules' words.
const KIND_WORDS = {
  "physical-toughness": "Physical Toughness save",
  reflex: "Reflex save",
  willpower: "Willpower save",
  awareness: "Awareness save",
  concentration: "Concentration save",
  perception: "Perception check",
};
const KINDS = choiceOptions(COMMANDS["opencore check"].kind.choices, KIND_WORDS);
const RULINGS = Object.keys(CHARACTER_RULINGS); // the options "opencore check" takes, as the character keeps them
const hidden = () => true; // carried in the link, taken from the active character

class OpenCoreCheck extends RollbookTool {
  static tool = "opencore-check";
  static page = "tools/checks/";
  static action = "Roll the save";

  connected() {
    super.connected();
    this.listen(kept.watch(() => this.update()));
  }

  fields() {
    return [
      { name: "kind", label: "Save or check", kind: "choice", options: KINDS, initial: KINDS[0].value, wide: true, remember: true },
      { name: "roll", label: "d100 rolled", help: "blank: rolled here", kind: "int" },
      { name: "who", label: "Character", kind: "text", hidden },
      { name: "scores", label: "Scores", kind: "text", hidden },
      ...RULINGS.map((name) => ({ name, label: name, kind: "text", hidden })),
    ];
  }

  intro() {
    const character = kept.active;
    if (character) return html`<p class="rollbook-tool__who">For <strong>${character.name}</strong>, the active character.</p>`;
    return html`<p class="rollbook-tool__who">No active character yet: make one (or pick one) on the
      <a href=${new URL("tools/character/", SITE_ROOT).href}>Character page</a>, then come back to roll its saves.</p>`;
  }

  run(options) {
    // A link brings its own character; a tap here rolls for the active one.
    if (!options?.linked) {
      const character = kept.active;
      const rulings = Object.fromEntries(RULINGS.map((name) => [name, character?.options?.[name] ?? ""]));
      this.values = { ...this.values, who: character?.name ?? "", scores: character ? scoresText(character.scores) : "", ...rulings };
    }
    return super.run(options);
  }

  resolve(values, seed) {
    if (!values.scores) return Promise.resolve({ ok: false, error: { kind: "character", message: "a save needs a character's scores" } });
    return super.resolve(values, seed);
  }

  request(values, seed) {
    const rulings = Object.fromEntries(RULINGS.map((name) => [name, values[name] || undefined]));
    return { command: "opencore check", args: given({ kind: values.kind, scores: values.scores, roll: typed(values.roll), ...rulings, seed }) };
  }

  problemView(id, field) {
    if (this.answer.error.kind === "character") {
      return html`<p class="rollbook-problem" id=${id} role="alert">a save needs a character's scores: make or pick the active
        character on the <a href=${new URL("tools/character/", SITE_ROOT).href}>Character page</a></p>`;
    }
    return super.problemView(id, field);
  }

  // The big number is the d100 the player rolled, with the outcome in words; what the save compares
  // after taking the ability off (5 - CON 99 = -94) and the chance are the engine's working under it.
  details(result, values) {
    return verdict(html`${result.name}${values.who ? ` for ${values.who}` : ""}: d100`, result.roll, result.success ? "Success" : "Failure");
  }

  kept(result, values) {
    return { label: `${result.name}${values.who ? ` (${values.who})` : ""}: ${result.success ? "success" : "failure"}`, total: result.roll };
  }
}

class OpenCoreSuccesses extends RollbookTool {
  static tool = "opencore-successes";
  static page = "tools/checks/";
  static action = "Roll and count";

  fields() {
    return [
      { name: "dice", label: "Dice", kind: "text", placeholder: "e.g. 5d10", remember: true },
      { name: "at_least", label: "A die counts at", kind: "int", help: "this number or higher", remember: true },
      { name: "needed", label: "Successes needed", kind: "int", initial: "1", remember: true },
      { name: "rolls", label: "Dice rolled", kind: "text", placeholder: "e.g. 3, 9, 8", help: "blank: rolled here",
        section: "Dice rolled at the table" },
    ];
  }

  request(values, seed) {
    const rolls = String(values.rolls ?? "").split(/[\s,]+/).filter(Boolean).map(typed);
    return { command: "opencore successes", args: given({
      dice: values.dice || undefined, at_least: typed(values.at_least), needed: typed(values.needed),
      rolls: rolls.length ? rolls : undefined, seed,
    }) };
  }

  details(result) {
    return html`
      ${verdict(`${result.dice}, ${result.needed} needed at ${result.at_least}+`, result.successes, result.success ? "Success" : "Failure")}
      <ul class="rollbook-dice" aria-label="the dice">${result.rolls.map((roll, i) => html`
        <li class="rollbook-die ${result.counted[i] ? "rollbook-die--success" : ""}"><span class="rollbook-die__face">${roll}</span>
          <span class="rollbook-die__status">${result.counted[i] ? "counts" : "does not count"}</span></li>`)}</ul>
      <p>Chance of success before rolling: ${chanceText(result.chance)}</p>`;
  }

  kept(result) {
    return { label: `${result.dice}: ${result.successes} at ${result.at_least}+, ${result.needed} needed: ${result.success ? "success" : "failure"}`,
      total: result.successes };
  }
}

define("rollbook-opencore-check", OpenCoreCheck);
define("rollbook-opencore-successes", OpenCoreSuccesses);
