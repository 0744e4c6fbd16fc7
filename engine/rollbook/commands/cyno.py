"""``rollbook cyno ...``: Cyno's Role-Play rules as commands (CLI and JSON API alike)."""

from __future__ import annotations

import random
from typing import Annotated, Literal

from rollbook import rulings
from rollbook.commands import Arg, Result, command
from rollbook.dice import parse as dice_parse
from rollbook.dice import roll as dice_roll
from rollbook.dice.checks import check as dice_bounds
from rollbook.errors import RollbookError, about
from rollbook.systems import check_range, cyno, given_or_rolled, parse_number, roll_off

Level = Annotated[str, Arg("damage-rating level: a prefix symbol (da, h, k, k+1, M, ...: m is milli, M mega; none "
                          "for DP) or a name (kilo, Kilo+1, in any case)", metavar="LEVEL",
                          ask="a damage-rating level, such as DP, k or kilo")]
AimLines = Annotated[Literal["natural", "aimed"], Arg("ruling cyno-aim-and-natural-lines: 'aimed' lets aiming raise the roll the automatic miss/hit and critical lines read")]
TargetSize = Annotated[Literal["one", "both"], Arg("ruling cyno-large-and-small-target: 'both' lets large and small target apply together")]
ImpossibleDodge = Annotated[Literal["costs-action", "free"], Arg("ruling cyno-impossible-dodge: 'free' when a dodge the rules rule out costs no action")]
RangedParry = Annotated[Literal["blow-only", "allowed"], Arg("ruling cyno-parry-blows-only: 'allowed' lets a parry be tried against any attack")]
FailedSkilledParry = Annotated[Literal["free", "action"], Arg("ruling cyno-parry-with-skill: 'action' when a failed skilled parry costs an action")]
Unaware = Annotated[bool, Arg("the character does not know he/she is being attacked: no dodge or parry")]


@command("cyno initiative")
def initiative(
    *,
    combatants: Annotated[int, Arg("player and non-player characters together",
                                          ask="how many fight, player and non-player characters together, such as 5")],
    reflex: Annotated[list[int] | None, Arg("roll for a character with this reflex (repeat per character)", metavar="REFLEX")] = None,
    rng: random.Random,
) -> Result:
    """The initiative die (more sides than the combatants); with --reflex, roll each character's initiative."""
    sides = cyno.initiative_die(combatants)
    out: Result = {"combatants": combatants, "die": sides, "order": []}
    text = f"{combatants} combatants roll 1D{sides}"
    if reflex:
        if len(reflex) > combatants:
            raise RollbookError(f"{len(reflex)} reflex scores for {combatants} combatants", fields=("reflex", "combatants"))
        with about("reflex"):
            _, order = cyno.roll_initiative(reflex, rng, combatants=combatants)
        out["order"] = [{"character": r.character + 1, "reflex": reflex[r.character], "rolls": list(r.rolls),
                         "bonus": r.bonus, "total": r.total} for r in order]
        text += "\n" + "\n".join(
            f"{n}. character {r.character + 1}: {r.rolls[0]} {r.bonus:+d} = {r.total}"
            + (f" (tie-break rolls {', '.join(map(str, r.rolls[1:]))})" if len(r.rolls) > 1 else "")
            for n, r in enumerate(order, 1))
    return {**out, "text": text}


