"""``rollbook opencore ...``: OpenCore's rules as commands (CLI and JSON API alike)."""

from __future__ import annotations

import dataclasses
import random
import re
from fractions import Fraction
from typing import Annotated, Any, Literal, cast

from rollbook import rulings, tables
from rollbook.commands import Arg, Result, command, percent
from rollbook.errors import RollbookError, about, quoted
from rollbook.systems import check_range, given_or_rolled, opencore, roll_off, roll_total
from rollbook.systems.opencore import attack as chain

SaveDirection = Annotated[Literal["under", "over"] | None,
                          Arg("ruling opencore-save-direction: under (default) or over, which succeeds at or above the composite")]
WillpowerComposite = Annotated[Literal["SDAC", "IPW"] | None, Arg("ruling opencore-willpower-composite: SDAC (default) or IPW")]
Perception = Annotated[Literal["above", "at-or-below"] | None,
                       Arg("ruling opencore-perception-direction: above (default) or at-or-below")]
CheckRulings = Annotated[list[str] | None, Arg("a ruling's alternative, by the ruling's id (repeat): "
                                               "opencore-save-direction, opencore-willpower-composite or "
                                               "opencore-perception-direction", metavar="ID")]
CHECK_RULINGS = ("save_direction", "willpower_composite", "perception")  # the rulings the checks switch
DexModifier = Annotated[Literal["centred", "none"], Arg("ruling opencore-dex-modifier")]
StrDamage = Annotated[Literal["modifier", "score"], Arg("ruling opencore-str-damage: 'score' adds the STR score itself")]
DeathAt = Annotated[Literal["negative-con", "zero"], Arg("ruling opencore-death-threshold")]
Scores = Annotated[str | None, Arg("ability scores, e.g. STR=76,DEX=80 (missing ones are rolled)", metavar="SCORES")]
CriticalType = Literal["slash", "impact", "puncture", "shrapnel", "burn"]
CriticalBonus = Annotated[int, Arg("the weapon's or Power's bonus (or penalty) to its critical hits (a number the GM gives)")]
Power = Annotated[opencore.PowerKind | None, Arg("a Power attacks: touch (Hand-to-Hand skill and damage), physical (its score is the combat skill) or mental (cannot be blocked)")]
PowerProtection = Annotated[int, Arg("damage an Armor or Shielding Power stops, before armor (a number the GM gives)")]
SubstanceFlaw = Annotated[bool, Arg("the target has a substance flaw against this: damage goes straight to HP")]


def _check_options(save_direction: SaveDirection, willpower_composite: WillpowerComposite,
                   perception: Perception, ruling: CheckRulings, where: str) -> opencore.Options:
    """The check rulings a table chose, by name or by the ruling's id (the same on ``character``
    and ``check``); the ones not chosen keep their ruling's reading."""
    named = {"save_direction": save_direction, "willpower_composite": willpower_composite, "perception": perception}
    chosen = rulings.chosen(named, ruling or [], CHECK_RULINGS, where)  # values among the Literal choices
    return dataclasses.replace(opencore.DEFAULT, **cast(dict[str, Any], chosen))


def _check_rulings(options: opencore.Options) -> list[Result]:
    """The check rulings a sheet was worked out with: each by its title, or its alternative's words
    where the table chose it (for the sheet's working and the Rulings page's link)."""
    out: list[Result] = []
    for name in CHECK_RULINGS:
        value = getattr(options, name)
        ruling = next(r for r in rulings.all_rulings() if r.option and r.option.partition("=")[0] == name)
        out.append({"id": ruling.id, "title": ruling.title, "option": name, "value": value,
                    "alternative": ruling.option == f"{name}={value}", "reading": rulings.reading(name, value)})
    return out


