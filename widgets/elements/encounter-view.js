// What <rollbook-encounter> shows of the engine's answers: a combatant's bars and badges, an
// attack's chain from its event detail, the encounter's log. Rendering only: every number here
// is a field of the engine's answer (the encounter, its status, an event's detail).

import { html, nothing } from "../element.js";

/** The start form's choices: the values `encounter start` takes, in words (the rulings page has
 *  each ruling in full; the first option is the ruling, the second its alternative). */
export const RULES = [
  { value: "opencore", label: "OpenCore" },
  { value: "cyno", label: "Cyno's Role-Play" },
];

export const START_CHOICES = {
  opencore: [
    { name: "initiative", label: "Initiative", options: [["individual", "Individual (1d20 + DEX, weapon, armor)"], ["group", "Group (1d6 a side)"]] },
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
  ],
};

/** One bar: a <progress> (the CSP allows no style="") and its numbers in words. */
export function bar(id, label, value, max) {
  const shown = Math.max(0, Math.min(value, max));
  return html`<div class="rollbook-meter">
    <span class="rollbook-meter__label" id=${`${id}-label`}>${label}</span>
    <progress class="rollbook-bar rollbook-meter__bar" max=${Math.max(max, 1)} .value=${shown}
      aria-labelledby=${`${id}-label ${id}-value`}></progress>
    <span class="rollbook-meter__value" id=${`${id}-value`}>${value} / ${max}</span>
  </div>`;
}

/** A combatant's bars: OpenCore HP, Toughness and armor (full = the values when added); Cyno DP. */
export function bars(encounter, combatant, full) {
  const id = `rollbook-enc-${combatant.id}`;
  if (encounter.rules === "cyno") {
    return html`<div class="rollbook-meters">${bar(`${id}-dp`, "DP", combatant.dp, combatant.dp_max)}</div>`;
  }
  const most = full ?? { armor: combatant.armor, toughness: combatant.toughness };
  return html`<div class="rollbook-meters">
    ${bar(`${id}-hp`, "HP", combatant.hp, combatant.hp_max)}
    ${most.toughness ? bar(`${id}-toughness`, "Toughness", combatant.toughness, most.toughness) : nothing}
    ${combatant.armor_name || most.armor ? bar(`${id}-armor`, combatant.armor_name ?? "Armor", combatant.armor, most.armor) : nothing}
  </div>`;
}

/** The status line: state, initiative, what the engine says the combatant can and cannot do. */
export function statusLine(encounter, combatant, status) {
  if (!status) return nothing;
  const parts = [status.state];
  if (combatant.initiative !== null) parts.push(`initiative ${combatant.initiative}`);
  if (encounter.rules === "opencore") {
    if (status.bleeding) parts.push(`bleeding ${-status.bleeding} HP a round`);
    if (combatant.stabilized) parts.push("stabilized");
    if (combatant.acted) parts.push("acted");
    if (status.state !== "dead" && !status.can_attack) parts.push("cannot attack");
    if (status.state !== "dead" && !status.can_defend) parts.push("cannot defend");
    if (status.defense_modifier) parts.push(`defense ${signed(status.defense_modifier)}`);
    if (status.skill_penalty) parts.push(`skills ${signed(status.skill_penalty)}`);
    if (status.armor_useless) parts.push("armor useless");
  } else {
    parts.push(`${status.actions_left} of ${combatant.actions} actions left`);
    if (status.strike_penalty) parts.push(`strike ${signed(status.strike_penalty)}`);
  }
  return html`<p class="rollbook-combatant__status">${parts.join(" · ")}</p>`;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The effect badges, each with its rounds left in the engine's words. */
export function badges(status) {
  if (!status?.effects.length) return nothing;
  return html`<ul class="rollbook-badges" aria-label="Effects">
    ${status.effects.map((words) => html`<li class="rollbook-badge">${words}</li>`)}</ul>`;
}

/** An OpenCore attack's chain, from its event's detail (the `opencore attack` answer). */
export function attackChain(detail) {
  const rows = [
    ["Attack", `${detail.attack_roll} → ${detail.attack_total}`],
    ["Defense", detail.defense_roll === null ? "no defense roll" : `${detail.defense_roll} → ${detail.defense_total}`],
    ["Result", `${detail.hit ? "hit" : "miss"} (${detail.reason})`],
  ];
  const wound = detail.wound;
  if (detail.hit && detail.damage !== null) rows.push(["Damage", `${detail.damage_expression}: ${detail.damage}`]);
  if (wound) {
    rows.push(["Armor", `-${wound.to_armor} (${wound.armor} left)`]);
    rows.push(["Toughness", `-${wound.to_toughness} (${wound.toughness} left)`]);
    rows.push(["HP", `-${wound.to_hp + wound.effects.extra_damage} (${wound.hp} left): ${wound.state}`]);
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

/** A Cyno strike's roll and modifiers, from its event's detail. */
export function strikeChain(detail) {
  const rows = [["Strike", `${detail.roll}${detail.modifiers.map((m) => ` ${signed(m.modifier)} (${m.source})`).join("")} = ${detail.total}`],
    ["Result", `${detail.hit ? "hit" : "miss"}${detail.critical ? ", critical" : ""} (${detail.reason})`]];
  return chain(rows);
}

function chain(rows) {
  return html`<dl class="rollbook-chain">${rows.map(([term, text]) => html`<div><dt>${term}</dt><dd>${text}</dd></div>`)}</dl>`;
}

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
    <ol reversed>${[...encounter.log].reverse().map((e) => html`<li><span class="rollbook-encounter__round">Round ${e.round}</span> ${e.text}</li>`)}</ol>
  </details>`;
}
