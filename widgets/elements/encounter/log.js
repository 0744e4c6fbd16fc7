// What happened: the last step's answer (an attack's or strike's chain, then every event in the
// engine's words), shown where the step was tapped, and the encounter's kept log.

import { html, nothing } from "../../element.js";
import { taken } from "../wound-words.js";

/** The chain of the step's attack or strike (from its event's detail), or nothing. */
function chainOf(step) {
  const detailed = step.events.find((e) => e.detail && (e.kind === "damage" || e.kind === "attack" || e.kind === "strike"));
  if (!detailed) return null;
  return detailed.detail.attack_roll !== undefined ? attackChain(detailed.detail) : strikeChain(detailed.detail, step.events);
}

/** A step storage did not keep (full, blocked), said with its answer: the store's notice is at
 *  the page's top, often off-screen when the answer is at the thumb. */
export function notKeptLine(step) {
  return step?.notKept ? html`<p class="rollbook-problem rollbook-encounter__not-kept" role="alert">${step.notKept}</p>` : nothing;
}

/** The last step's answer in full: the chain of an attack or strike, then every event in the engine's words. */
export function stepView(step) {
  if (!step?.title) return nothing;
  const chain = chainOf(step);
  return html`<section class="rollbook-encounter__step" aria-labelledby="rollbook-enc-step-title" data-step-answer>
    <h3 id="rollbook-enc-step-title">${step.title}</h3>
    ${notKeptLine(step)}
    ${chain ?? nothing}
    ${chain
      ? html`<details class="rollbook-working"><summary>The engine's working</summary>${events(step)}</details>`
      : events(step)}
  </section>`;
}

/** The step's answer at the button that was tapped (a card's Attack or edit, the add buttons):
 *  what it did, first and large (the engine's outcome line for this combatant, else the step's
 *  title), and how it was reached one tap away. */
export function answerHere(step, outcome = null) {
  const chain = chainOf(step);
  return html`<section class="rollbook-encounter__step rollbook-encounter__step--here" aria-labelledby="rollbook-enc-step-title" data-step-answer>
    <h3 id="rollbook-enc-step-title" class="rollbook-encounter__outcome">${outcome?.text ?? step.title}</h3>
    ${notKeptLine(step)}
    ${step.events.length ? html`<details class="rollbook-working"><summary>How it was reached</summary>
      ${outcome ? html`<p class="rollbook-encounter__step-title">${step.title}</p>` : nothing}
      ${chain ?? nothing}${events(step)}</details>` : nothing}
  </section>`;
}

/** A combatant's line of what the last step did to it, on its card (the step's answer is elsewhere). */
export function outcomeLine(outcome) {
  return outcome ? html`<p class="rollbook-combatant__outcome"><span class="rollbook-visually-hidden">Last step: </span>${outcome.text}</p>` : nothing;
}

function events(step) {
  return html`<ul class="rollbook-encounter__events">${step.events.map((e) => html`<li>${e.text}</li>`)}</ul>`;
}

/** The encounter's kept log (the engine keeps the last 60 events), newest first. */
export function logView(encounter) {
  return html`<details class="rollbook-encounter__log">
    <summary>Encounter log (${encounter.logged} event${encounter.logged === 1 ? "" : "s"})</summary>
    <ol reversed>${[...encounter.log].reverse().map((e) => html`<li>${e.kind === "turn" ? nothing : html`<span class="rollbook-encounter__round">Round ${e.round}</span> `}${e.text}</li>`)}</ol>
  </details>`;
}

// --- an attack's or strike's chain ---------------------------------------------------------

/** Why an attack or strike cost the target nothing, in words from its detail (never a bare 0). */
export function noLoss(detail) {
  if (!detail?.hit) return "miss";
  const wound = detail.wound;
  const stopped = wound ? [wound.to_armor && "armor", wound.to_toughness && "Toughness"].filter(Boolean) : [];
  return stopped.length ? `${stopped.join(" and ")} stopped all ${detail.damage}` : "no damage";
}

/** A modifier with its sign, "+0" too: "17 0 (coordination 12)" would read as 170. */
function signed(n) {
  return n >= 0 ? `+${n}` : String(n);
}

/** An OpenCore attack's chain, from its event's detail (the `opencore attack` answer). */
function attackChain(detail) {
  const rows = [
    ["Attack", `${detail.attack_roll} → ${detail.attack_total}`],
    ["Defense", detail.defense_roll === null ? "no defense roll" : `${detail.defense_roll} → ${detail.defense_total}`],
    ["Result", `${detail.hit ? "hit" : "miss"} (${detail.reason})`],
  ];
  const wound = detail.wound;
  if (detail.hit && detail.damage !== null) rows.push(["Damage", `${detail.damage_expression}: ${detail.damage}`]);
  if (wound) {
    rows.push(["Armor", taken(wound.to_armor, wound.armor)]);
    rows.push(["Toughness", taken(wound.to_toughness, wound.toughness)]);
    const lost = wound.to_hp + wound.effects.extra_damage;
    rows.push(["HP", lost ? `−${lost} (${wound.hp} left): ${wound.state}` : `none lost, ${noLoss(detail)} (${wound.hp} left)`]);
    const crit = wound.critical_hit;
    if (crit) rows.push(["Critical", `${crit.type} ${crit.roll} (${crit.row}): ${crit.effect}`]);
    const e = wound.effects;
    const effects = [
      e.stun_rounds ? `stun ${e.stun_rounds} round${e.stun_rounds === 1 ? "" : "s"}` : null,
      e.unconscious_rounds ? `unconscious ${e.unconscious_rounds} round${e.unconscious_rounds === 1 ? "" : "s"}` : null,
      e.bloodloss ? `bloodloss ${e.hp_per_round} HP a round` : null,
      e.location ? `location ${e.location}${e.skill_penalty ? ` (${e.skill_penalty} to skills)` : ""}` : null,
    ].filter(Boolean);
    if (effects.length) rows.push(["Effect", effects.join(", ")]);
  }
  return chain(rows);
}

/** A Cyno strike's roll and modifiers, from its event's detail; the declared defense and the
 *  damage, in the engine's words, from the step's other events. */
function strikeChain(detail, stepEvents = []) {
  const rows = [["Strike", `${detail.roll}${detail.modifiers.map((m) => ` ${signed(m.modifier)} (${m.source})`).join("")} = ${detail.total}`],
    ["Result", `${detail.hit ? "hit" : "miss"}${detail.critical ? ", critical" : ""} (${detail.reason})`]];
  const defense = stepEvents.find((e) => e.kind === "defense");
  if (defense) rows.push(["Defense", defense.text]);
  for (const e of stepEvents.filter((x) => x.kind === "damage" || x.kind === "parry")) rows.push(["Damage", e.text]);
  return chain(rows);
}

function chain(rows) {
  return html`<dl class="rollbook-chain">${rows.map(([term, text]) => html`<div><dt>${term}</dt><dd>${text}</dd></div>`)}</dl>`;
}
