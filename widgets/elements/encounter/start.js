// Starting an encounter: the rule set and the rulings it is played by (`encounter start`).

import { ask } from "../../engine.js";
import { html, nothing } from "../../element.js";
import { select } from "./fields.js";

/** The start form's choices: the values `encounter start` takes, in words (the rulings page has
 *  each ruling in full; the first option is the ruling, the second its alternative). */
export const RULES = [
  { value: "opencore", label: "OpenCore" },
  { value: "cyno", label: "Cyno's Role-Play" },
];

export const START_CHOICES = {
  opencore: [
    { name: "initiative", label: "Initiative", options: [["individual", "Individual (1d20 + modifiers)"], ["group", "Group (1d6 a side)"]] },
    { name: "death_at", label: "Death", ruling: "opencore-death-threshold", options: [["negative-con", "Dead at minus CON"], ["zero", "Dead at 0 HP"]] },
    { name: "bloodloss_at", label: "Bleeding is lost", ruling: "opencore-bloodloss-timing", options: [["end-of-round", "At the end of the round"], ["own-turn", "On the bleeder's own turn"]] },
    { name: "rounds_count", label: "Stun and unconscious", ruling: "opencore-effect-rounds", options: [["after-dealt", "N rounds after the round dealt"], ["dealt-round", "The round dealt counts"]] },
    { name: "str_damage", label: "+STR in damage", ruling: "opencore-str-damage", options: [["modifier", "The Strength modifier"], ["score", "The Strength score"]] },
    { name: "dex_modifier", label: "DEX in initiative", ruling: "opencore-dex-modifier", options: [["centred", "(DEX - 50) / 10"], ["none", "No modifier"]] },
  ],
  cyno: [
    { name: "impossible_dodge", label: "A dodge that cannot work", ruling: "cyno-impossible-dodge", options: [["costs-action", "Still costs its action"], ["free", "Costs nothing"]] },
    { name: "failed_skilled_parry", label: "A failed skilled parry", ruling: "cyno-parry-with-skill", options: [["free", "Costs no action"], ["action", "Costs an action"]] },
    { name: "aim_lines", label: "Aiming", ruling: "cyno-aim-and-natural-lines", options: [["natural", "Raises the total only"], ["aimed", "Counts for the natural lines"]] },
    { name: "target_size", label: "Large and small target", ruling: "cyno-large-and-small-target", options: [["one", "One or the other"], ["both", "Both may apply"]] },
    { name: "ranged_parry", label: "What can be parried", ruling: "cyno-parry-blows-only", options: [["blow-only", "Hand-to-hand blows only"], ["allowed", "Any attack"]] },
  ],
};

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
    if (t.keep({ current: answer.result.encounter, undo: [], full: {}, seed: t.seed, updated }, null)) {
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
    ${t.ended ? html`<div class="rollbook-row"><p class="rollbook-done">Encounter ended.</p>
      <button type="button" class="md-button" @click=${() => t.bringBack()}>Bring it back</button></div>` : nothing}
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