@command("cyno hold-back")
def hold_back(
    *,
    stress: Annotated[int, Arg("the stress attribute of the character holding back",
                                      ask="the stress of the character holding back, such as 12")],
    other_stress: Annotated[int, Arg("the stress attribute of the other character",
                                            ask="the other character's stress, such as 10")],
    roll: Annotated[int | None, Arg("the first character's d20 (rolled when left out)")] = None,
    other_roll: Annotated[int | None, Arg("the other character's d20 (rolled when left out)")] = None,
    rng: random.Random,
) -> Result:
    """Two characters both holding back: d20 + stress bonus each; the higher moves after the other."""
    with about(first_roll="roll", second_roll="other_roll"):
        rolls, winner = roll_off(roll, other_roll, "1d20", rng,
                                 lambda first, second: cyno.hold_back_winner(first, stress, second, other_stress))
    bonus, other_bonus = cyno.stress_modifier(stress), cyno.stress_modifier(other_stress)
    shown = ", then ".join(f"{a}{bonus:+d} vs {b}{other_bonus:+d}" for a, b in rolls)
    later = "first character" if winner == "first" else "other character"
    return {"rolls": [list(pair) for pair in rolls], "bonus": bonus, "other_bonus": other_bonus,
            "moves_last": winner, "text": f"Holding back {shown}: the {later} waits longer and moves after"}


@command("cyno surprise")
def surprise(
    roll: Annotated[int | None, Arg("the GM's 1D6 (rolled when left out)")] = None,
    *,
    rng: random.Random,
) -> Result:
    """The Surprise Chart: is this character surprised?"""
    result = cyno.surprise(given_or_rolled(roll, "1d6", rng))
    return {"roll": result.roll, "surprised": result.surprised, "misses_turn": result.misses_turn,
            "loses_initiative": result.loses_initiative, "result": result.result,
            "text": f"Surprise {result.roll}: {result.result}"}


@command("cyno strike")
def strike(
    *,
    roll: Annotated[int | None, Arg("the 1D20 strike roll (rolled when left out)")] = None,
    coordination: Annotated[int | None, Arg("the attacker's coordination")] = None,
    skill: Annotated[int | None, Arg("the weaponry skill in percent (one chart line applies)")] = None,
    condition: Annotated[list[str] | None, Arg(f"a chart condition (repeat): {', '.join(cyno.condition_rows())}", metavar="CONDITION")] = None,
    damage_lost: Annotated[int, Arg("damage points the attacker has lost (-1 per 5)")] = 0,
    aim: Annotated[int, Arg("actions spent aiming (+1 each)")] = 0,
    rocket: Annotated[bool, Arg("firing an unguided rocket (-2)")] = False,
    missile: Annotated[bool, Arg("a guided missile volley: no bonuses or penalties apply")] = False,
    damage: Annotated[str | None, Arg("the weapon's damage roll: its dice, such as 2d6 (rolled on a hit), or the "
                                      "number they showed; doubled on a critical", dice=True)] = None,
    location_roll: Annotated[int | None, Arg("an aimed hit's percentage roll against the weaponry skill (rolled when left out)")] = None,
    aim_lines: AimLines = "natural",
    target_size: TargetSize = "one",
    rng: random.Random,
) -> Result:
    """Roll to strike: 1D20 + bonuses - penalties; 5 or lower misses, 20 hits, above 10 hits, 19-20 critical."""
    given = [name for name, value in (("coordination", coordination is not None), ("skill", skill is not None),
                                      ("condition", condition), ("damage_lost", damage_lost), ("aim", aim),
                                      ("rocket", rocket)) if value]
    if missile and given:
        raise RollbookError(f"a missile's strike takes no bonuses or penalties ({rulings.named('cyno-missile-modifiers')})",
                            hint="leave out everything but the strike roll and the damage", fields=("missile", *given))
    if aim and skill is None:  # asked before rolling (ruling cyno-weaponry-skill-left-out)
        raise RollbookError("an aimed hit's location is rolled against the weaponry skill", hint="give the skill",
                            fields=("skill", "aim"))
    if location_roll is not None and not aim:
        raise RollbookError("only an aimed hit rolls for its location", hint="aim first, or leave it out",
                            fields=("location_roll", "aim"))
    if location_roll is not None:
        check_range("the aiming percentage roll", location_roll, 1, 100, field="location_roll")
    if damage is not None and dice_bounds(dice_parse(damage))[0] < 0:
        raise RollbookError(f"damage cannot be negative ({damage})", fields=("damage",))
    options = cyno.Options(aim_lines=aim_lines, target_size=target_size)
    with about(weaponry_skill="skill", conditions="condition", aim_actions="aim"):
        modifiers = cyno.strike_modifiers(coordination=coordination, weaponry_skill=skill, conditions=condition or (),
                                          damage_lost=damage_lost, aim_actions=aim, rocket=rocket, options=options)
        result = cyno.strike(given_or_rolled(roll, f"1d{cyno.strike_die()}", rng), modifiers, aim_actions=aim,
                             options=options)
    dealt, dice = _damage_dealt(damage, result, rng) if damage is not None else (None, None)
    exact = None
    if aim and result.hit and skill is not None:  # an aimed hit strikes a chosen location: exactly, or close
        exact = cyno.exact_location(skill, given_or_rolled(location_roll, "1d100", rng))
    parts = " ".join(f"{m.modifier:+d} ({_clause(m.source)})" for m in result.modifiers)
    verdict = ("critical hit" if result.critical else "hit") if result.hit else "miss"
    text = f"Strike {result.roll}{' ' + parts if parts else ''} = {result.total}: {verdict} ({result.reason})"
    if dealt is not None:
        text += f"; damage {dealt}" + (f" ({dice}{', doubled' if result.critical else ''})" if dice else "")
    if exact is not None:
        text += "; exactly on the aimed location" if exact else "; close to the aimed location, not exact"
    return {"roll": result.roll, "lines_roll": result.lines_roll,
            "modifiers": [{"source": m.source, "modifier": m.modifier} for m in result.modifiers],
            "total": result.total, "hit": result.hit, "critical": result.critical, "automatic": result.automatic,
            "reason": result.reason, "damage": dealt, "damage_dice": dice,
            "exact_location": exact, "text": text}


