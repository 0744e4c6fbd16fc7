// <rollbook-cyno-damage>: a weapon's damage against a target of another damage-rating level,
// as "cyno damage" rules it (every level from "cyno levels", the unnamed ones by the document's
// names, Kilo+1; no dice, so nothing goes to the roll log).

import { ask } from "../engine.js";
import { define, given, html, RollbookTool, typed, verdict } from "../tool.js";

class CynoDamage extends RollbookTool {
  static tool = "cyno-damage";
  static page = "tools/combat/";
  static action = "Work out the damage";
  static rolls = false;

  connected() {
    this.levels = [];
    super.connected();
    ask({ command: "cyno levels", args: {} }).then((answer) => {
      this.levels = answer.ok ? answer.result.levels : [];
      this.update();
    });
  }

  fields() {
    const options = this.levels.map((row) => ({ value: row.symbol, label: `${row.unit} (${row.name})` }));
    return [
      { name: "amount", label: "Damage points rolled", kind: "int" },
      { name: "weapon_level", label: "Weapon's level", kind: "choice", options, initial: "" },
      { name: "target_level", label: "Target's level", kind: "choice", options, initial: "" },
      { name: "static", label: "Static damage points (SDP)", kind: "bool", section: "Static or critical" },
      { name: "critical", label: "Critical strike (double damage)", kind: "bool", section: "Static or critical" },
    ];
  }

  request(values) {
    return { command: "cyno damage", args: given({
      amount: typed(values.amount), weapon_level: values.weapon_level, target_level: values.target_level,
      static: values.static || undefined, critical: values.critical || undefined,
    }) };
  }

  details(result) {
    return verdict(html`${result.amount} ${result.weapon_level}DP${result.critical ? " (critical)" : ""} against ${result.target_level}DP`, result.damage, result.unit);
  }
}

define("rollbook-cyno-damage", CynoDamage);
