// A combatant's card: name and side, the status line, the bars and badges from the engine's
// status, the actions when it is its turn (a fumble's extra attack at any time), and its edits by
// hand (damage, healing, effects, …).

import { html, nothing, repeat } from "../../element.js";
import { COMMANDS, CRITICAL_TYPES as CRITICALS, ENCOUNTER } from "../../facts.js";
import { typed } from "../../tool.js";
import { kept } from "../../session.js";
import { actionsView, DEFENSE, extraAttacksView } from "./actions.js";
import { addAnother, addArgs, keepAsFoe } from "./add.js";
import { input, select } from "./fields.js";
import { answerHere, outcomeLine } from "./log.js";

const CRITICAL_TYPES = CRITICALS.map((critical) => critical.type);
// The effects added by hand are those `encounter effect` takes; Cyno's rules have none of
// OpenCore's, so a Cyno combatant is given a note.
const HAND_EFFECTS = COMMANDS["encounter effect"].kind.choices;
const EFFECTS = { opencore: HAND_EFFECTS, cyno: HAND_EFFECTS.filter((kind) => kind === "note") };
const LOCATIONS = ENCOUNTER.locations; // a location's states, least to worst: the critical tables'

/** A combatant's edit form values, kept per combatant while the page is open. */
export function blankEdit() {
  return { amount: "", critical_type: "", bonus: "", kind: HAND_EFFECTS[0], rounds: "1", hp_per_round: "-1", location: LOCATIONS[0], skill_penalty: "-10", defense_penalty: "-20", text: "", defense: DEFENSE.default, conditions: [], aim: "", ranged: false, unaware: false, fired: "weapon", volley: "" };
}

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

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The status line: state, initiative, what the engine says the combatant can and cannot do. */
export function statusLine(encounter, combatant, status) {
  // (until the engine's status arrives after a reload, its line's room is kept: nothing under it jumps)
  if (!status) return html`<p class="rollbook-combatant__status" aria-hidden="true">\u00a0</p>`;
  const parts = [status.state];
  if (combatant.initiative !== null) parts.push(`initiative ${combatant.initiative}`);
  if (encounter.rules === "opencore") {
    if (status.bleeding) parts.push(`bleeding ${-status.bleeding} HP a round`);
    if (combatant.stabilized) parts.push("stabilized");
    if (combatant.acted) parts.push("acted");
    // the engine's `targetable`: all but the dead, whose state says it all without "cannot attack"
    if (status.targetable && !status.can_attack) parts.push("cannot attack");
    if (status.targetable && !status.can_defend) parts.push("cannot defend");
    if (status.defense_modifier) parts.push(`defense ${signed(status.defense_modifier)}`);
    if (status.skill_penalty) parts.push(`skills ${signed(status.skill_penalty)}`);
    if (status.armor_useless) parts.push("armor useless");
  } else {
    parts.push(`${status.actions_left} of ${combatant.actions} actions left`);
    if (status.strike_penalty) parts.push(`strike ${signed(status.strike_penalty)}`);
  }
  return html`<p class="rollbook-combatant__status">${parts.join(" · ")}</p>`;
}

/** The effect badges, each with its rounds left in the engine's words. */
export function badges(status) {
  if (!status?.effects.length) return nothing;
  return html`<ul class="rollbook-badges" aria-label="Effects">
    ${status.effects.map((words) => html`<li class="rollbook-badge">${words}</li>`)}</ul>`;
}

export function combatantView(t, fight, c, active) {
  const enc = fight.current;
  const status = t.status.get(c.id);
  const titleId = `rollbook-enc-${c.id}-name`;
  const down = Boolean(status?.out); // out of the fight, as the engine says: drawn as down
  // what the last step did to it: the whole answer where it was tapped (this card's actions or
  // edits), else one line under the bars
  const outcome = t.step?.outcomes?.find((o) => o.id === c.id) ?? null;
  const acted = t.step?.at === `act-${c.id}`;
  const answered = (acted && active) || t.step?.at === `edit-${c.id}`;
  return html`<li class=${`rollbook-combatant${active ? " rollbook-combatant--active" : ""}${down ? " rollbook-combatant--down" : ""}`}
      aria-current=${active ? "true" : "false"} aria-labelledby=${titleId} data-id=${c.id}>
    <h3 class="rollbook-combatant__name" id=${titleId}>${c.name}
      <span class="rollbook-combatant__side">${c.side}${active ? " · acting" : ""}</span></h3>
    ${statusLine(enc, c, status)}
    ${bars(enc, c, fight.full[c.id])}
    ${badges(status)}
    ${answered ? nothing : acted ? answerHere(t.step, outcome) : outcomeLine(outcome)}
    ${active ? actionsView(t, enc, c) : nothing}
    ${extraAttacksView(t, enc, c, active)}
    ${editView(t, enc, c, status)}
  </li>`;
}