def _damage_dealt(damage: str, strike: cyno.Strike, rng: random.Random) -> tuple[int, str | None]:
    """What a strike deals: the weapon's damage roll (its dice rolled on a hit, or the number they
    showed), doubled on a critical; and the dice as rolled, when there were dice."""
    if not strike.hit:
        return 0, None
    rolled = dice_roll(damage, rng)
    if rolled.total != int(rolled.total):
        raise RollbookError(f"{damage} came to {rolled.total}, not a whole number of damage points", fields=("damage",))
    amount = int(rolled.total)
    return (cyno.critical_damage(amount) if strike.critical else amount), (None if damage.strip().isdigit() else rolled.text)


def _clause(sentence: str) -> str:
    """A chart's sentence inside a line: "+1 (Weaponry skill between 61 & 70%)", not "70%.)"."""
    return sentence.rstrip(".")


def _defense_json(result: cyno.Defense, reflex_given: bool = True) -> Result:
    verdict = ("succeeds" if result.success else "fails") if result.allowed else "is not allowed"
    # a d20 defense adds the reflex modifier: without a reflex it is counted as 10 (+0), and says so
    unknown = "; no reflex given: counted as 10, no modifier" if not reflex_given and result.roll is not None else ""
    return {"action": result.action, "allowed": result.allowed, "success": result.success,
            "actions_spent": result.actions_spent,
            "roll": result.roll, "modifier": result.modifier, "total": result.total,
            "percentile": result.percentile, "reason": result.reason + unknown,
            "text": f"{result.action.capitalize()} {verdict}: {_clause(result.reason)}{unknown} ({result.actions_spent} action"
                    f"{'' if result.actions_spent == 1 else 's'})"}


