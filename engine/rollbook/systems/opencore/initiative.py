"""OpenCore initiative: individual (1d20 + DEX modifier + weapon speed + armor penalty, +20 after
Bide), a party's order with its tie-breaks, and group initiative's 1d6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Mapping

from rollbook.errors import RollbookError
from rollbook.systems import check_range, higher, rank_with_rerolls
from rollbook.systems.opencore.character import ABILITY_FLOOR, ABILITY_HIGH, ability_modifier
from rollbook.systems.opencore.options import DEFAULT, Options
from rollbook.systems.opencore.terms import action_value


def dex_modifier(dex: int, options: Options = DEFAULT) -> int:
    check_range("DEX", dex, ABILITY_FLOOR, ABILITY_HIGH, field="dex")
    return 0 if options.dex_modifier == "none" else ability_modifier(dex)


def group_initiative_winner(first: int, second: int) -> Literal["first", "second"] | None:
    """The side with the higher 1d6 acts first; None on a tie (roll again: opencore-group-initiative-ties)."""
    for name, value in (("first side", first), ("second side", second)):
        check_range(f"the {name}'s roll", value, 1, 6)
    return higher(first, second)


@dataclass(frozen=True)
class Initiative:
    roll: int  # the 1d20
    dex_modifier: int
    speed_factor: int
    armor_penalty: int
    bide_bonus: int
    total: int


def individual_initiative(roll: int, dex: int, *, speed_factor: int = 0, armor_penalty: int = 0,
                          bide: bool = False, options: Options = DEFAULT) -> Initiative:
    """1d20 + DEX modifier + weapon speed factor + armor's initiative penalty (+20 after Bide)."""
    check_range("the initiative roll", roll, 1, 20, field="roll")
    if armor_penalty > 0:
        raise RollbookError(f"an armor penalty is zero or negative, not {armor_penalty}")
    mod = dex_modifier(dex, options)
    bonus = action_value("Bide", "initiative_bonus") if bide else 0
    return Initiative(roll, mod, speed_factor, armor_penalty, bonus, roll + mod + speed_factor + armor_penalty + bonus)


@dataclass(frozen=True)
class PartyMember:
    name: str
    initiative: Initiative
    tie_rolls: tuple[int, ...]  # 1d20s rolled again to break a tie (ruling opencore-individual-initiative-ties)


def party_order(party: Mapping[str, Initiative], reroll: Callable[[], int]) -> tuple[PartyMember, ...]:
    """The party, highest initiative first ("The highest score gets to act first"); characters who
    tie roll 1d20 again with the same modifiers, among themselves, until no tie is left."""
    tie_rolls: dict[str, list[int]] = {name: [] for name in party}

    def again(name: str) -> int:
        tie_rolls[name].append(check_range("a tie-break roll", reroll(), 1, 20))
        return tie_rolls[name][-1] + party[name].total - party[name].roll

    order = rank_with_rerolls({name: i.total for name, i in party.items()}, again)
    return tuple(PartyMember(name, party[name], tuple(tie_rolls[name])) for name in order)