/** Each effect's key in its card's list. Effects have no id, so an effect is known by what it is
 *  (all but its rounds left, which count down) and how many alike came before it: ending one takes
 *  its own End away, and the focused button does not become the next effect's (Enter pressed
 *  twice on "End winded" ended "limping" too). Two effects alike in everything stay interchangeable. */
function effectKeys(effects) {
  const seen = new Map();
  return effects.map(({ rounds, ...what }) => {
    const key = JSON.stringify(what);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return `${key} ${seen.get(key)}`;
  });
}

/** An effect's kind as a player reads it: "dropped weapon", not the engine's "dropped-weapon". */
const effectName = (kind) => kind.replaceAll("-", " ");

/** The edit form's fields as the engine's steps name them, with their labels, in the form's order. */
function editFields(enc, e) {
  // a critical rolled by hand names its table "type" (encounter crit), a damage's "critical_type"
  return [["amount", enc.rules === "opencore" ? "Damage or HP" : "Damage or DP"], ["critical_type", "Critical table", ["type"]],
    ["bonus", "Critical bonus"], ["kind", "Effect"],
    ["rounds", e.kind === "note" ? "Rounds (blank: until ended)" : "Rounds"], ["hp_per_round", "HP a round"], ["location", "Location"],
    ["skill_penalty", "Skill penalty"], ["defense_penalty", "Defense penalty"], ["text", "Note"]];
}

function editStep(t, c, action, { leaving = null } = {}) {
  const e = t.edit(c.id);
  const opencore = t.current().rules === "opencore";
  const form = `edit-${c.id}`;
  if (action === "damage") {
    return t.run("encounter damage", { target: c.id, amount: typed(e.amount), critical_type: opencore ? e.critical_type || undefined : undefined },
      { rolls: opencore, title: `${c.name} takes damage`, form, blame: "amount" });
  }
  if (action === "critical") {
    return t.run("encounter crit", { target: c.id, type: e.critical_type || undefined, bonus: typed(e.bonus) },
      { rolls: true, title: `${c.name}: a critical rolled`, form });
  }
  if (action === "heal") return t.run("encounter heal", { target: c.id, amount: typed(e.amount) }, { title: `${c.name} is healed`, form, blame: "amount" });
  if (action === "stabilize") return t.run("encounter stabilize", { target: c.id }, { title: `${c.name} is stabilized`, form });
  if (action === "remove") return t.run("encounter remove", { who: c.id }, { title: `${c.name} leaves the encounter`, form, leaving });
  if (action === "effect") {
    return t.run("encounter effect", { who: c.id, kind: e.kind, ...effectArgs(e) }, { title: `${c.name}: ${effectName(e.kind)} added`, form });
  }
  return null;
}

/** Remove tapped on `card`: its place among the cards goes with the step, for the step's answer to
 *  take once the card has gone (the tracker's leftView). */
function removeTapped(t, c, card) {
  const cards = [...card.parentElement.children].filter((li) => li.matches(".rollbook-combatant"));
  return t.closingUp(() => editStep(t, c, "remove", { leaving: { id: c.id, at: cards.indexOf(card) } }));
}

/** What an effect added by hand carries besides its kind, as the engine's facts have it: its own
 *  fields (a number as typed, text trimmed), and its rounds where it may count them (blank: none). */
function effectArgs(e) {
  const { ends, fields } = ENCOUNTER.effects[e.kind];
  const args = ends.includes("rounds") ? { rounds: typed(e.rounds) } : {};
  for (const [name, fact] of Object.entries(fields)) args[name] = fact.kind === "int" ? typed(e[name]) : String(e[name] ?? "").trim();
  return args;
}

