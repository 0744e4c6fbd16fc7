// <rollbook-cyno-dodge> and <rollbook-cyno-parry>: Cyno's defenses against a strike, as
// "cyno dodge" and "cyno parry" rule them: 1d20 + the reflex modifier against the strike's result;
// a blind dodge or a missile volley; a parry with hand-to-hand skill, a percentage roll that costs
// no action.

import { define, given, html, nothing, RollbookTool, typed, verdict } from "../tool.js";

function defenseView(result) {
  return html`
    ${verdict(result.action === "dodge" ? "Dodge" : "Parry", result.total ?? result.percentile ?? "—", result.success ? "Succeeds" : "Fails")}
    <ul class="rollbook-facts">
      ${result.roll !== null ? html`<li>d20 ${result.roll} ${result.modifier >= 0 ? "+" : "−"} ${Math.abs(result.modifier)} = ${result.total}.</li>` : nothing}
      ${result.percentile !== null ? html`<li>Percentage roll ${result.percentile}.</li>` : nothing}
      <li><strong>${result.success ? "Succeeds" : "Fails"}</strong>: ${result.reason}; ${result.actions_spent} action${result.actions_spent === 1 ? "" : "s"} spent.</li>
    </ul>`;
}

function defenseKept(result) {
  return { label: `${result.action === "dodge" ? "Dodge" : "Parry"} ${result.success ? "succeeds" : "fails"}`, total: result.total ?? result.percentile ?? 0 };
}

const STRIKE = { name: "strike", label: "Strike to beat", kind: "int", blame: ["the strike"] };
const REFLEX = { name: "reflex", label: "Reflex", kind: "int" };
const BONUS = { name: "bonus", label: "Other bonus", kind: "int", initial: "0" };
const ROLL = { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here", blame: ["d20", "--roll"] };

class CynoDodge extends RollbookTool {
  static tool = "cyno-dodge";
  static page = "tools/combat/";
  static action = "Dodge";
  static folds = true;

  fields() {
    return [STRIKE, REFLEX, BONUS, ROLL,
      { name: "blind", label: "Blind dodge (first 50 or under on d%)", kind: "bool" },
      { name: "volley", label: "Missiles in the volley", kind: "int", help: "blank: not a volley", blame: ["volley"] }];
  }

  request(values, seed) {
    return { command: "cyno dodge", args: given({
      strike: typed(values.strike), reflex: typed(values.reflex), bonus: typed(values.bonus), roll: typed(values.roll),
      blind: values.blind || undefined, volley: typed(values.volley), seed,
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
      { name: "skill", label: "Hand-to-hand skill %", kind: "int", help: "a percentage roll instead of the d20", blame: ["hand-to-hand", "skill"] },
      { name: "skill_roll", label: "d% rolled", kind: "int", help: "blank: rolled here" }];
  }

  request(values, seed) {
    return { command: "cyno parry", args: given({
      strike: typed(values.strike), reflex: typed(values.reflex), bonus: typed(values.bonus), roll: typed(values.roll),
      skill: typed(values.skill), skill_roll: typed(values.skill_roll), seed,
    }) };
  }

  details(result) { return defenseView(result); }

  kept(result) { return defenseKept(result); }
}

define("rollbook-cyno-dodge", CynoDodge);
define("rollbook-cyno-parry", CynoParry);