@command("opencore character")
def character(
    *,
    scores: Scores = None,
    hp_roll: Annotated[int | None, Arg("the 1d100 rolled for health points (rolled when left out)")] = None,
    save_direction: SaveDirection = None,
    willpower_composite: WillpowerComposite = None,
    perception: Perception = None,
    ruling: CheckRulings = None,
    rng: random.Random,
) -> Result:
    """Create an OpenCore character: abilities, COM rule, composites, saving throws and HP."""
    options = _check_options(save_direction, willpower_composite, perception, ruling, "a character's sheet")
    with about("scores"):
        given = opencore.parse_scores(scores or "")
    rolled = {code: given[code] if code in given else roll_total("1d100", rng) for code in opencore.ability_codes()}
    hero = opencore.make_character(rolled, chain.d100(hp_roll, "the HP roll", rng, "hp_roll"))
    checks = {kind: opencore.check_odds(kind, hero.abilities, options) for kind in opencore.check_kinds()}
    summary = {kind: {"name": c.rule.name, "rule": c.rule.describe(), "target": c.target, "chance": str(c.chance)}
               for kind, c in checks.items()}
    lines = [" ".join(f"{code} {value}" for code, value in hero.abilities.items())]
    if hero.abilities["COM"] != hero.rolled["COM"]:
        lines.append(f"COM {hero.rolled['COM']} → {hero.abilities['COM']} (CHA {hero.abilities['CHA']})")
    lines.append(" ".join(f"{code} {value}" for code, value in hero.composites.items()))
    rolled_hp = hero.hp_roll - hero.abilities["CON"]
    at_least = "" if rolled_hp == hero.hp else f" = {rolled_hp}, at least 1"  # ruling opencore-hp-minimum
    lines.append(f"HP {hero.hp} (1d100 - CON = {hero.hp_roll} - {hero.abilities['CON']}{at_least})")
    lines += [f"{c.rule.name}: {c.rule.describe()} ({c.target}), chance of success {percent(c.chance)}"
              for c in checks.values()]
    return {
        "abilities": dict(hero.abilities),
        "rolled": dict(hero.rolled),
        "given": sorted(given),
        "composites": dict(hero.composites),
        "saves": {kind: value for kind, value in summary.items() if kind != "perception"},
        "perception": summary["perception"],
        "hp_roll": hero.hp_roll,
        "hp": hero.hp,
        "working": _character_working(hero),
        "rulings": _check_rulings(options),
        "text": "\n".join(lines),
    }


@command("opencore check")
def check(
    kind: Annotated[Literal["physical-toughness", "reflex", "willpower", "awareness", "concentration", "perception"],
                    Arg("the saving throw or check", metavar="KIND")],
    *,
    scores: Annotated[str, Arg("the abilities it needs, e.g. STR=76,DEX=80,AGL=21,CON=32", metavar="SCORES",
                                   ask="the abilities it needs, such as STR=76,DEX=80,AGL=21,CON=32")],
    roll: Annotated[int | None, Arg("the 1d100 (rolled when left out)")] = None,
    save_direction: SaveDirection = None,
    willpower_composite: WillpowerComposite = None,
    perception: Perception = None,
    ruling: CheckRulings = None,
    rng: random.Random,
) -> Result:
    """Roll a saving throw, Awareness, Concentration or Perception check, with its exact chance."""
    options = _check_options(save_direction, willpower_composite, perception, ruling, "a saving throw or check")
    with about("scores"):
        abilities = opencore.parse_scores(scores, lowest=opencore.ABILITY_FLOOR)
    missing = [code for code in opencore.needed_abilities(kind, options) if code not in abilities]
    if missing:
        raise RollbookError(f"{kind.replace('-', ' ')} needs {', '.join(missing)}", hint="give them, such as CON=32",
                            fields=("scores",))
    with about("scores"):
        result = opencore.check(kind, abilities, chain.d100(roll, "the roll", rng, "roll"), options)
    verdict = "success" if result.success else "failure"
    # the roll, the ability it loses and what is left to compare (a save's -94 is that, not a margin)
    taken_off = f" - {result.rule.subtract} {result.roll - result.result} = {result.result}" if result.rule.subtract else ""
    text = (f"{result.rule.name}: {result.rule.describe()} ({result.target}): rolled {result.roll}{taken_off}: "
            f"{verdict} (chance of success {percent(result.chance)})")
    zero = opencore.zero_scores(abilities)
    return {"kind": result.rule.kind, "name": result.rule.name, "rule": result.rule.describe(),
            "roll": result.roll, "result": result.result, "target": result.target,
            "success": result.success, "chance": str(result.chance), "zero_scores": zero,
            "text": text + _zero_note(zero)}


