// <rollbook-cyno-dodge> and <rollbook-cyno-parry>: Cyno's defenses against a strike, as
// "cyno dodge" and "cyno parry" rule them: 1d20 + the reflex modifier against the strike's result;
// a blind dodge or a missile volley; a parry with hand-to-hand skill, a percentage roll that costs
// no action. Where the document rules a defense out (unaware of the attack, not hand-to-hand, a
// volley of five or more) the engine says so; a parried blow's damage goes to the weapon or limb.

import { choiceOptions } from "../choices.js";
import { COMMANDS } from "../facts.js";
import { define, given, html, nothing, RollbookTool, typed, verdict } from "../tool.js";

function outcome(result) {
  if (!result.allowed) return "Not allowed";
  return result.success ? "Succeeds" : "Fails";
}

function defenseView(result) {
  const name = result.action.charAt(0).toUpperCase() + result.action.slice(1);
  return html`
    ${verdict(name, result.total ?? result.percentile ?? "—", outcome(result))}
    <ul class="rollbook-facts">
      ${result.roll !== null ? html`<li>d20 ${result.roll} ${result.modifier >= 0 ? "+" : "−"} ${Math.abs(result.modifier)} = ${result.total}.</li>` : nothing}
      ${result.percentile !== null ? html`<li>Percentage roll ${result.percentile}.</li>` : nothing}
      <li><strong>${outcome(result)}</strong>: ${result.reason}; ${result.actions_spent} action${result.actions_spent === 1 ? "" : "s"} spent.</li>
      ${(result.weapon_or_limb_damage ?? null) !== null ? html`<li>The parrying weapon or limb takes <strong>${result.weapon_or_limb_damage}</strong> damage.</li>` : nothing}
    </ul>`;
}

function defenseKept(result) {
  const name = result.action.charAt(0).toUpperCase() + result.action.slice(1);
  return { label: `${name} ${outcome(result).toLowerCase()}`, total: result.total ?? result.percentile ?? 0 };
}

const STRIKE = { name: "strike", label: "Strike to beat", kind: "int" };
const REFLEX = { name: "reflex", label: "Reflex", kind: "int" };
const SITUATION = "The attack and the defender";
const DICE = "Dice rolled at the table";
const RULINGS = "The GM's rulings";
const BONUS = { name: "bonus", label: "Other bonus", kind: "int", initial: "0", section: SITUATION };
const ROLL = { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here", section: DICE };
const UNAWARE = { name: "unaware", label: "Does not know of the attack (e.g. hit from the back)", kind: "bool", section: SITUATION };
const RANGED = { name: "ranged", label: "Not a hand-to-hand attack (a shot, a throw, a rocket)", kind: "bool", section: SITUATION };

/** A ruling the command takes as its parameter `param` (from the facts): its values and order the
 *  engine's, at the engine's default (the ruling's reading) until changed; `words` for each value. */
function ruling(name, label, param, words) {
  return { name, label, kind: "choice", section: RULINGS, wide: true, initial: param.default, options: choiceOptions(param.choices, words) };
}
const IMPOSSIBLE_DODGE_WORDS = { "costs-action": "still costs its action", free: "costs no action (ruling option)" };
const FAILED_PARRY_WORDS = { free: "costs no action", action: "costs an action (ruling option)" };
const RANGED_PARRY_WORDS = { "blow-only": "no parry: only a blow is parried", allowed: "a parry may be tried (ruling option)" };

class CynoDodge extends RollbookTool {
  static tool = "cyno-dodge";
  static page = "tools/combat/";
  static action = "Dodge";
  static folds = true;

  fields() {
    return [STRIKE, REFLEX, BONUS, ROLL,
      { name: "blind", label: "Blind dodge (first 50 or under on d%)", kind: "bool", section: SITUATION },
      RANGED,
      { name: "volley", label: "Missiles in the volley", kind: "int", help: "blank: not a volley", section: SITUATION },
      UNAWARE,
      ruling("impossible_dodge", "A dodge the rules rule out", COMMANDS["cyno dodge"].impossible_dodge, IMPOSSIBLE_DODGE_WORDS)];
  }

  request(values, seed) {
    return { command: "cyno dodge", args: given({
      strike: typed(values.strike), reflex: typed(values.reflex), bonus: typed(values.bonus), roll: typed(values.roll),
      blind: values.blind || undefined, volley: typed(values.volley), ranged: values.ranged || undefined,
      unaware: values.unaware || undefined, impossible_dodge: values.impossible_dodge || undefined, seed,
    }) };
  }

  details(result) { return defenseView(result); }

  kept(result) { return defenseKept(result); }
}

class CynoParry extends RollbookTool {
  static tool = "cyno-parry";
  static page = "tools/combat/";
  static action = "Parry";
  static folds = true;

  fields() {
    return [STRIKE, REFLEX, BONUS, ROLL,
      { name: "skill", label: "Hand-to-hand skill %", kind: "int", help: "a percentage roll instead of the d20", section: SITUATION },
      { name: "skill_roll", label: "d% rolled", kind: "int", help: "blank: rolled here", section: DICE },
      { name: "damage", label: "The blow's damage", kind: "int", help: "parried: the weapon or limb takes it" },
      RANGED, UNAWARE,
      ruling("failed_skilled_parry", "A failed parry with the skill", COMMANDS["cyno parry"].failed_skilled_parry, FAILED_PARRY_WORDS),
      ruling("ranged_parry", "Against an attack that is not hand-to-hand", COMMANDS["cyno parry"].ranged_parry, RANGED_PARRY_WORDS)];
  }

  request(values, seed) {
    return { command: "cyno parry", args: given({
      strike: typed(values.strike), reflex: typed(values.reflex), bonus: typed(values.bonus), roll: typed(values.roll),
      skill: typed(values.skill), skill_roll: typed(values.skill_roll), damage: typed(values.damage),
      unaware: values.unaware || undefined, ranged: values.ranged || undefined,
      failed_skilled_parry: values.failed_skilled_parry || undefined, ranged_parry: values.ranged_parry || undefined, seed,
    }) };
  }

  details(result) { return defenseView(result); }

  kept(result) { return defenseKept(result); }
}

define("rollbook-cyno-dodge", CynoDodge);
define("rollbook-cyno-parry", CynoParry);
