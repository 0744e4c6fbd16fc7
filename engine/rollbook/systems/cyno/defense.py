"""Cyno's defenses: dodging (blind, against a missile volley) and parrying (like a dodge, or with
hand-to-hand skill), with when the rules rule them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rollbook import rulings
from rollbook.errors import RollbookError
from rollbook.systems import check_range
from rollbook.systems.cyno.attributes import dodge_modifier
from rollbook.systems.cyno.options import DEFAULT, Options


UNDODGEABLE_VOLLEY = 5  # volleys of five or more missiles cannot be dodged
BLIND_DODGE_AT_OR_BELOW = 50


DefenseAction = Literal["dodge", "blind dodge", "parry"]


UNAWARE = ("A character may not dodge/parry if the character does not know that he/she is being attacked.")
NOT_HAND_TO_HAND = "only a hand-to-hand attack (or a missile volley of four or fewer) can be dodged"
NOT_A_BLOW = f"a parry blocks \"the enemy's blow\": only a hand-to-hand attack can be parried ({rulings.named('cyno-parry-blows-only')})"


@dataclass(frozen=True)
class Defense:
    action: DefenseAction
    allowed: bool  # the document allows this defense against this attack
    success: bool
    actions_spent: int
    roll: int | None  # the d20, when one was rolled
    modifier: int
    total: int | None
    percentile: int | None  # blind dodge or skilled parry roll
    reason: str


def _rolled_defense(action: DefenseAction, strike_total: int, roll: int | None, reflex: int, bonus: int,
                    percentile: int | None = None, why: str = "") -> Defense:
    """The dodge roll (a parry without skill is computed the same way): 1d20 + reflex modifier +
    bonus succeeds at or above the strike's result; it costs one action."""
    if roll is None:
        raise RollbookError(f"a {action} needs its d20 roll", fields=("roll",))
    check_range(f"the {action} roll", roll, 1, 20, field="roll")
    modifier = dodge_modifier(reflex) + bonus
    total = roll + modifier
    success = total >= strike_total
    verdict = "at least" if success else "below"
    return Defense(action, True, success, 1, roll, modifier, total, percentile,
                   f"{why}{total} is {verdict} the strike's {strike_total}")


def _not_allowed(action: DefenseAction, actions_spent: int, reason: str) -> Defense:
    return Defense(action, False, False, actions_spent, None, 0, None, None, reason)


def dodge(strike_total: int, roll: int | None, *, reflex: int, bonus: int = 0, volley: int | None = None,
          blind_roll: int | None = None, ranged: bool = False, unaware: bool = False,
          options: Options = DEFAULT) -> Defense:
    """Dodge: 1d20 + reflex modifier + bonus, at least the strike's result. Only a hand-to-hand
    attack or a volley of four or fewer missiles can be dodged, and not by a character who does
    not know he is attacked; a blind dodge first needs 50 or under on a percentage roll. A dodge
    the rules rule out costs its action or not by ruling cyno-impossible-dodge. ``ranged``: the
    attack is neither hand-to-hand nor a missile volley."""
    action: DefenseAction = "blind dodge" if blind_roll is not None else "dodge"
    if roll is not None:  # checked whatever happens next, so bad input never depends on the dice
        check_range(f"the {action} roll", roll, 1, 20, field="roll")
    if volley is not None and ranged:
        raise RollbookError("a missile volley is its own kind of attack", hint="give the volley or ranged, not both",
                            fields=("ranged", "volley"))
    if unaware:  # an unaware character declares nothing, so nothing is spent
        return _not_allowed(action, 0, UNAWARE)
    spent = 1 if options.impossible_dodge == "costs-action" else 0
    if volley is not None and volley >= UNDODGEABLE_VOLLEY:
        return _not_allowed(action, spent, f"a volley of {volley} missiles cannot be dodged (five or more)")
    if ranged:
        return _not_allowed(action, spent, NOT_HAND_TO_HAND)
    if blind_roll is not None:
        check_range("the blind-dodge roll", blind_roll, 1, 100, field="blind_roll")
        if blind_roll > BLIND_DODGE_AT_OR_BELOW:
            return Defense(action, True, False, 1, None, 0, None, blind_roll,
                           f"blind dodge: {blind_roll} is over {BLIND_DODGE_AT_OR_BELOW}")
    blind = f"blind roll {blind_roll} is {BLIND_DODGE_AT_OR_BELOW} or under; " if blind_roll is not None else ""
    return _rolled_defense(action, strike_total, roll, reflex, bonus, blind_roll, blind)


def parry(strike_total: int, roll: int | None, *, reflex: int, bonus: int = 0, hand_to_hand_skill: int | None = None,
          skill_roll: int | None = None, unaware: bool = False, ranged: bool = False,
          options: Options = DEFAULT) -> Defense:
    """Parry: with hand-to-hand skill a percentage roll at or under the skill blocks without
    costing an action (a failure costs one or not by ruling cyno-parry-with-skill); without it,
    roll like a dodge, costing an action. Not by a character who does not know he is attacked,
    and (ruling cyno-parry-blows-only) not against an attack that is not hand-to-hand: that
    declared parry costs what a ruled-out dodge costs (ruling cyno-impossible-dodge), and a
    skilled parry nothing."""
    if unaware:
        return _not_allowed("parry", 0, UNAWARE)
    if ranged and options.ranged_parry == "blow-only":
        spent = 1 if hand_to_hand_skill is None and options.impossible_dodge == "costs-action" else 0
        return _not_allowed("parry", spent, NOT_A_BLOW)
    if hand_to_hand_skill is not None:
        check_range("the hand-to-hand skill", hand_to_hand_skill, 0, 100, hint="a percentage", field="hand_to_hand_skill")
        if skill_roll is None:
            raise RollbookError("a skilled parry needs its percentage roll", fields=("skill_roll",))
        check_range("the parry's percentage roll", skill_roll, 1, 100, field="skill_roll")
        success = skill_roll <= hand_to_hand_skill
        verdict = "at or under" if success else "over"
        spent = 1 if not success and options.failed_skilled_parry == "action" else 0
        return Defense("parry", True, success, spent, None, 0, None, skill_roll,
                       f"{skill_roll} is {verdict} the hand-to-hand skill {hand_to_hand_skill}%")
    return _rolled_defense("parry", strike_total, roll, reflex, bonus)