def _zero_note(zero: dict[str, opencore.ZeroConsequence]) -> str:
    """A line for each score at 0 and what it does to the character."""
    return "".join(f"\n{code} 0: the character is {consequence}" for code, consequence in zero.items())


@command("opencore crit")
def crit(
    type: Annotated[CriticalType, Arg("the critical table", metavar="TYPE")],
    roll: Annotated[int | None, Arg("the 1d100 critical roll (rolled when left out)")] = None,
    *,
    attack_roll: Annotated[int | None, Arg("the unmodified attack roll: under 20 gives -20, over 80 +20")] = None,
    toughness: Annotated[int, Arg("Toughness the target has left (subtracted from the roll)")] = 0,
    bonus: CriticalBonus = 0,
    rng: random.Random,
) -> Result:
    """Look up a critical hit: 1d100, +/-20 for the attack roll, minus Toughness, clamped to the table."""
    hit = opencore.critical_hit(type, chain.d100(roll, "the critical roll", rng, "roll"), attack_roll=attack_roll,
                                toughness=toughness, bonus=bonus)
    return chain.critical_record(hit, attack_roll)


@command("opencore fumble")
def fumble(
    side: Annotated[Literal["attacker", "defender"], Arg("who fumbled", metavar="SIDE")],
    roll: Annotated[int | None, Arg("the 1d100 on the Fumble Chart (rolled when left out)")] = None,
    *,
    rng: random.Random,
) -> Result:
    """Roll on the Fumble Chart for the attacker or the defender."""
    result = chain.fumble_record(side, chain.d100(roll, "the fumble roll", rng, "roll"))
    return {**result, "text": f"Fumble ({side}, {result['roll']}): {result['effect']}"}


AttackerFumbleRoll = Annotated[int | None, Arg("the attacker's Fumble Chart 1d100, if the attack roll fumbles (rolled when left out)")]
DefenderFumbleRoll = Annotated[int | None, Arg("the defender's Fumble Chart 1d100, if the defense roll fumbles (rolled when left out)")]
DamageRoll = Annotated[int | None, Arg("the weapon's damage as its dice showed (Thrown weapons: the thrown weapon's own "
                                      "damage); rolled when left out")]
DamageBonus = Annotated[int, Arg("a better weapon's bonus to its damage (a number the GM gives)")]


