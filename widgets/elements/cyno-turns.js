// Who acts when in Cyno's Role-Play: <rollbook-cyno-initiative> (the die for the party size and
// each character's roll with the reflex bonus), <rollbook-cyno-hold-back> (two characters both
// holding back) and <rollbook-cyno-surprise> (the Surprise Chart), as the engine rules them.

import { define, given, html, RollbookTool, typed, verdict } from "../tool.js";

class CynoInitiative extends RollbookTool {
  static tool = "cyno-initiative";
  static page = "tools/combat/";
  static action = "Roll initiative";

  fields() {
    return [
      { name: "combatants", label: "Combatants", kind: "int", help: "player and non-player characters" },
      { name: "reflex", label: "Reflex of each character", kind: "text", placeholder: "e.g. 12, 15, 9",
        help: "comma between characters; blank: only the die" },
    ];
  }

  request(values, seed) {
    const reflex = String(values.reflex).split(/[\s,]+/).filter(Boolean).map(typed);
    return { command: "cyno initiative", args: given({ combatants: typed(values.combatants), reflex: reflex.length ? reflex : undefined, seed }) };
  }

  details(result) {
    return html`
      ${verdict(`${result.combatants} combatants roll`, `1D${result.die}`)}
      ${result.order.length ? html`<ol class="rollbook-facts">${result.order.map((r) => html`<li>Character ${r.character} (reflex ${r.reflex}):
        ${r.rolls[0]} ${r.bonus >= 0 ? "+" : "−"} ${Math.abs(r.bonus)} = <strong>${r.total}</strong>${r.rolls.length > 1 ? `, tie-break ${r.rolls.slice(1).join(", ")}` : ""}</li>`)}</ol>` : ""}`;
  }

  kept(result) {
    const first = result.order[0];
    return { label: first ? `Cyno initiative (1D${result.die}): character ${first.character} first` : `Cyno initiative die: 1D${result.die}`,
      total: first ? first.total : result.die };
  }
}

class CynoHoldBack extends RollbookTool {
  static tool = "cyno-hold-back";
  static page = "tools/combat/";
  static action = "Roll holding back";

  fields() {
    return [
      { name: "stress", label: "Stress (first character)", kind: "int" },
      { name: "other_stress", label: "Stress (other character)", kind: "int" },
    ];
  }

  request(values, seed) {
    return { command: "cyno hold-back", args: given({ stress: typed(values.stress), other_stress: typed(values.other_stress), seed }) };
  }

  details(result) {
    const [first, other] = result.rolls.at(-1);
    const later = result.moves_last === "first" ? "First" : "Other";
    return html`${verdict(html`${first} ${result.bonus >= 0 ? "+" : "−"} ${Math.abs(result.bonus)} vs ${other} ${result.other_bonus >= 0 ? "+" : "−"} ${Math.abs(result.other_bonus)}`,
      later, "character waits longer and moves after")}`;
  }

  kept(result) {
    const [first, other] = result.rolls.at(-1);
    return { label: `Holding back: the ${result.moves_last === "first" ? "first" : "other"} character moves after`,
      total: result.moves_last === "first" ? first : other };
  }
}

class CynoSurprise extends RollbookTool {
  static tool = "cyno-surprise";
  static page = "tools/combat/";
  static action = "Roll for surprise";

  fields() {
    return [{ name: "roll", label: "1D6 rolled", kind: "int", help: "blank: rolled here" }];
  }

  request(values, seed) {
    return { command: "cyno surprise", args: given({ roll: typed(values.roll), seed }) };
  }

  details(result) {
    return verdict("Surprise", result.roll, result.result);
  }

  kept(result) {
    return { label: `Surprise: ${result.result}`, total: result.roll };
  }
}

define("rollbook-cyno-initiative", CynoInitiative);
define("rollbook-cyno-hold-back", CynoHoldBack);
define("rollbook-cyno-surprise", CynoSurprise);
