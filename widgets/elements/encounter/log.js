// What happened: the last step's answer (an attack's or strike's chain, then every event in the
// engine's words) and the encounter's kept log.

import { html, nothing } from "../../element.js";
import { attackChain, strikeChain } from "./actions.js";

/** The last step's answer: the chain of an attack or strike, then every event in the engine's words. */
export function stepView(step) {
  if (!step) return nothing;
  const detailed = step.events.find((e) => e.detail && (e.kind === "damage" || e.kind === "attack" || e.kind === "strike"));
  return html`<section class="rollbook-encounter__step" aria-labelledby="rollbook-enc-step-title">
    <h3 id="rollbook-enc-step-title">${step.title}</h3>
    ${detailed ? (detailed.detail.attack_roll !== undefined ? attackChain(detailed.detail) : strikeChain(detailed.detail)) : nothing}
    ${detailed
      ? html`<details class="rollbook-working"><summary>The engine's working</summary>${events(step)}</details>`
      : events(step)}
  </section>`;
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