@command("opencore attack")
def attack(
    *,
    attack_skill: Annotated[int | None, Arg("the attacker's combat skill (with --power touch: the Hand-to-Hand skill)")] = None,
    defense_skill: Annotated[int | None, Arg("the defender's defense skill (e.g. Evade); none against a Mental Power")] = None,
    attack_bonus: Annotated[int, Arg("applicable attack bonuses")] = 0,
    defense_bonus: Annotated[int, Arg("applicable defense bonuses")] = 0,
    defending: Annotated[bool, Arg("the defender took the Defense action: defense skill doubled")] = False,
    stunned: Annotated[bool, Arg("the defender is stunned: -50 to the defense roll")] = False,
    unconscious: Annotated[bool, Arg("the defender is unconscious: unable to defend, so no defense roll")] = False,
    attacker_stunned: Annotated[bool, Arg("the attacker is stunned: unable to attack (refused)")] = False,
    attacker_unconscious: Annotated[bool, Arg("the attacker is unconscious: unable to attack or use Powers (refused)")] = False,
    attack_roll: Annotated[int | None, Arg("the attacker's 1d100 (rolled when left out)")] = None,
    defense_roll: Annotated[int | None, Arg("the defender's 1d100 (rolled when left out)")] = None,
    weapon: Annotated[str | None, Arg("weapon class: roll its damage on a hit, e.g. Sword")] = None,
    mode: Annotated[str | None, Arg("Assault Rifle mode: single, burst or full auto")] = None,
    strength: Annotated[int | None, Arg("the attacker's STR, for +STR weapons and touch Powers")] = None,
    fortitude: Annotated[int, Arg("the defender's Fortitude: damage dice removed before rolling")] = 0,
    str_damage: StrDamage = "modifier",
    power: Power = None,
    power_score: Annotated[int | None, Arg("a physical Power's score (its combat skill) or a Mental Power's score")] = None,
    power_damage: Annotated[int | None, Arg("the Power's own damage (a number the GM gives; 0 for none)")] = None,
    resistance: Annotated[int, Arg("the defender's Magic Resistance, against a Mental Power")] = 0,
    hp: Annotated[int | None, Arg("the defender's health points: apply the damage and roll the critical it calls for")] = None,
    con: Annotated[int | None, Arg("the defender's CON (with --hp; death at -CON)")] = None,
    armor: Annotated[int, Arg("the defender's armor damage rating left (with --hp)")] = 0,
    toughness: Annotated[int, Arg("the defender's Toughness left (with --hp)")] = 0,
    power_protection: PowerProtection = 0,
    substance_flaw: SubstanceFlaw = False,
    critical_type: Annotated[CriticalType | None, Arg("the critical table (a Power needs one; a weapon has its own)")] = None,
    critical_roll: Annotated[int | None, Arg("the 1d100 critical roll (rolled when a critical is called for)")] = None,
    critical_bonus: CriticalBonus = 0,
    death_at: DeathAt = "negative-con",
    attacker_fumble_roll: AttackerFumbleRoll = None,
    defender_fumble_roll: DefenderFumbleRoll = None,
    damage_roll: DamageRoll = None,
    damage_bonus: DamageBonus = 0,
    rng: random.Random,
) -> Result:
    """Resolve an attack: 1d100 + attack skill vs 1d100 + defense skill, fumbles, damage, and with --hp the critical."""
    return chain.attack(
        attack_skill=attack_skill, defense_skill=defense_skill, attack_bonus=attack_bonus, defense_bonus=defense_bonus,
        defending=defending, stunned=stunned, unconscious=unconscious, attacker_stunned=attacker_stunned,
        attacker_unconscious=attacker_unconscious, attack_roll=attack_roll, defense_roll=defense_roll, weapon=weapon,
        mode=mode, strength=strength, fortitude=fortitude, str_damage=str_damage, power=power, power_score=power_score,
        power_damage=power_damage, resistance=resistance, hp=hp, con=con, armor=armor, toughness=toughness,
        power_protection=power_protection, substance_flaw=substance_flaw, critical_type=critical_type,
        critical_roll=critical_roll, critical_bonus=critical_bonus, death_at=death_at,
        attacker_fumble_roll=attacker_fumble_roll, defender_fumble_roll=defender_fumble_roll, damage_roll=damage_roll,
        damage_bonus=damage_bonus, rng=rng)


@command("opencore weapon")
def weapon(
    name: Annotated[str, Arg("weapon class, such as Sword or Assault Rifle", ask="a weapon class, such as Sword or Assault Rifle", metavar="WEAPON")],
    *,
    mode: Annotated[str | None, Arg("Assault Rifle mode: single, burst or full auto")] = None,
    strength: Annotated[int | None, Arg("the attacker's STR, for +STR weapons")] = None,
    fortitude: Annotated[int, Arg("the target's Fortitude: damage dice removed before rolling")] = 0,
    str_damage: StrDamage = "modifier",
    rng: random.Random,
) -> Result:
    """Roll a weapon class's damage (weapon table), with +STR and the target's Fortitude."""
    with about(weapon="name"):
        row = opencore.weapon(name)
        expression = opencore.damage_expression(name, mode=mode, strength=strength, fortitude=fortitude,
                                                options=opencore.Options(str_damage=str_damage))
    damage = chain.weapon_damage(expression, rng)
    chosen = opencore.weapon_mode(name, mode)
    named = f" ({chosen})" if chosen else ""  # the mode used, named
    return {"weapon": row["weapon"], "speed_factor": row["speed"], "critical_table": row.get("critical"),
            "damage_expression": expression, "damage": damage,
            "text": f"{row['weapon']}{named}: {expression} = {damage} damage"
                    + _zero_note(opencore.zero_scores({"STR": strength} if strength is not None else {}))}


