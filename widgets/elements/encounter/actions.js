// The acting combatant's actions: the target, one-tap attack (OpenCore) or strike (Cyno, with its
// declared defense and strike options), Defense and Bide, holding back; a fumble's extra attack,
// out of turn; and the chain of an attack or strike from its event's detail.

import { html, nothing } from "../../element.js";
import { choiceOptions } from "../../choices.js";
import { COMMANDS, CRITICAL_TYPES } from "../../facts.js";
import { labelled } from "../../field-problem.js";
import { keepResult } from "../../session.js";
import { typed } from "../../tool.js";
import { input, select } from "./fields.js";
import { answerHere, noLoss } from "./log.js";
import { POWER_WORDS } from "../power-words.js";

const PAGE = "tools/encounter/";
// A strike's declared defense: those `encounter strike` takes, in its order, at its default until chosen.
export const DEFENSE = COMMANDS["encounter strike"].defense;
const DEFENSE_WORDS = { none: "No defense", dodge: "Dodge", "blind-dodge": "Blind dodge", parry: "Parry" };
const DEFENSES = choiceOptions(DEFENSE.choices, DEFENSE_WORDS).map(({ value, label }) => [value, label]);
// Cyno's strike: the attacker's own weapon, or what Rockets and Missiles describe
// (a rocket is a shot: no dodge or parry; a volley takes no bonuses or penalties: the engine applies both)
const FIRED = [["weapon", "Its own weapon"], ["rocket", "A rocket (−2)"], ["volley", "A missile volley"]];

export async function attack(t, attacker, target) {
  const fight = t.current();
  const cyno = fight.rules === "cyno";
  const a = fight.combatants.find((c) => c.id === attacker);
  const b = fight.combatants.find((c) => c.id === target);
  const args = cyno ? strikeArgs(t, attacker, target) : attackArgs(t, attacker, target);
  // Into the roll log, with the step itself: what was rolled, the HP (DP) it cost the target (or,
  // when none, why), the engine's words.
  const logged = (result, seed, step) => {
    const lost = result.events.filter((e) => e.who === target).reduce((sum, e) => sum - (e.hp ?? e.dp ?? 0), 0);
    const detail = result.events.find((e) => e.detail)?.detail;
    keepResult({
      label: `${step.title} (round ${fight.round})`,
      total: lost,
      total_text: lost ? null : noLoss(detail),
      text: result.text.slice(0, 2000),
      seed,
      link: PAGE,
    });
  };
  await t.run(cyno ? "encounter strike" : "encounter attack", args,
    { rolls: true, title: `${a.name} ${cyno ? "strikes" : "attacks"} ${b.name}`, form: `act-${attacker}`, alsoKeep: logged,
      onKept: () => rollsUsed(t.edit(attacker), cyno ? STRIKE_ROLLS : ATTACK_OPTIONS) });
}

/** An OpenCore attack's arguments: with what is in hand, as the engine's status says (Hand to Hand
 *  once the weapon is dropped: the engine refuses an attack that names no weapon then, and the
 *  card named none), or a Power; and what "Attack options" shows for that attack (the engine
 *  rolls what is left blank). */
function attackArgs(t, attacker, target) {
  const e = t.edit(attacker);
  const a = attackKind(t, attacker);
  return { attacker, target, power: a.power || undefined, weapon: a.power ? undefined : a.wielded,
           mode: a.modes.length ? e.mode || a.modes[0] : undefined, critical_type: e.attack_critical || undefined,
           substance_flaw: e.substance_flaw || undefined,
           ...Object.fromEntries(ATTACK_OPTIONS.filter(([, , shown]) => shown(a)).map(([name]) => [name, typed(e[name])])) };
}

/** What the acting combatant attacks with: `power` ("" for the weapon in hand), `wielded` (the
 *  engine's status) and that weapon's damage modes (none for a Power). */
function attackKind(t, id) {
  const power = t.edit(id).power ?? "";
  const wielded = t.status.get(id)?.wielded;
  return { power, wielded, modes: power ? [] : t.weaponModes?.get(wielded) ?? [] };
}

