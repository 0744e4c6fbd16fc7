"""``rollbook opencore ...``: OpenCore's rules as commands (CLI and JSON API alike)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Literal

from rollbook import rulings, tables
from rollbook.commands import Arg, Result, command
from rollbook.errors import RollbookError
from rollbook.systems import check_range, given_or_rolled, opencore, roll_off, roll_total

SaveDirection = Annotated[Literal["under", "over"], Arg("ruling opencore-save-direction: 'over' succeeds at or above the composite")]
WillpowerComposite = Annotated[Literal["SDAC", "IPW"], Arg("ruling opencore-willpower-composite")]
Perception = Annotated[Literal["above", "at-or-below"], Arg("ruling opencore-perception-direction")]
DexModifier = Annotated[Literal["centred", "none"], Arg("ruling opencore-dex-modifier")]
StrDamage = Annotated[Literal["modifier", "score"], Arg("ruling opencore-str-damage: 'score' adds the STR score itself")]
DeathAt = Annotated[Literal["negative-con", "zero"], Arg("ruling opencore-death-threshold")]
Scores = Annotated[str | None, Arg("ability scores, e.g. STR=76,DEX=80 (missing ones are rolled)", metavar="SCORES")]


def _d100(value: int | None, what: str, rng: random.Random) -> int:
    return check_range(what, given_or_rolled(value, "1d100", rng), 1, 100)


def _check_options(save_direction: SaveDirection, willpower_composite: WillpowerComposite,
                   perception: Perception) -> opencore.Options:
    """The check rulings a table chose (the same three options on ``character`` and ``check``)."""
    return opencore.Options(save_direction=save_direction, willpower_composite=willpower_composite,
                            perception=perception)


@command("opencore character")
def character(
    *,
    scores: Scores = None,
    hp_roll: Annotated[int | None, Arg("the 1d100 rolled for health points (rolled when left out)")] = None,
    save_direction: SaveDirection = "under",
    willpower_composite: WillpowerComposite = "SDAC",
    perception: Perception = "above",
    rng: random.Random,
) -> Result:
    """Create an OpenCore character: abilities, COM rule, composites, saving throws and HP."""
    options = _check_options(save_direction, willpower_composite, perception)
    given = opencore.parse_scores(scores or "")
    rolled = {code: given[code] if code in given else roll_total("1d100", rng) for code in opencore.ability_codes()}
    hero = opencore.make_character(rolled, _d100(hp_roll, "the HP roll", rng))
    checks = {kind: opencore.check_odds(kind, hero.abilities, options) for kind in opencore.check_kinds()}
    summary = {kind: {"name": c.rule.name, "rule": c.rule.describe(), "target": c.target, "chance": str(c.chance)}
               for kind, c in checks.items()}
    lines = [" ".join(f"{code} {value}" for code, value in hero.abilities.items())]
    if hero.abilities["COM"] != hero.rolled["COM"]:
        lines.append(f"COM {hero.rolled['COM']} -> {hero.abilities['COM']} (CHA {hero.abilities['CHA']})")
    lines.append(" ".join(f"{code} {value}" for code, value in hero.composites.items()))
    lines.append(f"HP {hero.hp} (1d100 - CON = {hero.hp_roll} - {hero.abilities['CON']})")
    lines += [f"{c.rule.name}: {c.rule.describe()} ({c.target}), chance {c.chance}" for c in checks.values()]
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
        "text": "\n".join(lines),
    }


@command("opencore check")
def check(
    kind: Annotated[Literal["physical-toughness", "reflex", "willpower", "awareness", "concentration", "perception"],
                    Arg("the saving throw or check", metavar="KIND")],
    *,
    scores: Annotated[str, Arg("the abilities it needs, e.g. STR=76,DEX=80,AGL=21,CON=32", metavar="SCORES")],
    roll: Annotated[int | None, Arg("the 1d100 (rolled when left out)")] = None,
    save_direction: SaveDirection = "under",
    willpower_composite: WillpowerComposite = "SDAC",
    perception: Perception = "above",
    rng: random.Random,
) -> Result:
    """Roll a saving throw, Awareness, Concentration or Perception check, with its exact chance."""
    options = _check_options(save_direction, willpower_composite, perception)
    abilities = opencore.parse_scores(scores)
    missing = [code for code in opencore.needed_abilities(kind, options) if code not in abilities]
    if missing:
        raise RollbookError(f"{kind} needs {', '.join(missing)}", hint="give them with --scores, e.g. CON=32")
    result = opencore.check(kind, abilities, _d100(roll, "the roll", rng), options)
    verdict = "success" if result.success else "failure"
    text = (f"{result.rule.name}: {result.rule.describe()} ({result.target}): rolled {result.roll}"
            f"{f' -> {result.result}' if result.rule.subtract else ''}: {verdict} (chance {result.chance})")
    return {"kind": result.rule.kind, "name": result.rule.name, "rule": result.rule.describe(),
            "roll": result.roll, "result": result.result, "target": result.target,
            "success": result.success, "chance": str(result.chance), "text": text}


@command("opencore crit")
def crit(
    type: Annotated[Literal["slash", "impact", "puncture", "shrapnel", "burn"], Arg("the critical table", metavar="TYPE")],
    roll: Annotated[int | None, Arg("the 1d100 critical roll (rolled when left out)")] = None,
    *,
    attack_roll: Annotated[int | None, Arg("the unmodified attack roll: under 20 gives -20, over 80 +20")] = None,
    toughness: Annotated[int, Arg("Toughness the target has left (subtracted from the roll)")] = 0,
    rng: random.Random,
) -> Result:
    """Look up a critical hit: 1d100, +/-20 for the attack roll, minus Toughness, clamped to the table."""
    hit = opencore.critical_hit(type, _d100(roll, "the critical roll", rng), attack_roll=attack_roll,
                                toughness=toughness)
    parts = [str(hit.die)]
    if hit.attack_modifier:
        parts.append(f"{hit.attack_modifier:+d} (attack roll {attack_roll})")
    if hit.toughness:
        parts.append(f"-{hit.toughness} (toughness)")
    working = " ".join(parts) + (f" = {hit.unclamped}" if len(parts) > 1 else "")
    clamped = f", clamped to {hit.roll}" if hit.roll != hit.unclamped else ""
    return {
        "type": hit.type, "die": hit.die, "attack_modifier": hit.attack_modifier, "toughness": hit.toughness,
        "unclamped": hit.unclamped, "roll": hit.roll, "row": hit.row, "effect": hit.effect,
        "extra_damage": hit.extra_damage, "bloodloss": hit.bloodloss, "stun_rounds": hit.stun_rounds,
        "unconscious_rounds": hit.unconscious_rounds, "location": hit.location, "skill_penalty": hit.skill_penalty,
        "text": f"{hit.type.capitalize()} critical: {working}{clamped} ({hit.row}): {hit.effect}",
    }


def _fumble_json(side: opencore.Side, roll: int) -> Result:
    result = opencore.fumble(side, roll)
    return {"side": side, "roll": roll, "effect": result.effect, "defense_penalty": result.defense_penalty,
            "opponent_extra_attack": result.opponent_extra_attack, "drops_weapon": result.drops_weapon,
            "self_damage_multiplier": result.self_damage_multiplier,
            "damage_taken_multiplier": result.damage_taken_multiplier}


@command("opencore fumble")
def fumble(
    side: Annotated[Literal["attacker", "defender"], Arg("who fumbled", metavar="SIDE")],
    roll: Annotated[int | None, Arg("the 1d100 on the Fumble Chart (rolled when left out)")] = None,
    *,
    rng: random.Random,
) -> Result:
    """Roll on the Fumble Chart for the attacker or the defender."""
    result = _fumble_json(side, _d100(roll, "the fumble roll", rng))
    return {**result, "text": f"Fumble ({side}, {result['roll']}): {result['effect']}"}


@command("opencore attack")
def attack(
    *,
    attack_skill: Annotated[int, Arg("the attacker's combat skill")],
    defense_skill: Annotated[int, Arg("the defender's defense skill (e.g. Evade)")],
    attack_bonus: Annotated[int, Arg("applicable attack bonuses")] = 0,
    defense_bonus: Annotated[int, Arg("applicable defense bonuses")] = 0,
    defending: Annotated[bool, Arg("the defender took the Defense action: defense skill doubled")] = False,
    stunned: Annotated[bool, Arg("the defender is stunned: -50 to the defense roll")] = False,
    attack_roll: Annotated[int | None, Arg("the attacker's 1d100 (rolled when left out)")] = None,
    defense_roll: Annotated[int | None, Arg("the defender's 1d100 (rolled when left out)")] = None,
    weapon: Annotated[str | None, Arg("weapon class: roll its damage on a hit, e.g. Sword")] = None,
    mode: Annotated[str | None, Arg("Assault Rifle mode: single, burst or full auto")] = None,
    strength: Annotated[int | None, Arg("the attacker's STR, for +STR weapons")] = None,
    fortitude: Annotated[int, Arg("the defender's Fortitude: damage dice removed before rolling")] = 0,
    str_damage: StrDamage = "modifier",
    rng: random.Random,
) -> Result:
    """Resolve an attack: 1d100 + attack skill vs 1d100 + defense skill, fumbles, and damage on a hit."""
    options = opencore.Options(str_damage=str_damage)
    expression = self_injury_expression = None
    if weapon is not None:  # checked before rolling, so a typo costs no dice
        expression = opencore.damage_expression(weapon, mode=mode, strength=strength, fortitude=fortitude,
                                                options=options)
        # a fumbling attacker hurts himself: the defender's Fortitude has no say in that
        self_injury_expression = opencore.damage_expression(weapon, mode=mode, strength=strength, options=options)
    elif mode is not None or strength is not None or fortitude:
        raise RollbookError("--mode, --strength and --fortitude are for the weapon's damage",
                            hint="add --weapon, e.g. --weapon Sword")
    result = opencore.resolve_attack(
        _d100(attack_roll, "the attack roll", rng), _d100(defense_roll, "the defense roll", rng),
        attack_skill=attack_skill, defense_skill=defense_skill, attack_bonus=attack_bonus,
        defense_bonus=defense_bonus, defending=defending, defender_stunned=stunned,
    )
    fumbles = {}
    if result.attacker_fumbled:
        fumbles["attacker"] = _fumble_json("attacker", roll_total("1d100", rng))
    if result.defender_fumbled:
        fumbles["defender"] = _fumble_json("defender", roll_total("1d100", rng))
    lines = [f"Attack {result.attack_roll} -> {result.attack_total} vs defense {result.defense_roll} -> "
             f"{result.defense_total}: {'hit' if result.hit else 'miss'} ({result.reason})"]
    lines += [f"Fumble ({side}, {f['roll']}): {f['effect']}" for side, f in fumbles.items()]
    out: Result = {
        "attack_roll": result.attack_roll, "defense_roll": result.defense_roll,
        "attack_total": result.attack_total, "defense_total": result.defense_total,
        "attacker_fumbled": result.attacker_fumbled, "defender_fumbled": result.defender_fumbled,
        "hit": result.hit, "reason": result.reason, "fumbles": fumbles,
        "damage": None, "damage_expression": expression, "critical_table": None,
    }
    self_injury = fumbles.get("attacker", {}).get("self_damage_multiplier", 0)
    out["self_damage"] = None
    if self_injury and self_injury_expression is not None:
        out["self_damage"] = _weapon_damage(self_injury_expression, rng) * self_injury
        lines.append(f"The attacker injures self: {self_injury_expression}"
                     f"{f' x{self_injury}' if self_injury > 1 else ''} = {out['self_damage']} damage")
    if result.hit and expression is not None:
        row = opencore.weapon(weapon or "")
        multiplier = fumbles.get("defender", {}).get("damage_taken_multiplier", 1)
        out["damage"] = _weapon_damage(expression, rng) * multiplier
        out["critical_table"] = row.get("critical")
        lines.append(f"Damage {expression}{f' x{multiplier}' if multiplier > 1 else ''}: {out['damage']}")
    return {**out, "text": "\n".join(lines)}


def _weapon_damage(expression: str, rng: random.Random) -> int:
    """Roll damage; at least 1 unless Fortitude left no dice (ruling opencore-damage-minimum)."""
    total = roll_total(expression, rng)
    return opencore.hit_damage(total) if "d" in expression else max(0, total)


@command("opencore weapon")
def weapon(
    name: Annotated[str, Arg("weapon class, e.g. Sword or 'Assault Rifle'", metavar="WEAPON")],
    *,
    mode: Annotated[str | None, Arg("Assault Rifle mode: single, burst or full auto")] = None,
    strength: Annotated[int | None, Arg("the attacker's STR, for +STR weapons")] = None,
    fortitude: Annotated[int, Arg("the target's Fortitude: damage dice removed before rolling")] = 0,
    str_damage: StrDamage = "modifier",
    rng: random.Random,
) -> Result:
    """Roll a weapon class's damage (weapon table), with +STR and the target's Fortitude."""
    row = opencore.weapon(name)
    expression = opencore.damage_expression(name, mode=mode, strength=strength, fortitude=fortitude,
                                            options=opencore.Options(str_damage=str_damage))
    damage = _weapon_damage(expression, rng)
    return {"weapon": row["weapon"], "speed_factor": row["speed"], "critical_table": row.get("critical"),
            "damage_expression": expression, "damage": damage,
            "text": f"{row['weapon']}: {expression} = {damage} damage"}


@command("opencore initiative")
def initiative(
    *,
    dex: Annotated[int, Arg("the character's DEX (1-100)")],
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
    result = opencore.individual_initiative(given_or_rolled(roll, "1d20", rng), dex, speed_factor=speed,
                                            armor_penalty=penalty, bide=bide, options=options)
    parts = [f"{result.roll} (1d20)", f"{result.dex_modifier:+d} (DEX)"]
    if weapon is not None:
        parts.append(f"{speed:+d} ({weapon})")
    if armor is not None:
        parts.append(f"{penalty:+d} ({armor})")
    if bide:
        parts.append(f"{result.bide_bonus:+d} (bide)")
    return {"roll": result.roll, "dex_modifier": result.dex_modifier, "speed_factor": result.speed_factor,
            "armor_penalty": result.armor_penalty, "bide_bonus": result.bide_bonus, "total": result.total,
            "text": f"Initiative {' '.join(parts)} = {result.total}"}


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
    amount: Annotated[int, Arg("damage dealt", metavar="AMOUNT")],
    *,
    hp: Annotated[int, Arg("the target's current health points")],
    con: Annotated[int, Arg("the target's CON (death at -CON)")],
    armor: Annotated[int, Arg("armor damage rating left")] = 0,
    toughness: Annotated[int, Arg("Toughness left")] = 0,
    death_at: DeathAt = "negative-con",
) -> Result:
    """Apply damage to armor, then Toughness, then health points; say when a critical is rolled."""
    result = opencore.apply_damage(amount, armor=armor, toughness=toughness, hp=hp, con=con,
                                   options=opencore.Options(death_at=death_at))
    text = (f"{amount} damage: armor -{result.to_armor} ({result.armor} left), toughness -{result.to_toughness} "
            f"({result.toughness} left), HP -{result.to_hp} ({result.hp} left): {result.state}"
            + (", bleeding 1 HP a round" if result.bleeding else "")
            + ("; roll a critical" if result.critical else ""))
    return {"damage": amount, "to_armor": result.to_armor, "to_toughness": result.to_toughness,
            "to_hp": result.to_hp, "armor": result.armor, "toughness": result.toughness, "hp": result.hp,
            "state": result.state, "bleeding": result.bleeding, "critical": result.critical, "text": text}


@command("opencore mental-power")
def mental_power(
    *,
    power: Annotated[int, Arg("the Mental Power's score")],
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
    scores: Annotated[str, Arg("the character's ability scores, e.g. STR=76,DEX=80,CON=32", metavar="SCORES")],
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