function editView(t, enc, c, status) {
  const e = t.edit(c.id);
  const id = (name) => `rollbook-enc-${c.id}-${name}`;
  const set = (name) => (value) => { e[name] = value; t.update(); };
  const opencore = enc.rules === "opencore";
  const k = e.kind;
  const rounds = Boolean(ENCOUNTER.effects[k]?.ends.includes("rounds")); // the effects that may count rounds down
  const form = `edit-${c.id}`;
  const labels = Object.fromEntries(editFields(enc, e));
  const problem = t.problemFor(form, editFields(enc, e).filter(([arg]) => (arg !== "rounds" || rounds) && (arg !== "bonus" || opencore)));
  const number = (arg, name = arg) => input(id(name.replaceAll("_", "-")), labels[arg], e[arg], set(arg), { problem: problem.of(arg) });
  return html`<details class="rollbook-combatant__edit">
    <summary>Edit ${c.name}</summary>
    <form data-anchor=${form} @submit=${(ev) => { ev.preventDefault(); editStep(t, c, "damage"); }}>
    <div class="rollbook-fields">
      ${number("amount")}
      ${opencore ? select(id("critical"), "Critical table", e.critical_type, [["", "Not chosen"], ...CRITICAL_TYPES.map((x) => [x, x])], set("critical_type"), { problem: problem.of("critical_type") }) : nothing}
      ${opencore ? number("bonus", "critical_bonus") : nothing}
    </div>
    <div class="rollbook-row">
      <button type="submit" class="md-button">Damage</button>
      <button type="button" class="md-button" @click=${() => editStep(t, c, "heal")}>Heal</button>
      ${opencore ? html`<button type="button" class="md-button" @click=${() => editStep(t, c, "critical")}>Roll a critical</button>` : nothing}
      ${opencore && status?.bleeding ? html`<button type="button" class="md-button" @click=${() => editStep(t, c, "stabilize")}>Stabilize</button>` : nothing}
      ${opencore ? nothing : html`<button type="button" class="md-button"
        @click=${() => t.run("encounter surprise", { who: c.id }, { rolls: true, title: `${c.name}: the Surprise Chart`, form })}>Surprised? Roll the chart</button>`}
    </div>
    </form>
    ${t.step?.at === form ? answerHere(t.step, t.step.outcomes.find((o) => o.id === c.id)) : nothing}
    <div class="rollbook-fields">
      ${select(id("kind"), "Effect", k, EFFECTS[enc.rules].map((x) => [x, effectName(x)]), set("kind"), { problem: problem.of("kind") })}
      ${rounds ? number("rounds") : nothing}
      ${k === "bloodloss" ? number("hp_per_round") : nothing}
      ${k === "location" ? select(id("location"), "Location", e.location, LOCATIONS.map((x) => [x, x]), set("location"), { problem: problem.of("location") }) : nothing}
      ${k === "location" ? number("skill_penalty") : nothing}
      ${k === "stumble" ? number("defense_penalty") : nothing}
      ${k === "note" ? input(id("text"), "Note", e.text, set("text"), { numeric: false, problem: problem.of("text") }) : nothing}
    </div>
    ${problem.line}
    <button type="button" class="md-button" @click=${() => editStep(t, c, "effect")}>Add the effect</button>
    ${c.effects.length ? html`<ul class="rollbook-combatant__effects" aria-label=${`End an effect of ${c.name}`}>
      ${repeat(effectKeys(c.effects), (key) => key, (key, index) => html`<li><button type="button" class="md-button"
        @click=${() => t.closingUp(() => t.run("encounter end-effect", { who: c.id, index }, { title: `${c.name}: ${effectName(c.effects[index].kind)} ended`, form }))}>End ${status?.effects[index] ?? effectName(c.effects[index].kind)}</button></li>`)}
    </ul>` : nothing}
    <div class="rollbook-row">
      <button type="button" class="md-button" @click=${() => addAnother(t, c)}>Another like ${c.name}</button>
      <button type="button" class="md-button" @click=${() => keepAsFoe(t, addArgs(enc, c, kept.encounter.full[c.id]), form)}>Keep for next time</button>
    </div>
    <button type="button" class="md-button rollbook-combatant__remove" @click=${(e) => removeTapped(t, c, e.currentTarget.closest("li"))}>Remove ${c.name}</button>
  </details>`;
}