@command("cyno dodge")
def dodge(
    *,
    strike: Annotated[int, Arg("the strike roll's final result to equal or beat",
                                      ask="the strike roll's final result, such as 14")],
    reflex: Annotated[int | None, Arg("the defender's reflex (+1 per 3 over 12, -1 per 2 under 9)")] = None,
    bonus: Annotated[int, Arg("any other bonus or penalty")] = 0,
    roll: Annotated[int | None, Arg("the d20 (rolled when left out)")] = None,
    blind: Annotated[bool, Arg("a blind dodge: first 50 or under on a percentage roll")] = False,
    blind_roll: Annotated[int | None, Arg("the blind dodge's percentage roll (rolled when left out)")] = None,
    volley: Annotated[int | None, Arg("dodging a missile volley of this many missiles")] = None,
    ranged: Annotated[bool, Arg("the attack is not hand-to-hand (a shot, a thrown weapon, a rocket): no dodge")] = False,
    unaware: Unaware = False,
    impossible_dodge: ImpossibleDodge = "costs-action",
    rng: random.Random,
) -> Result:
    """Dodge a hand-to-hand attack or a missile volley of four or fewer: 1d20 + reflex modifier, at least the strike's result."""
    if blind_roll is not None and not blind:
        raise RollbookError("only a blind dodge rolls this", hint="say the dodge is blind, or leave it out",
                            fields=("blind_roll", "blind"))
    if volley is not None:
        check_range("the volley", volley, 1, 10**6, field="volley")
        if ranged:
            raise RollbookError("a missile volley is its own kind of attack, not another ranged one",
                                hint="leave out that it is ranged", fields=("ranged", "volley"))
    if blind and unaware:
        raise RollbookError("a blind dodge is for a character who knows he is attacked but does not see it",
                            hint="the character is unaware or dodges blind, not both", fields=("unaware", "blind"))
    options = cyno.Options(impossible_dodge=impossible_dodge)
    ruled_out = unaware or ranged or (volley is not None and volley >= cyno.UNDODGEABLE_VOLLEY)
    percentile = given_or_rolled(blind_roll, "1d100", rng) if blind and not ruled_out else blind_roll
    need_roll = not ruled_out and not (percentile is not None and percentile > cyno.BLIND_DODGE_AT_OR_BELOW)
    die = given_or_rolled(roll, "1d20", rng) if need_roll else roll
    result = cyno.dodge(strike, die, reflex=10 if reflex is None else reflex, bonus=bonus, volley=volley,
                        blind_roll=percentile, ranged=ranged, unaware=unaware, options=options)
    return _defense_json(result, reflex_given=reflex is not None)


@command("cyno parry")
def parry(
    *,
    strike: Annotated[int, Arg("the strike roll's final result to equal or beat",
                                      ask="the strike roll's final result, such as 14")],
    reflex: Annotated[int | None, Arg("the defender's reflex, for a parry rolled like a dodge")] = None,
    bonus: Annotated[int, Arg("any other bonus or penalty")] = 0,
    roll: Annotated[int | None, Arg("the d20 (rolled when left out)")] = None,
    skill: Annotated[int | None, Arg("the defender's hand-to-hand combat skill in percent")] = None,
    skill_roll: Annotated[int | None, Arg("the percentage roll against that skill (rolled when left out)")] = None,
    damage: Annotated[int | None, Arg("the blow's damage: a parried blow's damage goes to the weapon or limb that parried")] = None,
    unaware: Unaware = False,
    ranged: Annotated[bool, Arg("the attack is not hand-to-hand (a shot, a thrown weapon, a rocket, missiles)")] = False,
    failed_skilled_parry: FailedSkilledParry = "free",
    ranged_parry: RangedParry = "blow-only",
    impossible_dodge: ImpossibleDodge = "costs-action",
    rng: random.Random,
) -> Result:
    """Parry with a weapon or limb: like a dodge, or with hand-to-hand skill a percentage roll that costs no action."""
    if skill_roll is not None and skill is None:
        raise RollbookError("a percentage roll is made against the hand-to-hand skill", hint="give the skill",
                            fields=("skill", "skill_roll"))
    if skill is not None and roll is not None:
        raise RollbookError("a parry with hand-to-hand skill is a percentage roll, not a d20",
                            hint="give the percentage roll instead", fields=("roll", "skill_roll"))
    if damage is not None and damage < 0:
        raise RollbookError(f"damage cannot be negative ({damage})", fields=("damage",))
    options = cyno.Options(failed_skilled_parry=failed_skilled_parry, ranged_parry=ranged_parry,
                           impossible_dodge=impossible_dodge)
    ruled_out = unaware or (ranged and ranged_parry == "blow-only")
    percentile, die = skill_roll, roll
    if not ruled_out and skill is not None:
        percentile = given_or_rolled(skill_roll, "1d100", rng)
    elif not ruled_out:
        die = given_or_rolled(roll, "1d20", rng)
    with about(hand_to_hand_skill="skill"):
        result = cyno.parry(strike, die, reflex=10 if reflex is None else reflex, bonus=bonus,
                            hand_to_hand_skill=skill, skill_roll=percentile, unaware=unaware, ranged=ranged,
                            options=options)
    out = _defense_json(result, reflex_given=reflex is not None)
    # "block the enemy's blow with a weapon or a limb, allowing the weapon or limb to take the damage instead"
    out["weapon_or_limb_damage"] = damage if result.success and damage is not None else None
    if out["weapon_or_limb_damage"] is not None:
        out["text"] += f"; the parrying weapon or limb takes the {damage} damage"
    return out