@command("opencore initiative")
def initiative(
    *,
    dex: Annotated[int, Arg("the character's DEX (0-100; 0 leaves the character unconscious or immobile)",
                                   ask="the character's DEX, such as 80")],
    weapon: Annotated[str | None, Arg("weapon class, for its speed factor")] = None,
    armor: Annotated[str | None, Arg("armor worn, for its initiative penalty")] = None,
    bide: Annotated[bool, Arg("the character used Bide last round: +20")] = False,
    roll: Annotated[int | None, Arg("the 1d20 (rolled when left out)")] = None,
    dex_modifier: DexModifier = "centred",
    rng: random.Random,
) -> Result:
    """Individual initiative: 1d20 + DEX modifier + weapon speed factor + armor penalty (+20 after Bide)."""
    speed = opencore.weapon(weapon)["speed"] if weapon is not None else 0
    penalty = opencore.armor(armor)["initiative_penalty"] if armor is not None else 0
    options = opencore.Options(dex_modifier=dex_modifier)
    with about("roll"):
        result = opencore.individual_initiative(given_or_rolled(roll, "1d20", rng), dex, speed_factor=speed,
                                                armor_penalty=penalty, bide=bide, options=options)
    parts = [f"{result.roll} (1d20)", f"{result.dex_modifier:+d} (DEX)"]
    if weapon is not None:
        parts.append(f"{speed:+d} ({weapon})")
    if armor is not None:
        parts.append(f"{penalty:+d} ({armor})")
    if bide:
        parts.append(f"{result.bide_bonus:+d} (bide)")
    zero = opencore.zero_scores({"DEX": dex})
    return {"roll": result.roll, "dex_modifier": result.dex_modifier, "speed_factor": result.speed_factor,
            "armor_penalty": result.armor_penalty, "bide_bonus": result.bide_bonus, "total": result.total,
            "zero_scores": zero, "text": f"Initiative {' '.join(parts)} = {result.total}" + _zero_note(zero)}


@command("opencore party-initiative")
def party_initiative(
    *,
    character: Annotated[list[str], Arg("one character (repeat): name=Buck,dex=80 and optionally weapon=Sword, "
                                         "armor=Chain Mail, bide, roll=12", metavar="CHARACTER",
                                         ask="each character, such as name=Buck,dex=80")],
    dex_modifier: DexModifier = "centred",
    rng: random.Random,
) -> Result:
    """Order a party by individual initiative, highest first; ties roll 1d20 again."""
    options = opencore.Options(dex_modifier=dex_modifier)
    specs: dict[str, dict[str, str]] = {}
    for spec in character:  # every character is read before any die is rolled
        with about("character", weapon="character", armor="character"):
            name, fields = _party_member(spec)
        if name in specs:
            raise RollbookError(f"two characters are called {quoted(name)}", hint="give each a different name",
                                fields=("character",))
        specs[name] = fields
    members = {name: _initiative_of(fields, options, rng) for name, fields in specs.items()}
    order = opencore.party_order(members, lambda: roll_total("1d20", rng))
    entries = [{"name": m.name, "roll": m.initiative.roll, "total": m.initiative.total, "tie_rolls": list(m.tie_rolls),
                "dex_modifier": m.initiative.dex_modifier, "speed_factor": m.initiative.speed_factor,
                "armor_penalty": m.initiative.armor_penalty, "bide_bonus": m.initiative.bide_bonus,
                "zero_scores": opencore.zero_scores({"DEX": int(specs[m.name]["dex"])})} for m in order]
    lines = [f"{n}. {m.name}: {m.initiative.total} (1d20 {m.initiative.roll})"
             + (f", tie broken with {', '.join(map(str, m.tie_rolls))}" if m.tie_rolls else "")
             + _zero_note(opencore.zero_scores({"DEX": int(specs[m.name]["dex"])})).replace("\n", "; ")
             for n, m in enumerate(order, 1)]
    return {"order": entries, "text": "\n".join(lines)}