/** Dice rolled at the table count for one attack or strike: emptied once it is kept (bonuses
 *  stay, as a situation often lasts: the count on "Attack options" shows them). */
function rollsUsed(e, options) {
  for (const [name] of options) if (rolled(name)) e[name] = "";
}

const rolled = (name) => name.endsWith("_roll") || name === "roll" || name === "percentile";

/** A strike's declared defense and the options chosen under "Strike options". */
function strikeArgs(t, attacker, target) {
  const e = t.edit(attacker);
  // a volley takes no bonuses, penalties or aim (ruling cyno-missile-modifiers): those options are not shown for it
  const volley = e.fired === "volley";
  return { attacker, target, defense: e.defense ?? DEFENSE.default,
           condition: !volley && e.conditions.length ? e.conditions : undefined, aim: volley ? undefined : typed(e.aim),
           ranged: (!volley && e.ranged) || undefined, unaware: e.unaware || undefined,
           rocket: e.fired === "rocket" || undefined, volley: volley ? typed(e.volley) ?? 0 : undefined,
           ...Object.fromEntries(strikeRolls(e).map(([name]) => [name, typed(e[name])])) };
}

/** Cyno's dice rolled at the table, as `encounter strike` names them, each shown where the strike
 *  declared calls for it (a dodge or parry roll only against one, the percentage roll only for a
 *  blind dodge or a parry, an aimed hit's roll only when aiming): left blank, rolled for you. */
const STRIKE_ROLLS = [["roll", "Strike roll (1d20)"], ["defense_roll", "Dodge or parry roll (1d20)"],
  ["percentile", "Blind dodge or parry roll (1d100)"], ["damage_roll", "Damage roll"], ["location_roll", "Aimed hit's roll (1d100)"]];

function strikeRolls(e) {
  const volley = e.fired === "volley";
  const defended = (e.defense ?? DEFENSE.default) !== "none" && !e.unaware && e.fired !== "rocket";
  const shown = { defense_roll: defended, percentile: defended && ["blind-dodge", "parry"].includes(e.defense),
                  location_roll: !volley && (typed(e.aim) ?? 0) > 0 };
  return STRIKE_ROLLS.filter(([name]) => shown[name] ?? true);
}

/** The acting combatant's fields as the engine's steps name them, with their labels, in the form's order. */
const ACT_FIELDS = [["target", "Target"], ["defense", "Target's defense"], ["fired", "What is fired"], ["volley", "Missiles in the volley"],
  ["aim", "Actions spent aiming"], ["conditions", "Bonuses and penalties"], ["after", "Target"]];
/** OpenCore's "Attack options", as `encounter attack` names them, each shown where it is part of
 *  the attack chosen (with the weapon in hand or a Power, as the combat helper's): the Power's own
 *  numbers, bonuses, what stops or lets through the wound, then dice rolled at the table (a thrown
 *  weapon's damage has to be: the Weapons Table gives none). The critical table apart (a thrown
 *  weapon has none either; kept apart from the card's own edit form's). */
const scored = (a) => a.power === "physical" || a.power === "mental";
const blocked = (a) => a.power !== "mental"; // "Mental powers used in combat cannot be blocked": nothing rolled against them
const armed = (a) => !a.power;
const always = () => true;
const ATTACK_OPTIONS = [["power_score", "Power's score", scored], ["attack_skill", "Hand-to-Hand skill", (a) => a.power === "touch"],
  ["power_damage", "Power's damage", (a) => Boolean(a.power)], ["resistance", "Target's Magic Resistance", (a) => a.power === "mental"],
  ["attack_bonus", "Attack bonus", blocked], ["defense_bonus", "Defense bonus", blocked],
  ["damage_bonus", "Better weapon's bonus", armed], ["power_protection", "Armor or Shielding Power stops", always],
  ["critical_bonus", "Critical bonus of the attack", always],
  ["attack_roll", "Attack roll (1d100)", blocked], ["defense_roll", "Defense roll (1d100)", blocked],
  ["damage_roll", "Damage roll", armed], ["critical_roll", "Critical roll (1d100)", always],
  ["attacker_fumble_roll", "Attacker's Fumble Chart roll (1d100)", blocked], ["defender_fumble_roll", "Defender's Fumble Chart roll (1d100)", blocked]];
