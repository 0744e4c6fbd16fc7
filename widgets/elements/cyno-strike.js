// <rollbook-cyno-strike>: Cyno's roll to strike. The bonus and penalty charts are checkboxes built
// from the engine's own rows ("table cyno.strike.bonuses" / "…penalties": the lines a player picks;
// the weaponry-skill and damage-lost lines follow from the numbers typed); "cyno strike" adds them
// up and rules the natural roll: 5 or lower misses, 20 hits, 19-20 is a critical.

import { define, given, html, nothing, RollbookTool, tableRows, typed, verdict } from "../tool.js";

const CHARTS = "Bonus and penalty charts";
const FIRING = "Aiming, rockets, missiles";
const DICE = "Dice rolled at the table";

class CynoStrike extends RollbookTool {
  static tool = "cyno-strike";
  static page = "tools/combat/";
  static folds = true;
  static action = "Strike";

  connected() {
    this.conditions = [];
    super.connected();
    Promise.all([tableRows("cyno.strike.bonuses"), tableRows("cyno.strike.penalties")]).then((charts) => {
      this.conditions = charts.flat().filter((row) => row.id); // the lines a player chooses
      this.update();
    });
  }

  fields() {
    const sign = (n) => (n > 0 ? `+${n}` : `−${-n}`);
    return [
      { name: "coordination", label: "Coordination", kind: "int" },
      { name: "skill", label: "Weaponry skill %", kind: "int" },
      { name: "condition", label: "Bonuses and penalties", kind: "checks", section: CHARTS,
        options: this.conditions.map((row) => ({ value: row.id, group: row.group, label: `${sign(row.modifier)}: ${row.condition}` })) },
      { name: "damage_lost", label: "Damage points lost", kind: "int", initial: "0", section: CHARTS },
      { name: "aim", label: "Actions spent aiming", kind: "int", initial: "0", section: FIRING },
      { name: "rocket", label: "Firing an unguided rocket (−2)", kind: "bool", section: FIRING },
      { name: "missile", label: "Guided missile volley (no bonuses or penalties)", kind: "bool", section: FIRING },
      // (the damage last: a message naming a missile and the damage is about the missile)
      { name: "damage", label: "Weapon's damage roll", kind: "text", placeholder: "e.g. 2d6", help: "dice, or the total rolled; doubled on a critical" },
      { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here", section: DICE },
    ];
  }

  request(values, seed) {
    const conditions = String(values.condition).split(",").filter(Boolean);
    return { command: "cyno strike", args: given({
      coordination: typed(values.coordination), skill: typed(values.skill),
      condition: conditions.length ? conditions : undefined,
      damage_lost: typed(values.damage_lost) || undefined, aim: typed(values.aim) || undefined,
      rocket: values.rocket || undefined, missile: values.missile || undefined,
      damage: values.damage.trim() || undefined, roll: typed(values.roll), seed,
    }) };
  }

  details(result) {
    const outcome = result.hit ? (result.critical ? "Critical hit" : "Hit") : "Miss";
    return html`
      ${verdict("Strike", result.total, outcome)}
      <ul class="rollbook-facts">
        <li>d20 ${result.roll}</li>
        ${result.modifiers.map((m) => html`<li>${m.modifier >= 0 ? "+" : "−"}${Math.abs(m.modifier)}: ${m.source}</li>`)}
        <li><strong>${outcome}</strong>: ${result.reason}.</li>
        ${result.damage !== null ? html`<li>Damage dealt: <strong>${result.damage}</strong>${result.critical ? " (doubled: critical)" : ""}.</li>` : nothing}
        ${result.exact_location !== null ? html`<li>${result.exact_location ? "Exactly on the aimed location." : "Close to the aimed location, not exact."}</li>` : nothing}
      </ul>`;
  }

  kept(result) {
    const outcome = result.hit ? (result.critical ? "critical hit" : "hit") : "miss";
    return { label: `Strike: ${outcome}${result.damage ? `, ${result.damage} damage` : ""}`, total: result.total };
  }
}

define("rollbook-cyno-strike", CynoStrike);
