"""OpenCore's attack chain, the rules of ``opencore attack``: the opposed roll (or a Mental Power's
score), the fumbles, the weapon's or Power's damage, and with the defender's HP the wound and the
critical it calls for. The encounter plays it on its combatants; the command adapts its arguments.

Everything is checked before a die is rolled, and the dice a player rolled at the table are taken
as given. The answer is the record both keep: the command answers with it, the encounter's log
keeps it as the attack's detail, so its fields and words are made here, once.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Literal

from rollbook.dice import parse as dice_parse
from rollbook.dice.checks import check as dice_bounds
from rollbook.errors import RollbookError, about, quoted
from rollbook.systems import check_range, given_or_rolled, opencore, roll_total

Record = dict[str, Any]  # an answer's fields, as JSON has them


def d100(value: int | None, what: str, rng: random.Random, field: str | None = None) -> int:
    """A 1d100 given (the argument ``field``) or rolled."""
    return check_range(what, given_or_rolled(value, "1d100", rng), 1, 100, field=field)


@dataclasses.dataclass(frozen=True)
class AttackDice:
    """The rolls after the opposed roll that a player may make with real dice (``opencore attack``'s
    arguments of the same names; the encounter passes them on)."""

    attacker_fumble_roll: int | None = None
    defender_fumble_roll: int | None = None
    damage_roll: int | None = None
    damage_bonus: int = 0



def attack(
    *,
    attack_skill: int | None = None,
    defense_skill: int | None = None,
    attack_bonus: int = 0,
    defense_bonus: int = 0,
    defending: bool = False,
    stunned: bool = False,
    unconscious: bool = False,
    attacker_stunned: bool = False,
    attacker_unconscious: bool = False,
    attack_roll: int | None = None,
    defense_roll: int | None = None,
    weapon: str | None = None,
    mode: str | None = None,
    strength: int | None = None,
    fortitude: int = 0,
    str_damage: Literal["modifier", "score"] = "modifier",
    power: opencore.PowerKind | None = None,
    power_score: int | None = None,
    power_damage: int | None = None,
    resistance: int = 0,
    hp: int | None = None,
    con: int | None = None,
    armor: int = 0,
    toughness: int = 0,
    power_protection: int = 0,
    substance_flaw: bool = False,
    critical_type: str | None = None,
    critical_roll: int | None = None,
    critical_bonus: int = 0,
    death_at: Literal["negative-con", "zero"] = "negative-con",
    attacker_fumble_roll: int | None = None,
    defender_fumble_roll: int | None = None,
    damage_roll: int | None = None,
    damage_bonus: int = 0,
    rng: random.Random,
) -> Record:
    """An attack by OpenCore's rules, as ``opencore attack`` takes it (every argument is that
    command's of the same name): 1d100 + attack skill vs 1d100 + defense skill, the fumbles, the
    damage, and with ``hp`` the wound and its critical."""
    options = opencore.Options(str_damage=str_damage, death_at=death_at)
    # Everything is checked before rolling, so a typo costs no dice.
    for condition, term, field in ((attacker_unconscious, "Unconscious", "attacker_unconscious"),
                                   (attacker_stunned, "Stun", "attacker_stunned")):
        if condition:  # Terminology: "Stun: unable to attack", "Unconscious: unable to attack, defend, move or use Powers"
            raise RollbookError(f"the attacker is {'stunned' if term == 'Stun' else 'unconscious'}: "
                                f"{term}: {opencore.term_meaning(term)}",
                                hint="no attack this round: a stunned character may still move, use a skill, Bide or take "
                                     "the Defense action" if term == "Stun" else "no attack until the character wakes",
                                fields=(field,))
    skill = _combat_skill(power, attack_skill=attack_skill, power_score=power_score, power_damage=power_damage,
                          resistance=resistance, weapon=weapon)
    if power == "mental" or unconscious:
        blocked = [name for name, given in (("defense_skill", defense_skill is not None),
                                            ("defense_roll", defense_roll is not None), ("defending", defending),
                                            ("stunned", stunned), ("defense_bonus", defense_bonus != 0))
                   if given]
        if power == "mental":
            blocked += [name for name, given in (("attack_roll", attack_roll is not None),
                                                 ("attack_bonus", attack_bonus != 0), ("unconscious", unconscious))
                        if given]
        if blocked:
            why = ("Mental powers used in combat cannot be blocked, so nothing is rolled" if power == "mental"
                   else "an unconscious defender is unable to defend, so makes no defense roll")
            raise RollbookError(why, hint=f"leave out: {_words(blocked)}", fields=tuple(blocked))
    elif defense_skill is None:
        raise RollbookError("enter the defender's defense skill, such as 30", fields=("defense_skill",))
    expression = self_injury_expression = None
    damage_weapon = opencore.HAND_TO_HAND if power == "touch" else weapon
    for name, value in (("attacker_fumble_roll", attacker_fumble_roll), ("defender_fumble_roll", defender_fumble_roll)):
        if value is not None:
            check_range(f"the {name.split('_')[0]}'s Fumble Chart roll", value, 1, 100, field=name)
    if damage_weapon is not None and opencore.rolls_own_damage(damage_weapon):
        if damage_roll is None:
            raise RollbookError(f"{damage_weapon} deal the thrown weapon's own damage, which the Weapons Table does not give",
                                hint="roll it (say 1d6) and give its total as the damage roll", fields=("damage_roll", "weapon"))
        if damage_roll < 0:
            raise RollbookError(f"the damage roll cannot be negative ({damage_roll})", fields=("damage_roll",))
    elif damage_weapon is not None:
        with about("weapon"):
            expression = opencore.damage_expression(damage_weapon, mode=mode, strength=strength, fortitude=fortitude,
                                                    options=options)
            # a fumbling attacker hurts himself with the full dice (ruling opencore-self-injury-fortitude)
            self_injury_expression = opencore.damage_expression(damage_weapon, mode=mode, strength=strength,
                                                                options=options)
        if damage_roll is not None:
            _check_damage_roll(damage_roll, expression)
    elif mode is not None or strength is not None or fortitude:
        given = [name for name, value in (("mode", mode is not None), ("strength", strength is not None),
                                          ("fortitude", fortitude)) if value]
        raise RollbookError(f"{_words(given).capitalize()} {'is' if len(given) == 1 else 'are'} for the weapon's damage",
                            hint="choose the weapon, such as Sword", fields=(*given, "weapon"))
    if damage_weapon is None and (damage_roll is not None or damage_bonus):
        given = [name for name, value in (("damage_roll", damage_roll is not None), ("damage_bonus", damage_bonus)) if value]
        raise RollbookError(f"{_words(given).capitalize()} {'is' if len(given) == 1 else 'are'} for a weapon's damage",
                            hint="choose the weapon, such as Sword; a Power's damage is its own", fields=(*given, "weapon"))
    table = _chain_table(hp=hp, con=con, armor=armor, toughness=toughness, power_protection=power_protection,
                         substance_flaw=substance_flaw, critical_type=critical_type, critical_roll=critical_roll,
                         critical_bonus=critical_bonus, power=power, weapon=damage_weapon, damage_known=expression is not None or power is not None or damage_roll is not None)

    if power == "mental":
        out, lines, multiplier = _mental_attack(skill, resistance)  # the Mental Power's score
    else:
        out, lines, multiplier = _opposed_attack(
            d100(attack_roll, "the attack roll", rng, "attack_roll"),
            None if unconscious else d100(defense_roll, "the defense roll", rng, "defense_roll"), skill=skill,
            defense_skill=defense_skill or 0, attack_bonus=attack_bonus, defense_bonus=defense_bonus,
            defending=defending, stunned=stunned, self_injury_expression=self_injury_expression,
            fumble_rolls={"attacker": attacker_fumble_roll, "defender": defender_fumble_roll},
            self_injury_roll=damage_roll if expression is None else None, rng=rng)
    out.update(power=power, combat_skill=skill, damage=None, damage_expression=expression, critical_table=table,
               wound=None)
    if out["hit"] and (expression is not None or power_damage is not None or damage_roll is not None):
        if damage_roll is not None:  # a die the player rolled, or a thrown weapon's own damage
            rolled = opencore.hit_damage(damage_roll + damage_bonus)
        else:
            rolled = weapon_damage(expression, rng, damage_bonus) if expression is not None else 0
        total = rolled if power_damage is None else opencore.touch_power_damage(power_damage, rolled)
        out["damage"] = total * multiplier  # before armor (ruling opencore-fumble-multiplies-the-hit)
        dice = expression or "the thrown weapon"
        shown = " + ".join(part for part in (
            damage_weapon is not None and f"{dice} ({rolled - damage_bonus})",
            damage_bonus and f"{damage_bonus} (better weapon)",
            power_damage is not None and f"{power_damage} (Power)") if part)
        lines.append(f"Damage {shown}{f' x{multiplier}' if multiplier > 1 else ''}: {out['damage']}")
    if out["hit"] and hp is not None and con is not None and table is not None:  # _chain_table checked them
        out["wound"] = apply_wound(out["damage"], hp=hp, con=con, armor=armor, toughness=toughness,
                              power_protection=power_protection, substance_flaw=substance_flaw, table=table,
                              critical_roll=critical_roll, critical_bonus=critical_bonus,
                              attack_roll=out["attack_roll"], options=options, rng=rng)
        lines.append(out["wound"]["text"])
    # a score at 0 says what it does (ruling opencore-zero-ability)
    for who, code, score in (("attacker", "STR", strength), ("defender", "CON", con)):
        if score == 0:
            lines.append(f"The {who}'s {code} is 0: {opencore.zero_score_consequence(code)}")
    return {**out, "text": "\n".join(lines)}



def _words(names: list[str]) -> str:
    """Arguments as a player reads them: ["defense_skill", "defense_roll"] -> "defense skill, defense roll"."""
    return ", ".join(name.replace("_", " ") for name in names)


def _combat_skill(power: opencore.PowerKind | None, *, attack_skill: int | None, power_score: int | None,
                  power_damage: int | None, resistance: int, weapon: str | None) -> int:
    """The combat skill the attack adds: the attack skill, or for a Power the one the document names."""
    if power is None:
        if power_score is not None or power_damage is not None:
            given = [name for name, value in (("power_score", power_score), ("power_damage", power_damage)) if value is not None]
            raise RollbookError(f"{_words(given).capitalize()} {'is' if len(given) == 1 else 'are'} for a Power's attack",
                                hint="choose the Power: touch, physical or mental", fields=(*given, "power"))
    elif power_damage is None:
        raise RollbookError("a Power's damage is a number the GM gives (the Powers section is not in the document)",
                            hint="0 for none", fields=("power_damage",))
    if resistance and power != "mental":
        raise RollbookError("Magic Resistance lessens Mental Powers only", hint="choose a mental Power, or leave it out",
                            fields=("resistance", "power"))
    if power is not None and weapon is not None:
        raise RollbookError(f"a Power attacks without a weapon ({quoted(weapon)})",
                            hint="leave the weapon out; a touch Power adds Hand-to-Hand damage by itself",
                            fields=("weapon", "power"))
    if power in ("physical", "mental"):
        if attack_skill is not None:
            raise RollbookError(f"a {power} Power's score is its combat skill", hint="give the Power's score instead",
                                fields=("attack_skill", "power_score"))
        if power_score is None:
            raise RollbookError(f"a {power} Power attacks with its score", hint="give the Power's score",
                                fields=("power_score",))
        return power_score
    if power_score is not None:
        raise RollbookError("a touch-based Power uses the Hand-to-Hand combat skill",
                            hint="give the Hand-to-Hand skill as the attack skill, not a Power's score",
                            fields=("power_score", "attack_skill"))
    if attack_skill is None:
        what = "the Hand-to-Hand skill" if power == "touch" else "the attacker's combat skill"
        raise RollbookError(f"enter {what}, such as 40", fields=("attack_skill",))
    return attack_skill


def _chain_table(*, hp: int | None, con: int | None, armor: int, toughness: int, power_protection: int,
                 substance_flaw: bool, critical_type: str | None, critical_roll: int | None,
                 critical_bonus: int, power: opencore.PowerKind | None, weapon: str | None, damage_known: bool) -> str | None:
    """The critical table a hit uses (the one given, or the weapon's; a Power names its own), after
    checking that the chain's arguments belong together."""
    table = critical_type
    if table is None and power is None and weapon is not None:
        table = opencore.weapon(weapon).get("critical")
    if hp is None:
        given = [name for name, value in (("con", con is not None), ("armor", armor != 0),
                                          ("toughness", toughness != 0), ("power_protection", power_protection != 0),
                                          ("substance_flaw", substance_flaw), ("critical_roll", critical_roll is not None),
                                          ("critical_bonus", critical_bonus != 0))
                 if value]
        if given:
            raise RollbookError(f"{_words(given).capitalize()} {'applies' if len(given) == 1 else 'apply'} the damage "
                                "to the defender",
                                hint="give the defender's HP and CON too", fields=("hp", *given))
        return table
    if con is None:
        raise RollbookError("the defender's CON decides unconscious or dead", hint="give it with the HP", fields=("con",))
    if not damage_known:
        raise RollbookError("with the defender's HP the attack needs its damage", hint="choose a weapon, such as Sword, or a Power",
                            fields=("weapon", "hp"))
    if critical_roll is not None:
        check_range("the critical roll", critical_roll, 1, 100, field="critical_roll")
    if table is None:
        raise RollbookError("which critical table does this hit use?",
                            hint="choose one of: slash, impact, puncture, shrapnel, burn", fields=("critical_type",))
    return str(table)


def _mental_attack(power_score: int, resistance: int) -> tuple[Record, list[str], int]:
    """A Mental Power cannot be blocked: it hits unless Magic Resistance cancels it, and then does
    its full damage (ruling opencore-mental-power-full-damage)."""
    effective = opencore.effective_mental_power(power_score, resistance)
    reason = ("a Mental Power cannot be blocked" if effective else
              f"Magic Resistance {resistance} cancels the Mental Power {power_score}")
    out: Record = {"attack_roll": None, "defense_roll": None, "attack_total": None, "defense_total": None,
                   "attacker_fumbled": False, "defender_fumbled": False, "hit": effective > 0, "reason": reason,
                   "fumbles": {}, "self_damage": None, "effective_power": effective}
    lines = [f"Mental Power {power_score} - magic resistance {resistance} = {effective}: "
             f"{'hit' if effective else 'no effect'} ({reason})"]
    return out, lines, 1


def _opposed_attack(attack_roll: int, defense_roll: int | None, *, skill: int, defense_skill: int, attack_bonus: int,
                    defense_bonus: int, defending: bool, stunned: bool, self_injury_expression: str | None,
                    fumble_rolls: dict[str, int | None], self_injury_roll: int | None,
                    rng: random.Random) -> tuple[Record, list[str], int]:
    """1d100 + combat skill vs 1d100 + defense skill (none when the defender is unconscious: no
    ``defense_roll``), with the fumbles; returns the damage multiplier a defender's fumble puts on the hit."""
    if defense_roll is None:
        result = opencore.attack_unconscious(attack_roll, attack_skill=skill, attack_bonus=attack_bonus)
    else:
        result = opencore.resolve_attack(
            attack_roll, defense_roll, attack_skill=skill, defense_skill=defense_skill, attack_bonus=attack_bonus,
            defense_bonus=defense_bonus, defending=defending, defender_stunned=stunned,
        )
    fumbles = {}
    if result.attacker_fumbled:
        fumbles["attacker"] = fumble_record("attacker", d100(fumble_rolls["attacker"], "the Fumble Chart roll", rng))
    if result.defender_fumbled:
        fumbles["defender"] = fumble_record("defender", d100(fumble_rolls["defender"], "the Fumble Chart roll", rng))
    against = ("an unconscious defender" if result.defense_roll is None
               else f"defense {result.defense_roll} → {result.defense_total}")
    lines = [f"Attack {result.attack_roll} → {result.attack_total} vs {against}: "
             f"{'hit' if result.hit else 'miss'} ({result.reason})"]
    lines += [f"Fumble ({side}, {f['roll']}): {f['effect']}" for side, f in fumbles.items()]
    out: Record = {
        "attack_roll": result.attack_roll, "defense_roll": result.defense_roll,
        "attack_total": result.attack_total, "defense_total": result.defense_total,
        "attacker_fumbled": result.attacker_fumbled, "defender_fumbled": result.defender_fumbled,
        "hit": result.hit, "reason": result.reason, "fumbles": fumbles, "self_damage": None,
    }
    self_injury = fumbles.get("attacker", {}).get("self_damage_multiplier", 0)
    if self_injury and (self_injury_expression is not None or self_injury_roll is not None):
        own = weapon_damage(self_injury_expression, rng) if self_injury_expression is not None \
            else opencore.hit_damage(self_injury_roll or 0)  # a thrown weapon's own damage, as given
        out["self_damage"] = own * self_injury
        lines.append(f"The attacker injures self: {self_injury_expression or own}"
                     f"{f' x{self_injury}' if self_injury > 1 else ''} = {out['self_damage']} damage")
    return out, lines, fumbles.get("defender", {}).get("damage_taken_multiplier", 1)


def apply_wound(damage: int, *, hp: int, con: int, armor: int, toughness: int, power_protection: int,
                substance_flaw: bool, table: str | None, critical_roll: int | None, critical_bonus: int,
                attack_roll: int | None, options: opencore.Options, rng: random.Random) -> Record:
    """Apply a hit's damage; when it reaches hit points roll the critical on ``table`` (or take the
    given roll) and add its extra damage. The answer's ``effects`` is what an encounter tracker applies."""
    applied = opencore.apply_damage(damage, armor=armor, toughness=toughness, hp=hp, con=con,
                                    power_protection=power_protection, substance_flaw=substance_flaw, options=options)
    critical = None
    if applied.critical:
        if table is None:
            raise RollbookError("the damage reaches hit points: which critical table does it use?",
                                hint="choose one of: slash, impact, puncture, shrapnel, burn", fields=("critical_type",))
        critical = opencore.critical_hit(table, d100(critical_roll, "the critical roll", rng, "critical_roll"),
                                         attack_roll=attack_roll, toughness=applied.toughness, bonus=critical_bonus)
    result = opencore.wound(applied, critical, con=con, options=options)
    out = damage_record(applied)
    out.update(critical_hit=None, effects=dataclasses.asdict(result.effects), hp=result.hp, state=result.state,
               bleeding=result.bleeding)
    if critical is not None:
        out["critical_hit"] = critical_record(critical, attack_roll)
        extra = f"+{critical.extra_damage} damage to HP: " if critical.extra_damage else ""  # the critical said "no extra damage"
        out["text"] = (f"{out['text']}\n{out['critical_hit']['text']}\n{extra}{result.hp} HP: {result.state}"
                       + ("" if result.state == "dead" else losing(result.bleeding, result.effects.hp_per_round)))
    return out


def weapon_damage(expression: str, rng: random.Random, bonus: int = 0) -> int:
    """Roll damage (and a better weapon's bonus); at least 1 unless Fortitude left no dice (ruling
    opencore-damage-minimum)."""
    total = roll_total(expression, rng) + bonus
    return opencore.hit_damage(total) if "d" in expression else max(0, total)


def _check_damage_roll(value: int, expression: str) -> None:
    """A damage roll given for ``expression`` must be one its dice can show."""
    low, high = (int(bound) for bound in dice_bounds(dice_parse(expression)))
    if not low <= value <= high:
        raise RollbookError(f"{expression} cannot come to {value}: its dice give {low} to {high}",
                            hint="give the total the dice showed, before any bonus", fields=("damage_roll",))



def critical_record(hit: opencore.CriticalHit, attack_roll: int | None) -> Record:
    parts = [str(hit.die)]
    if hit.attack_modifier:
        parts.append(f"{hit.attack_modifier:+d} (attack roll {attack_roll})")
    if hit.toughness:
        parts.append(f"-{hit.toughness} (toughness)")
    if hit.bonus:
        parts.append(f"{hit.bonus:+d} (weapon or Power)")
    working = " ".join(parts) + (f" = {hit.unclamped}" if len(parts) > 1 else "")
    clamped = f", clamped to {hit.roll}" if hit.roll != hit.unclamped else ""
    return {
        "type": hit.type, "die": hit.die, "attack_modifier": hit.attack_modifier, "toughness": hit.toughness,
        "bonus": hit.bonus,
        "unclamped": hit.unclamped, "roll": hit.roll, "row": hit.row, "effect": hit.effect,
        "extra_damage": hit.extra_damage, "bloodloss": hit.bloodloss, "stun_rounds": hit.stun_rounds,
        "unconscious_rounds": hit.unconscious_rounds, "location": hit.location, "skill_penalty": hit.skill_penalty,
        "text": f"{hit.type.capitalize()} critical: {working}{clamped} ({hit.row}): {hit.effect}",
    }


def fumble_record(side: opencore.Side, roll: int) -> Record:
    result = opencore.fumble(side, roll)
    return {"side": side, "roll": roll, "effect": result.effect, "defense_penalty": result.defense_penalty,
            "opponent_extra_attack": result.opponent_extra_attack, "drops_weapon": result.drops_weapon,
            "self_damage_multiplier": result.self_damage_multiplier,
            "damage_taken_multiplier": result.damage_taken_multiplier}



def losing(bleeding: bool, bloodloss: int) -> str:
    """What a wound takes each round: its bloodloss (x2 is -2) and, below 0 HP, the bleeding of
    the dying; the two add up (ruling opencore-bleeding-adds)."""
    causes = [f"bloodloss {-bloodloss}"] * bool(bloodloss) + [f"bleeding below 0 HP {-opencore.bloodloss_per_round()}"] * bleeding
    total = -bloodloss - opencore.bloodloss_per_round() * bleeding
    if not total:
        return ""
    return f", losing {total} HP a round" + (f" ({' + '.join(causes)})" if len(causes) > 1 else
                                             " (bloodloss)" if bloodloss else " (bleeding below 0 HP)")


def _taken(lost: int, left: int, none: str = "none taken") -> str:
    """What armor, Toughness or HP took of a hit and has left: "-5 (3 left)", "none taken (0 left)", never "-0"."""
    return f"{f'-{lost}' if lost else none} ({left} left)"


def damage_record(result: opencore.Damage) -> Record:
    """The fields of a damage answer (``opencore damage``, and an attack's ``wound``)."""
    steps = ["substance flaw, straight to HP:"] if result.substance_flaw else []
    if result.to_power:
        steps.append(f"Power -{result.to_power},")
    steps.append(f"armor {_taken(result.to_armor, result.armor)}, toughness {_taken(result.to_toughness, result.toughness)}, "
                 f"HP {_taken(result.to_hp, result.hp, 'none lost')}: {result.state}")
    return {"damage": result.damage, "to_power": result.to_power, "to_armor": result.to_armor,
            "to_toughness": result.to_toughness, "to_hp": result.to_hp, "armor": result.armor,
            "toughness": result.toughness, "hp": result.hp, "state": result.state, "bleeding": result.bleeding,
            "critical": result.critical, "substance_flaw": result.substance_flaw,
            "text": f"{result.damage} damage: {' '.join(steps)}" + losing(result.bleeding, 0)}

