// Starting an encounter: the rule set and the rulings it is played by (`encounter start`).

import { ask } from "../../engine.js";
import { html, nothing } from "../../element.js";
import { ENCOUNTER, RULE_SET_NAMES } from "../../facts.js";
import { select } from "./fields.js";

/** The rule sets an encounter is played by (the engine's, in its order), by their names. */
export const RULES = ENCOUNTER.rule_sets.map((rules) => ({ value: rules, label: RULE_SET_NAMES[rules] }));

// The start form's words for each choice the engine takes (its label, then each value's words;
// the rulings page has each ruling in full). Names, values, ruling ids and order are the engine's.
const WORDS = {
  initiative: ["Initiative", { individual: "Individual (1d20 + modifiers)", group: "Group (1d6 a side)" }],
  death_at: ["Death", { "negative-con": "Dead at minus CON", zero: "Dead at 0 HP" }],
  bloodloss_at: ["Bleeding is lost", { "end-of-round": "At the end of the round", "own-turn": "On the bleeder's own turn" }],
  rounds_count: ["Stun and unconscious", { "after-dealt": "N rounds after the round dealt", "dealt-round": "The round dealt counts" }],
  str_damage: ["+STR in damage", { modifier: "The Strength modifier", score: "The Strength score" }],
  dex_modifier: ["DEX in initiative", { centred: "(DEX - 50) / 10", none: "No modifier" }],
  impossible_dodge: ["A dodge that cannot work", { "costs-action": "Still costs its action", free: "Costs nothing" }],
  failed_skilled_parry: ["A failed skilled parry", { free: "Costs no action", action: "Costs an action" }],
  aim_lines: ["Aiming", { natural: "Raises the total only", aimed: "Counts for the natural lines" }],
  target_size: ["Large and small target", { one: "One or the other", both: "Both may apply" }],
  ranged_parry: ["What can be parried", { "blow-only": "Hand-to-hand blows only", allowed: "Any attack" }],
};

function choice(name, values, ruling) {
  const [label, words] = WORDS[name];
  return { name, label, ...(ruling ? { ruling } : {}), options: values.map((value) => [value, words[value]]) };
}

/** The start form's choices: the values `encounter start` takes, in words (the first option is
 *  the ruling, the second its alternative); initiative only where the rule set rolls it more than one way. */
export const START_CHOICES = Object.fromEntries(RULES.map(({ value: rules }) => [rules, [
  ...(ENCOUNTER.initiative[rules].length > 1 ? [choice("initiative", ENCOUNTER.initiative[rules])] : []),
  ...Object.entries(ENCOUNTER.rulings[rules]).map(([name, r]) => choice(name, r.choices, r.ruling)),
]]));

/** The start form's values: each choice at its ruling (the first option). */
export function startValues(rules = "opencore") {
  return { rules, ...Object.fromEntries(Object.values(START_CHOICES).flat().map((c) => [c.name, c.options[0][0]])) };
}

/** Start the encounter the form describes; kept as the new fight with nothing to undo. */
export async function begin(t, event) {
  event.preventDefault();
  if (t.busy) return;
  const choices = START_CHOICES[t.start.rules];
  const args = { rules: t.start.rules, ...Object.fromEntries(choices.map((c) => [c.name, t.start[c.name]])) };
  t.busy = true;
  t.update();
  const answer = await ask({ command: "encounter start", args });
  t.busy = false;
  if (!answer.ok) return t.refused("start", answer.error);
  t.ended = null;
  t.problem = null;
  const updated = new Date().toISOString();
  t.shownAt = updated; // its status is in this answer
  // started from none: refused when another tab started one meanwhile
  await t.locked(async () => {
    if (t.keep({ current: answer.result.encounter, undo: [], full: {}, seed: t.seed, updated }, null, null)) { // (lost: said at the page's top, the start form gone)
      t.mine = updated; // this tab's own step (refused where tapped should another tab's start be settled first)
      t.statusFrom(answer.result.status);
      t.step = { title: "Encounter started", events: answer.result.events, outcomes: [], at: "quick" }; // by the add buttons
      t.said = "Encounter started. Add the combatants, then roll initiative.";
    }
  });
  t.update();
}

/** The start form: the rule set and the Start button at the top; the rulings folded, each at its
 *  usual reading (the summary says how many were changed, so a changed one is never hidden). */
export function startView(t) {
  const s = t.start;
  const set = (name) => (value) => { t.start = name === "rules" ? { ...startValues(value) } : { ...s, [name]: value }; t.update(); };
  const problem = t.problemFor("start", [["rules", "Rules"], ...START_CHOICES[s.rules].map((c) => [c.name, c.label])]);
  const usual = startValues(s.rules);
  const changed = START_CHOICES[s.rules].filter((c) => s[c.name] !== usual[c.name]).length;
  const blamed = START_CHOICES[s.rules].some((c) => problem.of(c.name));
  return html`
    ${t.ended ? html`<div class="rollbook-row rollbook-encounter__ended"><p class="rollbook-done">Encounter ended.</p>
      <button type="button" class="md-button" @click=${() => t.bringBack()}>Bring it back</button></div>`
      : t.endedElsewhere ? html`<p class="rollbook-done rollbook-encounter__ended">${t.endedElsewhere}</p>` : nothing}
    <form class="rollbook-encounter__start" @submit=${(e) => begin(t, e)}>
      <h2>Start an encounter</h2>
      ${t.seed !== null ? html`<p class="rollbook-answer__shared">Seeded (seed ${t.seed}): the same steps roll the same dice on any device.</p>` : nothing}
      ${t.seedProblem ? html`<p class="rollbook-problem">${t.seedProblem}</p>` : nothing}
      <div class="rollbook-fields">
        ${select("rollbook-enc-rules", "Rules", s.rules, RULES.map((r) => [r.value, r.label]), set("rules"), { wide: true, problem: problem.of("rules") })}
      </div>
      ${problem.line}
      ${t.problemFor(null).line /* a start refused for another tab's step not arrived yet (tracker.js locked) */}
      <button type="submit" class="md-button md-button--primary rollbook-tool__go" aria-busy=${t.busy ? "true" : "false"}>Start the encounter</button>
      ${t.waiting()}
      <details class="rollbook-encounter__rulings-choice" ?open=${blamed}>
        <summary>Rulings: ${changed ? `${changed} changed` : "each at its usual reading"}</summary>
        <div class="rollbook-fields">
          ${START_CHOICES[s.rules].map((c) => select(`rollbook-enc-${c.name}`, c.label, s[c.name], c.options, set(c.name),
            { ruling: c.ruling, titles: t.rulingTitles, wide: true, problem: problem.of(c.name) }))}
        </div>
      </details>
    </form>`;
}