const ATTACK_FIELDS = [["power", "Attack with"], ["mode", "Mode"], ...ATTACK_OPTIONS.map(([name, label]) => [name, label]),
  ["substance_flaw", "Substance flaw against this (straight to HP)"], ["critical_type", "Critical table of the attack"]];
const WIDE = new Set(["resistance", "power_protection", "critical_bonus"]); // labels of two lines: alone on their row, so the fields beside stay level
const CRITICAL_TABLES = CRITICAL_TYPES.map(({ type }) => [type, type]); // after the weapon's (or, for a Power, none chosen)
const POWERS = choiceOptions(COMMANDS["encounter attack"].power.choices, POWER_WORDS).map(({ value, label }) => [value, label]);

function attackOptions(t, c, problem) {
  const e = t.edit(c.id);
  const a = attackKind(t, c.id);
  const shown = ATTACK_OPTIONS.filter(([, , when]) => when(a));
  const [rolls, numbers] = [shown.filter(([name]) => rolled(name)), shown.filter(([name]) => !rolled(name))];
  const given = shown.filter(([name]) => typed(e[name]) !== undefined).length
    + [a.power, e.substance_flaw, e.attack_critical, a.modes.length && e.mode && e.mode !== a.modes[0]].filter(Boolean).length;
  const id = (name) => `rollbook-enc-${c.id}-${name.replaceAll("_", "-")}`;
  const set = (name) => (v) => { e[name] = v; t.update(); };
  return html`<details class="rollbook-combatant__edit">
    <summary>Attack options${given ? ` (${given})` : ""}</summary>
    <div class="rollbook-fields">
      ${select(id("power"), "Attack with", a.power, [["", `Its weapon (${a.wielded ?? c.weapon})`], ...POWERS], set("power"),
        { wide: true, problem: problem.of("power") })}
      ${a.modes.length ? select(id("mode"), "Mode", e.mode || a.modes[0], a.modes.map((m) => [m, m]), set("mode"), { problem: problem.of("mode") }) : nothing}
      ${numbers.map(([name, label]) => input(id(name), label, e[name] ?? "", set(name), { problem: problem.of(name), wide: WIDE.has(name) }))}
      ${select(id("attack-critical"), "Critical table of the attack", e.attack_critical ?? "", [["", a.power ? "Not chosen" : "The weapon's"], ...CRITICAL_TABLES], set("attack_critical"),
        { wide: true, problem: problem.of("critical_type") })}
    </div>
    <div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("substance-flaw")} .checked=${Boolean(e.substance_flaw)}
      @change=${(ev) => { e.substance_flaw = ev.target.checked; t.update(); }}> Substance flaw against this (straight to HP)</label></div>
    <p>Dice rolled at the table, for this attack; left blank, they are rolled for you.</p>
    <div class="rollbook-fields">
      ${rolls.map(([name, label]) => input(id(name), label, e[name] ?? "", set(name), { problem: problem.of(name) }))}
    </div>
  </details>`;
}