_MEMBER_FIELDS = ("name", "dex", "weapon", "armor", "bide", "roll")


def _party_member(spec: str) -> tuple[str, dict[str, str]]:
    """``name=Buck,dex=80,weapon=Sword,bide`` -> ("Buck", {...}), checked."""
    fields: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if key not in _MEMBER_FIELDS:
            raise RollbookError(f"unknown character field {quoted(key)} in {quoted(spec)}", hint="fields: " + ", ".join(_MEMBER_FIELDS))
        if (key == "bide") == bool(sep):
            raise RollbookError(f"cannot read {quoted(part)} in {quoted(spec)}",
                                hint="write bide alone and the others as field=value, e.g. name=Buck,dex=80")
        fields[key] = value.strip() if sep else "yes"
    for needed in ("name", "dex"):
        if not fields.get(needed):
            raise RollbookError(f"a character needs a {needed}: {quoted(spec)}", hint="e.g. name=Buck,dex=80")
    for key in ("dex", "roll"):
        if key in fields and not re.fullmatch(r"-?\d{1,4}", fields[key]):
            raise RollbookError(f"{key} must be a whole number in {quoted(spec)}", hint=f"e.g. {key}=12")
    dex = check_range("DEX", int(fields["dex"]), opencore.ABILITY_FLOOR, opencore.ABILITY_HIGH)
    if "roll" in fields:
        check_range(f"{fields['name']}'s initiative roll", int(fields["roll"]), 1, 20)
    if "weapon" in fields:
        opencore.weapon(fields["weapon"])
    if "armor" in fields:
        opencore.armor(fields["armor"])
    return fields["name"], {**fields, "dex": str(dex)}


def _initiative_of(fields: dict[str, str], options: opencore.Options, rng: random.Random) -> opencore.Initiative:
    speed = opencore.weapon(fields["weapon"])["speed"] if "weapon" in fields else 0
    penalty = opencore.armor(fields["armor"])["initiative_penalty"] if "armor" in fields else 0
    roll = int(fields["roll"]) if "roll" in fields else roll_total("1d20", rng)
    return opencore.individual_initiative(roll, int(fields["dex"]), speed_factor=speed, armor_penalty=penalty,
                                          bide="bide" in fields, options=options)


@command("opencore successes")
def successes(
    *,
    dice: Annotated[str, Arg("the dice rolled, e.g. 5d10", ask="the dice rolled, such as 5d10", metavar="DICE")],
    at_least: Annotated[int, Arg("the number a die must reach to count, e.g. 8 for '8 or higher'",
                                       ask="the number a die must reach to count, such as 8")],
    needed: Annotated[int, Arg("how many dice must reach it for the check to succeed")] = 1,
    rolls: Annotated[list[int] | None, Arg("the dice as rolled (repeat); rolled when left out", metavar="DIE")] = None,
    rng: random.Random,
) -> Result:
    """A success check by the number of rolls above a number: count the dice showing at least N."""
    count, sides = _dice_pool(dice)
    if rolls is not None and len(rolls) != count:
        raise RollbookError(f"{dice} is {count} dice, but {len(rolls)} rolls were given", hint=f"give {count} rolls",
                            fields=("rolls", "dice"))
    opencore.success_count((1,) * count, sides=sides, at_least=at_least, needed=needed)  # checks before rolling
    shown = tuple(rolls) if rolls is not None else tuple(roll_total(f"1d{sides}", rng) for _ in range(count))
    result = opencore.success_count(shown, sides=sides, at_least=at_least, needed=needed)
    verdict = "success" if result.success else "failure"
    return {"dice": f"{count}d{sides}", "rolls": list(result.rolls), "counted": list(result.counted),
            "at_least": at_least, "needed": needed,
            "successes": result.successes, "success": result.success, "chance": str(result.chance),
            "text": f"{count}d{sides} {', '.join(map(str, result.rolls))}: {result.successes} at {at_least} or higher, "
                    f"{needed} needed: {verdict} (chance of success {percent(result.chance)})"}


