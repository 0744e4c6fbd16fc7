// <rollbook-opencore-initiative>: individual initiative, 1d20 + DEX modifier + the weapon's speed
// factor + the armor's penalty (+20 after Bide), as "opencore initiative" rules it; and
// <rollbook-opencore-group-initiative>: each side's 1d6, ties rolled again.

import { define, given, html, RollbookTool, tableRows, typed, verdict } from "../tool.js";
import { kept } from "../session.js";

class OpenCoreInitiative extends RollbookTool {
  static tool = "opencore-initiative";
  static page = "tools/combat/";
  static action = "Roll initiative";

  connected() {
    this.weapons = [];
    this.armor = [];
    super.connected();
    Promise.all([tableRows("opencore.weapons"), tableRows("opencore.armor")]).then(([weapons, armor]) => {
      this.weapons = weapons;
      this.armor = armor;
      this.update();
    });
  }

  fields() {
    const dex = kept.active?.scores.DEX;
    return [
      { name: "dex", label: "DEX", kind: "int", initial: dex === undefined ? "" : String(dex) },
      { name: "roll", label: "d20 rolled", kind: "int", help: "blank: rolled here", blame: ["the initiative roll"] },
      { name: "weapon", label: "Weapon (speed factor)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.weapons.map((w) => ({ value: w.weapon, label: `${w.weapon} (+${w.speed})` }))] },
      { name: "armor", label: "Armor (initiative penalty)", kind: "choice", wide: true,
        options: [{ value: "", label: "None" }, ...this.armor.map((a) => ({ value: a.armor, label: `${a.armor} (${a.initiative_penalty})` }))] },
      { name: "bide", label: "Used Bide last round (+20)", kind: "bool" },
    ];
  }

  request(values, seed) {
    return { command: "opencore initiative", args: given({
      dex: typed(values.dex), roll: typed(values.roll), weapon: values.weapon || undefined, armor: values.armor || undefined,
      bide: values.bide || undefined, seed,
    }) };
  }

  details(result) {
    return verdict("Initiative", result.total);
  }

  kept(result) {
    return { label: "OpenCore initiative", total: result.total };
  }
}

class OpenCoreGroupInitiative extends RollbookTool {
  static tool = "opencore-group-initiative";
  static page = "tools/combat/";
  static action = "Roll group initiative";

  fields() {
    return [];
  }

  request(values, seed) {
    return { command: "opencore group-initiative", args: { seed } };
  }

  details(result) {
    const [first, second] = result.rolls.at(-1);
    return verdict(html`First side ${first}, second side ${second}`, result.first === "first" ? "First" : "Second", "side acts first");
  }

  kept(result) {
    const [first, second] = result.rolls.at(-1);
    return { label: `Group initiative: the ${result.first} side acts first`, total: result.first === "first" ? first : second };
  }
}

define("rollbook-opencore-initiative", OpenCoreInitiative);
define("rollbook-opencore-group-initiative", OpenCoreGroupInitiative);