function strikeOptions(t, c, problem) {
  const e = t.edit(c.id);
  const id = (name) => `rollbook-enc-${c.id}-${name}`;
  const chosen = new Set(e.conditions);
  const toggle = (row, on) => {
    // a chart's group (large or small target, cover) is one line at most; large and small both, when
    // the encounter's ruling says so (the engine refuses what the ruling rules out)
    const alone = row.group && !(row.group === "target-size" && t.current().rulings.target_size === "both");
    const rest = e.conditions.filter((x) => x !== row.id && !(on && alone && t.conditions.find((r) => r.id === x)?.group === row.group));
    e.conditions = on ? [...rest, row.id] : rest;
    t.update();
  };
  const sign = (n) => (n > 0 ? `+${n}` : String(n));
  const volley = e.fired === "volley";
  const rolls = strikeRolls(e);
  const chosenCount = (volley ? 0 : e.conditions.length + (e.ranged ? 1 : 0) + (typed(e.aim) ? 1 : 0))
    + (e.unaware ? 1 : 0) + (e.fired !== "weapon" ? 1 : 0) + rolls.filter(([name]) => typed(e[name]) !== undefined).length;
  return html`<details class="rollbook-combatant__edit">
    <summary>Strike options${chosenCount ? ` (${chosenCount})` : ""}</summary>
    <div class="rollbook-fields">
      ${select(id("fired"), "What is fired", e.fired, FIRED, (v) => { e.fired = v; t.update(); }, { wide: true, problem: problem.of("fired") })}
      ${volley ? input(id("volley"), "Missiles in the volley", e.volley, (v) => { e.volley = v; t.update(); }, { problem: problem.of("volley") })
               : input(id("aim"), "Actions spent aiming", e.aim, (v) => { e.aim = v; t.update(); }, { problem: problem.of("aim") })}
    </div>
    ${volley ? nothing : html`<div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("ranged")} .checked=${e.ranged}
      @change=${(ev) => { e.ranged = ev.target.checked; t.update(); }}> Not hand-to-hand (cannot be dodged)</label></div>`}
    <div class="rollbook-field rollbook-field--check"><label><input type="checkbox" id=${id("unaware")} .checked=${e.unaware}
      @change=${(ev) => { e.unaware = ev.target.checked; t.update(); }}> The target does not know of it (no dodge or parry)</label></div>
    ${volley ? nothing : html`<fieldset class="rollbook-field rollbook-checks"><legend>Bonuses and penalties</legend>
      ${(t.conditions ?? []).map((row) => html`<label><input type="checkbox" value=${row.id} .checked=${chosen.has(row.id)}
        @change=${(ev) => toggle(row, ev.target.checked)}> ${sign(row.modifier)}: ${row.condition}</label>`)}
      ${problem.of("conditions") ? html`<p class="rollbook-problem" role="alert" tabindex="-1">${labelled("Bonuses and penalties", problem.of("conditions"))}</p>` : nothing}
    </fieldset>`}
    <p>Dice rolled at the table, for this strike; left blank, they are rolled for you.</p>
    <div class="rollbook-fields">
      ${rolls.map(([name, label]) => input(id(name.replaceAll("_", "-")), label, e[name] ?? "", (v) => { e[name] = v; t.update(); },
        { problem: problem.of(name), wide: name === "percentile" }))}
    </div>
  </details>`;
}

/** The acting combatant's part of its card: what it can do now, or why it cannot (the engine's
 *  words, where the buttons were), then the answer of the step just taken here, under the thumb. */
export function actionsView(t, enc, c) {
  const form = `act-${c.id}`;
  const here = t.step?.at === form ? answerHere(t.step, t.step.outcomes.find((o) => o.id === c.id)) : nothing;
  const status = t.status.get(c.id);
  const attackRefused = status?.attack_refused ?? null;
  const actionRefused = enc.rules === "opencore" ? status?.action_refused ?? null : attackRefused;
  if (attackRefused && actionRefused) {
    return html`<div class="rollbook-combatant__act" data-anchor=${`act-${c.id}`}>
      <p class="rollbook-combatant__refused">${attackRefused}.</p>${t.problemFor(form).line}${here}</div>`;
  }
  return actionsForm(t, enc, c, attackRefused, here);
}

