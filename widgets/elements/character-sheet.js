// The OpenCore character sheet: the engine's answer to "opencore character" as the page shows it
// and prints it. HP and the composites first and large (above the scores, where a roll shows them
// at once; each composite named by its abilities, HP with its working right under it), then the saving throws with their exact chances, then how each number was worked out
// (the rule, the numbers, the rulings applied); under the checks, the readings they follow (the
// ruling's title, or its alternative's words where the table chose it).
// Nothing here computes a rule: every number is the engine's.

import { html, nothing } from "../element.js";
import { ABILITIES, COMMANDS } from "../facts.js";
import { SITE_ROOT } from "../session.js";
import { percent } from "./dice.js";

/** The nine abilities in the seed's order, with the names its rules give them (for labels). */
export const ABILITY_NAMES = Object.fromEntries(ABILITIES.map((ability) => [ability.code, ability.name]));

// Where each worked-out number's rule is written, so a reader can check it.
const RULE_PAGES = {
  COM: ["opencore/character-creation/#comeliness-com", "Comeliness"],
  SDAC: ["opencore/character-creation/#character-composite-score", "Composite scores"],
  IPW: ["opencore/character-creation/#character-composite-score", "Composite scores"],
  CC: ["opencore/character-creation/#character-composite-score", "Composite scores"],
  HP: ["opencore/saves-and-health/#health-points-hp", "Health points"],
};

const page = (path) => new URL(path, SITE_ROOT).href;

// The saving throws in the order the rules give them, as "opencore check" takes them (the
// answer's JSON sorts its keys); Perception after them.
const SAVES = COMMANDS["opencore check"].kind.choices;

/** A composite's own name: the abilities it is made of (`abilities`: code -> the ability codes,
 *  the engine's composites table), by their names; "Composite" until the table is known. */
function compositeName(code, abilities) {
  const codes = abilities?.get(code);
  return codes?.length ? codes.map((ability) => ABILITY_NAMES[ability] ?? ability).join(", ") : "Composite";
}

function bigNumbers(result, abilities) {
  const composites = result.working.filter((step) => step.name in result.composites); // the engine's order: SDAC, IPW, CC
  const tiles = [["HP", "Health points", result.hp], ...composites.map((step) => [step.name, compositeName(step.name, abilities), result.composites[step.name]])];
  return html`<dl class="rollbook-sheet__big">
    ${tiles.map(([code, words, value]) => html`<div class="rollbook-sheet__tile">
      <dt>${code} <span class="rollbook-sheet__words">${words}</span></dt>
      <dd data-score=${code}>${value}</dd></div>`)}
  </dl>`;
}

/** Why HP is what it is, right under it: the engine's own working step ("1d100 - CON = 9 - 17 =
 *  -8, at least 1") and the ruling it applied, by its title (HP 1 is the rule for half of all
 *  characters, and a big "1" alone looks like a mistake). */
function hpWhy(result) {
  const step = result.working.find((s) => s.name === "HP");
  if (!step) return nothing;
  return html`<p class="rollbook-sheet__why" data-why="HP">HP ${step.value}: ${step.rule} = ${step.working}${step.rulings.map((ruling) => html`
    (<a href=${page(`rulings/#${ruling.id}`)}>${ruling.title}</a>)`)}</p>`;
}

function abilitiesTable(result) {
  return html`<table class="rollbook-sheet__abilities">
    <caption>Abilities</caption>
    <thead><tr><th scope="col">Ability</th><th scope="col">Score</th></tr></thead>
    <tbody>${Object.keys(ABILITY_NAMES).map((code) => html`<tr>
      <th scope="row">${ABILITY_NAMES[code]} (${code})</th>
      <td data-ability=${code}>${result.abilities[code]}${result.abilities[code] !== result.rolled[code]
        ? html` <span class="rollbook-sheet__words">(rolled ${result.rolled[code]})</span>` : nothing}</td></tr>`)}
    </tbody></table>`;
}

function checksTable(result) {
  const rank = (kind) => (SAVES.includes(kind) ? SAVES.indexOf(kind) : SAVES.length);
  const kinds = Object.keys(result.saves).sort((a, b) => rank(a) - rank(b));
  const checks = [...kinds.map((kind) => result.saves[kind]), result.perception];
  return html`<table class="rollbook-sheet__saves">
    <caption>Saving throws and Perception (<a href=${page("opencore/saves-and-health/")}>rules</a>)</caption>
    <thead><tr><th scope="col">Check</th><th scope="col">Roll</th><th scope="col">Chance</th></tr></thead>
    <tbody>${checks.map((check) => html`<tr data-check=${check.name}>
      <th scope="row">${check.name}</th>
      <td>${check.rule} <span class="rollbook-sheet__target">(${check.target})</span></td>
      <td><strong class="rollbook-sheet__chance">${percent(check.chance)}</strong>
        <span class="rollbook-sheet__words">${check.chance === "1" || check.chance === "0" ? nothing : check.chance}</span></td>
    </tr>`)}</tbody></table>
    <ul class="rollbook-sheet__readings" aria-label="The rulings these checks follow">${result.rulings.map((ruling) => html`
      <li class="rollbook-sheet__ruling" data-ruling=${ruling.id}>Ruling${ruling.alternative ? " (read the other way)" : ""}:
        <a href=${page(`rulings/#${ruling.id}`)}>${ruling.reading}</a></li>`)}</ul>`;
}

function workingList(result) {
  return html`<section class="rollbook-sheet__working" aria-labelledby="rollbook-working-title">
    <h3 id="rollbook-working-title">How it was worked out</h3>
    <ol>${result.working.map((step) => {
      const [rulePage, ruleWords] = RULE_PAGES[step.name] ?? [];
      return html`<li data-step=${step.name}>
        <p><strong>${step.name} ${step.value}</strong>: ${step.rule}${rulePage
          ? html` (<a href=${page(rulePage)}>${ruleWords}</a>)` : nothing}</p>
        <p><code>${step.working}</code></p>
        ${step.rulings.map((ruling) => html`<p class="rollbook-sheet__ruling">Ruling:
          <a href=${page(`rulings/#${ruling.id}`)}>${ruling.title}</a></p>`)}
      </li>`;
    })}</ol>
  </section>`;
}

/** The top of the sheet, right under the roll button: the name, then HP and the composites, large,
 *  each composite by its name (`abilities`: the composites table, code -> ability codes), and why
 *  HP is what it is. */
export function sheetSummary(result, name, abilities = null) {
  return html`<section class="rollbook-sheet rollbook-sheet--summary" aria-labelledby="rollbook-sheet-title">
    <h2 id="rollbook-sheet-title" class="rollbook-sheet__name">${name || "Unnamed character"}</h2>
    <div aria-live="polite">${bigNumbers(result, abilities)}${hpWhy(result)}</div>
  </section>`;
}

/** The rest of the sheet, under the scores: abilities (printed only), checks and the working. */
export function sheetDetails(result) {
  return html`<section class="rollbook-sheet" aria-label="Checks and working">
    ${abilitiesTable(result)}
    ${checksTable(result)}
    ${workingList(result)}
  </section>`;
}