def _dice_pool(dice: str) -> tuple[int, int]:
    """``5d10`` -> (5, 10); a single die may leave out the count (``d10``)."""
    match = re.fullmatch(r"\s*(\d{0,4})\s*[dD]\s*(\d{1,4})\s*", dice)
    if match is None:
        raise RollbookError(f"cannot read the dice {quoted(dice)}", hint="write how many dice and their sides, such as 5d10",
                            fields=("dice",))
    return int(match[1] or 1), int(match[2])


@command("opencore group-initiative")
def group_initiative(
    *,
    first_roll: Annotated[int | None, Arg("the first side's 1d6 (rolled when left out)")] = None,
    second_roll: Annotated[int | None, Arg("the second side's 1d6 (rolled when left out)")] = None,
    rng: random.Random,
) -> Result:
    """Group initiative: each side rolls 1d6, the higher acts first; ties roll again."""
    rolls, winner = roll_off(first_roll, second_roll, "1d6", rng, opencore.group_initiative_winner)
    shown = ", then ".join(f"{a} vs {b}" for a, b in rolls)
    return {"rolls": [list(pair) for pair in rolls], "first": winner,
            "text": f"Group initiative {shown}: the {winner} side acts first"}


@command("opencore damage")
def damage(
    amount: Annotated[int, Arg("damage dealt", metavar="AMOUNT", ask="the damage dealt, such as 12")],
    *,
    hp: Annotated[int, Arg("the target's current health points", ask="the target's health points, such as 30")],
    con: Annotated[int, Arg("the target's CON (death at -CON; 0 CON is fatal)", ask="the target's CON, such as 40")],
    armor: Annotated[int, Arg("armor damage rating left")] = 0,
    toughness: Annotated[int, Arg("Toughness left")] = 0,
    power_protection: PowerProtection = 0,
    substance_flaw: SubstanceFlaw = False,
    death_at: DeathAt = "negative-con",
) -> Result:
    """Apply damage to an Armor or Shielding Power, armor, Toughness, then health points; say when a critical is rolled."""
    with about(damage="amount"):
        result = opencore.apply_damage(amount, armor=armor, toughness=toughness, hp=hp, con=con,
                                       power_protection=power_protection, substance_flaw=substance_flaw,
                                       options=opencore.Options(death_at=death_at))
    out = chain.damage_record(result)
    out["text"] += ("; roll a critical" if result.critical else "") + _zero_note(opencore.zero_scores({"CON": con}))
    return out


@command("opencore move")
def move(
    *,
    feet: Annotated[int | None, Arg("the distance to cover, in feet: how many actions (and rounds) it takes")] = None,
    actions: Annotated[int | None, Arg("movement actions: how far they go")] = None,
) -> Result:
    """Movement in combat: ten feet per action, a single action per round."""
    result = opencore.movement(feet=feet, actions=actions)
    plural = "" if result.actions == 1 else "s"
    text = (f"{result.feet} feet: {result.actions} movement action{plural} ({result.rounds} round{plural}) "
            f"at {result.feet_per_action} feet per action" if feet is not None else
            f"{result.actions} movement action{plural}: {result.feet} feet ({result.rounds} round{plural})")
    return {"feet": result.feet, "actions": result.actions, "rounds": result.rounds,
            "feet_per_action": result.feet_per_action, "text": text}


@command("opencore mental-power")
def mental_power(
    *,
    power: Annotated[int, Arg("the Mental Power's score", ask="the Mental Power's score, such as 60")],
    resistance: Annotated[int, Arg("the target's Magic Resistance")] = 0,
) -> Result:
    """A Mental Power's effective score: power - magic resistance (0 means no effect)."""
    effective = opencore.effective_mental_power(power, resistance)
    verdict = "no effect" if effective == 0 else f"effective score {effective}"
    return {"power": power, "resistance": resistance, "effective": effective,
            "text": f"Mental power {power} - magic resistance {resistance}: {verdict}"}