function actionsForm(t, enc, c, attackRefused, here) {
  const others = enc.combatants.filter((o) => o.id !== c.id);
  if (!others.length) return here;
  const standing = (o) => t.status.get(o.id)?.targetable ?? true; // the engine's: an attack on it is not refused
  const foes = others.filter((o) => o.side !== c.side && standing(o));
  const chosen = others.some((o) => o.id === t.targets[c.id]) ? t.targets[c.id] : (foes[0] ?? others[0]).id;
  const target = others.find((o) => o.id === chosen);
  const cyno = enc.rules === "cyno";
  const e = t.edit(c.id);
  const form = `act-${c.id}`;
  const problem = t.problemFor(form, cyno ? [...ACT_FIELDS, ...STRIKE_ROLLS] : [...ACT_FIELDS.filter(([arg]) => ["target", "after"].includes(arg)), ...ATTACK_FIELDS]);
  const targetProblem = problem.of("target") ?? problem.of("after");
  if (attackRefused) { // OpenCore: stunned, the Defense action and Bide still open
    return html`<div class="rollbook-combatant__act" data-anchor=${`act-${c.id}`}>
      <p class="rollbook-combatant__refused">${attackRefused}.</p>
      ${problem.line}
      ${here}
      <div class="rollbook-row">${ocActions(t, c, form)}</div>
    </div>`;
  }
  return html`<div class="rollbook-combatant__act" data-anchor=${`act-${c.id}`}>
    <div class="rollbook-fields">
      ${select(`rollbook-enc-${c.id}-target`, "Target", chosen, others.map((o) => [o.id, `${o.name} (${o.side})`]), (v) => { t.targets[c.id] = v; t.update(); }, { wide: true, problem: targetProblem })}
      ${cyno ? select(`rollbook-enc-${c.id}-defense`, "Target's defense", e.defense, DEFENSES, (v) => { e.defense = v; t.update(); }, { wide: true, problem: problem.of("defense") }) : nothing}
    </div>
    ${cyno ? strikeOptions(t, c, problem) : attackOptions(t, c, problem)}
    ${problem.line}
    <button type="button" class="md-button md-button--primary rollbook-encounter__attack"
      @click=${() => attack(t, c.id, chosen)}>${cyno ? "Strike" : "Attack"} ${target.name}${withOther(t, c)}</button>
    ${here /* right under the button: a strike with actions left keeps its button where the thumb is */}
    ${cyno ? html`<div class="rollbook-row">
      <button type="button" class="md-button" @click=${() => t.run("encounter hold", { who: c.id, after: chosen }, { rolls: true, title: `${c.name} holds back until ${target.name} moves`, form })}>Hold back until ${target.name} moves</button>
    </div>` : html`<div class="rollbook-row">${ocActions(t, c, form)}</div>`}
  </div>`;
}

/** " (Hand to Hand)" on an attack's button when the combatant fights with other than its own weapon
 *  (the engine's status: a dropped weapon), " (Mental Power)" when a Power attacks (Attack
 *  options), else nothing: what the tap attacks with is read on the button. */
function withOther(t, c) {
  const power = t.edit(c.id).power;
  if (power) return ` (${(POWER_WORDS[power] ?? power).split(" (")[0]})`;
  const wielded = t.status.get(c.id)?.wielded;
  return wielded && wielded !== c.weapon ? ` (${wielded})` : "";
}

/** A fumble's extra attack ("opponent gets an immediate extra attack": OpenCore), made out of
 *  turn: a button for each combatant the engine's status says it may be made against now. On the
 *  acting card, its actions hold the answer and any refusal; on another card, this part does. */
export function extraAttacksView(t, enc, c, active) {
  const against = (t.status.get(c.id)?.extra_attacks ?? []).map((id) => enc.combatants.find((o) => o.id === id)).filter(Boolean);
  if (!against.length) return nothing;
  const buttons = html`<div class="rollbook-row">${against.map((o) => html`
    <button type="button" class="md-button md-button--primary rollbook-encounter__extra-attack"
      @click=${() => attack(t, c.id, o.id)}>Extra attack on ${o.name}${withOther(t, c)}</button>`)}</div>`;
  if (active) return buttons;
  const form = `act-${c.id}`;
  return html`<div class="rollbook-combatant__act" data-anchor=${form}>${buttons}${t.problemFor(form).line}</div>`;
}

/** OpenCore's other actions for the round: the Defense action and Bide. */
function ocActions(t, c, form) {
  return html`
    <button type="button" class="md-button" @click=${() => t.run("encounter action", { who: c.id, action: "defense" }, { title: `${c.name} takes the Defense action`, form })}>Defense action</button>
    <button type="button" class="md-button" @click=${() => t.run("encounter action", { who: c.id, action: "bide" }, { title: `${c.name} bides`, form })}>Bide</button>`;
}