@command("cyno damage")
def damage(
    amount: Annotated[int, Arg("damage points rolled, in the weapon's units", metavar="AMOUNT",
                                      ask="the damage points rolled, such as 12")],
    *,
    weapon_level: Level,
    target_level: Level,
    static: Annotated[bool, Arg("static damage points (SDP): unchanged against targets at or below the weapon's level")] = False,
    critical: Annotated[bool, Arg("a critical strike: double damage")] = False,
) -> Result:
    """Damage rating: what a weapon's damage does to a target of another level, in the target's units."""
    with about("weapon_level"):
        weapon = cyno.parse_level(weapon_level)
    with about("target_level"):
        target = cyno.parse_level(target_level)
    result = cyno.damage_to(amount, weapon, target, static=static, critical=critical)
    unit = cyno.level_symbol(result.target_level) + "DP"
    return {"amount": result.amount, "weapon_level": cyno.level_symbol(result.weapon_level),
            "target_level": cyno.level_symbol(result.target_level), "static": static, "critical": critical,
            "exact": cyno.format_decimal(result.exact), "damage": result.damage, "unit": unit,
            "reason": result.reason, "text": f"{result.damage} {unit} ({result.reason})"}


@command("cyno levels")
def levels() -> Result:
    """Every damage-rating level, highest first: its symbol and its name (Kilo+1 for the unnamed level above Kilo)."""
    out = [{"level": level, "symbol": symbol, "name": cyno.level_name(level), "unit": symbol + "DP"}
           for level, symbol in sorted(cyno.level_symbols().items(), reverse=True)]
    return {"levels": out, "text": ", ".join(f"{row['unit']} ({row['name']})" for row in out)}


@command("cyno convert")
def convert(
    amount: Annotated[str, Arg("damage points, e.g. 5 or 2.5", metavar="AMOUNT",
                                      ask="the damage points, such as 5 or 2.5")],
    *,
    from_level: Level,
    to_level: Level,
) -> Result:
    """Convert damage points between levels: move the decimal point one place per level."""
    value = parse_number(amount, "the amount", fractions=False, field="amount")
    with about("from_level"):
        source = cyno.parse_level(from_level)
    with about("to_level"):
        target = cyno.parse_level(to_level)
    exact = cyno.convert(value, source, target)
    shown = cyno.format_decimal(exact)
    return {"amount": amount, "from_level": cyno.level_symbol(source), "to_level": cyno.level_symbol(target),
            "result": shown,
            "text": f"{amount} {cyno.level_symbol(source)}DP = {shown} {cyno.level_symbol(target)}DP"}
