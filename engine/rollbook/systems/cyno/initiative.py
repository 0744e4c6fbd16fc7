"""Cyno's initiative: the die with more sides than the combatants, each character's roll with its
reflex bonus and tie-breaks, holding back, and the Surprise Chart.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Sequence

from rollbook import tables
from rollbook.errors import LimitError, RollbookError
from rollbook.systems import check_range, higher, rank_with_rerolls, roll_total
from rollbook.systems.cyno.attributes import INITIATIVE_STEP, attribute_bonus, stress_modifier


MAX_COMBATANTS = 10**6  # a larger party is a typo, and a d10^7 is no die


def standard_dice() -> tuple[int, ...]:
    return tuple(tables.get("cyno.initiative").settings["dice"])


def initiative_die(combatants: int) -> int:
    """Sides of the smallest standard die with more sides than the combatants (ruling
    cyno-initiative-die): four PCs and two NPCs roll 1D8; 100 or more roll d1000, d10000, ..."""
    if combatants < 1:
        raise RollbookError(f"initiative needs at least one combatant, not {combatants}", fields=("combatants",))
    if combatants > MAX_COMBATANTS:
        raise LimitError(f"at most {MAX_COMBATANTS:,} combatants", fields=("combatants",))
    for sides in standard_dice():
        if sides > combatants:
            return sides
    sides = standard_dice()[-1]
    while sides <= combatants:
        sides *= 10
    return sides


def initiative_bonus(reflex: int, sides: int) -> int:
    """The reflex bonus applies on a d20, d30 or any die with more sides."""
    bonus = attribute_bonus(reflex, INITIATIVE_STEP)  # checks the reflex whatever the die
    return bonus if sides >= tables.get("cyno.initiative").settings["reflex_bonus_from"] else 0


@dataclass(frozen=True)
class InitiativeRoll:
    character: int  # position in the list given
    rolls: tuple[int, ...]  # the first roll, then any tie-break rolls
    bonus: int
    total: int  # first roll + bonus


def roll_initiative(reflexes: Sequence[int | None], rng: random.Random, *, combatants: int | None = None
                    ) -> tuple[int, tuple[InitiativeRoll, ...]]:
    """Roll initiative for each character (reflex None = no bonus), highest first.

    Ties are broken by separate rolls among the tied characters (ruling cyno-initiative-ties).
    Returns the die's sides and the characters in acting order.
    """
    sides = initiative_die(combatants if combatants is not None else len(reflexes))
    bonuses = [0 if r is None else initiative_bonus(r, sides) for r in reflexes]
    rolls: dict[int, list[int]] = {i: [] for i in range(len(reflexes))}

    def roll(i: int) -> int:
        rolls[i].append(roll_total(f"1d{sides}", rng))
        return rolls[i][-1] + bonuses[i]

    acting = rank_with_rerolls({i: roll(i) for i in range(len(reflexes))}, roll)
    return sides, tuple(
        InitiativeRoll(i, tuple(rolls[i]), bonuses[i], rolls[i][0] + bonuses[i]) for i in acting
    )


def hold_back_winner(first_roll: int, first_stress: int, second_roll: int, second_stress: int
                     ) -> Literal["first", "second"] | None:
    """Both roll 1d20 + stress bonus; the higher result waits longer and moves after the other.
    None on a tie: roll again (ruling cyno-initiative-ties)."""
    check_range("the first d20", first_roll, 1, 20, field="first_roll")
    check_range("the second d20", second_roll, 1, 20, field="second_roll")
    return higher(first_roll + stress_modifier(first_stress), second_roll + stress_modifier(second_stress))


@dataclass(frozen=True)
class Surprise:
    roll: int
    surprised: bool
    misses_turn: bool
    loses_initiative: bool
    result: str


def surprise(roll: int) -> Surprise:
    """The Surprise Chart for the GM's 1D6."""
    check_range("the surprise roll", roll, 1, 6, field="roll")
    row = tables.lookup("cyno.surprise", roll)
    return Surprise(roll, row["surprised"], row.get("misses_turn", False), row.get("loses_initiative", False),
                    row["result"])