@command("opencore roll-values")
def roll_values(
    *,
    scores: Annotated[str, Arg("the character's ability scores, e.g. STR=76,DEX=80,CON=32", metavar="SCORES",
                                   ask="the character's ability scores, such as STR=76,DEX=80,CON=32")],
    str_damage: StrDamage = "modifier",
) -> Result:
    """The values ability names take in a dice expression (2d10+STR, 1d100-CON) for a character."""
    abilities = opencore.parse_scores(scores)
    for code, score in abilities.items():
        check_range(code, score, opencore.ABILITY_LOW, opencore.ABILITY_HIGH)
    # "+STR" appears only in the weapon table's damage, where it is the Strength term of ruling
    # opencore-str-damage; every other name stands for the score itself (1d100 - CON for HP).
    values = dict(abilities)
    if "STR" in values:
        values["STR"] = opencore.strength_term(values["STR"], opencore.Options(str_damage=str_damage))
    text = ", ".join(f"{code} = {value}" for code, value in values.items())
    return {"values": values, "str_damage": str_damage, "text": text}


# --- the character's working, step by step (for the character generator's sheet) -------------


def _quotient(total: int, count: int) -> str:
    """209 / 4 -> "52.25"; 214 / 3 -> "71.33..." (the dots say it goes on)."""
    exact = Fraction(total, count)
    shown = f"{float(exact):.2f}".rstrip("0").rstrip(".")
    return shown if Fraction(shown) == exact else shown + "..."


def _character_working(hero: opencore.Character) -> list[Result]:
    """How COM, each composite and HP were reached: the rule, the numbers and the rulings used."""
    cha, rolled_com, com = hero.abilities["CHA"], hero.rolled["COM"], hero.abilities["COM"]
    row = opencore.comeliness_row(cha)
    if row is None:
        com_step = {"rule": f"CHA {cha} is exactly 50: COM stays as rolled", "working": f"COM {com}",
                    "rulings": ["opencore-com-at-cha-50"]}
    else:
        shift = row["shift"]
        shifted = rolled_com + shift
        most = tables.get("opencore.comeliness").settings["most"]
        kept_in = "" if shifted == com else f", kept within {opencore.ABILITY_LOW} to {most}: {com}"
        com_step = {"rule": f"CHA {cha} is {tables.comeliness_condition(row)}: {tables.comeliness_change(row)}",
                    "working": f"{rolled_com} {'+' if shift >= 0 else '-'} {abs(shift)} = {shifted}{kept_in}",
                    "rulings": ["opencore-com-limits"] if kept_in else []}
    steps: list[Result] = [{"name": "COM", "value": com, **com_step}]
    for composite in tables.get("opencore.composites").rows:
        code, codes = composite["code"], composite["abilities"]
        total = sum(hero.abilities[a] for a in codes)
        value = hero.composites[code]
        working = f"({' + '.join(str(hero.abilities[a]) for a in codes)}) / {len(codes)} = {total} / {len(codes)}"
        working += f" = {_quotient(total, len(codes))}" + ("" if total % len(codes) == 0 else f", rounded half up: {value}")
        applied = ([] if total % len(codes) == 0 else ["opencore-composite-rounding"]) + (["opencore-sdac-name"] if code == "SDAC" else [])
        steps.append({"name": code, "value": value, "rule": tables.composite_formula(composite), "working": working,
                      "rulings": applied})
    con = hero.abilities["CON"]
    raw = hero.hp_roll - con
    steps.append({"name": "HP", "value": hero.hp, "rule": "1d100 - CON",
                  "working": f"{hero.hp_roll} - {con} = {raw}" + ("" if raw == hero.hp else f", at least {hero.hp}"),
                  "rulings": [] if raw == hero.hp else ["opencore-hp-minimum"]})
    # each ruling with its title, for a link the reader can follow ("Comeliness stays between 1 and 100")
    return [{**step, "rulings": [{"id": ruling, "title": rulings.get(ruling).title} for ruling in step["rulings"]]} for step in steps]
