"""OpenCore checks: the saving throws, Awareness, Concentration and Perception with their exact
chances, and success checks by the number of dice above a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Mapping

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range
from rollbook.systems.opencore.character import D100, ability_codes, composite, composite_codes
from rollbook.systems.opencore.options import DEFAULT, Options


def _slug(name: str) -> str:
    return name.lower().replace(" ", "-")


@dataclass(frozen=True)
class CheckRule:
    """How one check is rolled: 1d100, minus an ability or not, against a target score."""

    kind: str  # "physical-toughness", "reflex", "willpower", "awareness", "concentration", "perception"
    name: str
    target: str  # the score compared with: SDAC, IPW or PER
    subtract: str | None  # ability subtracted from the roll
    succeeds: Literal["at-or-below", "at-or-above", "above"]

    def describe(self) -> str:
        roll = f"1d100 - {self.subtract}" if self.subtract else "1d100"
        words = {"at-or-below": "at or below", "at-or-above": "at or above", "above": "above"}
        return f"{roll} {words[self.succeeds]} {self.target}"


def check_rules(options: Options = DEFAULT) -> dict[str, CheckRule]:
    """The five saving throws (table opencore.saves) and Perception, under the given rulings."""
    rules: dict[str, CheckRule] = {}
    for row in tables.get("opencore.saves").rows:
        target = row["composite"]
        if row["name"] == "Willpower":
            target = options.willpower_composite
        succeeds: Literal["at-or-below", "at-or-above", "above"] = "at-or-below"
        if "subtract" in row and options.save_direction == "over":
            succeeds = "at-or-above"
        rules[_slug(row["name"])] = CheckRule(_slug(row["name"]), row["name"], target, row.get("subtract"), succeeds)
    rules["perception"] = CheckRule(
        "perception", "Perception", "PER", None, "above" if options.perception == "above" else "at-or-below"
    )
    return rules


def check_kinds() -> tuple[str, ...]:
    return tuple(check_rules())


@dataclass(frozen=True)
class CheckOdds:
    """A check before rolling: the score it is compared with and the exact chance of success."""

    rule: CheckRule
    target: int
    minus: int  # the ability subtracted from the roll (0 for none)
    chance: Fraction


@dataclass(frozen=True)
class CheckResult:
    rule: CheckRule
    roll: int  # the 1d100
    result: int  # after subtracting the ability
    target: int
    success: bool
    chance: Fraction  # of success, before rolling


def _target_score(rule: CheckRule, abilities: Mapping[str, int]) -> int:
    if rule.target in abilities:
        return abilities[rule.target]
    if rule.target in composite_codes():
        return composite(rule.target, abilities)
    raise RollbookError(f"{rule.name} needs {rule.target}")


def _succeeds(rule: CheckRule, result: int, target: int) -> bool:
    if rule.succeeds == "at-or-below":
        return result <= target
    if rule.succeeds == "at-or-above":
        return result >= target
    return result > target


def check_odds(kind: str, abilities: Mapping[str, int], options: Options = DEFAULT) -> CheckOdds:
    """What a saving throw or Perception/Awareness/Concentration check needs, and its exact chance."""
    rules = check_rules(options)
    if kind not in rules:
        raise RollbookError(f"unknown check {quoted(kind)}", hint="one of: " + ", ".join(rules))
    rule = rules[kind]
    target = _target_score(rule, abilities)
    minus = 0
    if rule.subtract:
        if rule.subtract not in abilities:
            raise RollbookError(f"{rule.name} needs {rule.subtract}", hint=rule.describe())
        minus = abilities[rule.subtract]
    chance = Fraction(sum(_succeeds(rule, r - minus, target) for r in D100), len(D100))
    return CheckOdds(rule, target, minus, chance)


def check(kind: str, abilities: Mapping[str, int], roll: int, options: Options = DEFAULT) -> CheckResult:
    """A saving throw or Perception/Awareness/Concentration check with the 1d100 ``roll``."""
    check_range("the roll", roll, 1, 100)
    odds = check_odds(kind, abilities, options)
    result = roll - odds.minus
    return CheckResult(odds.rule, roll, result, odds.target, _succeeds(odds.rule, result, odds.target), odds.chance)


def needed_abilities(kind: str, options: Options = DEFAULT) -> tuple[str, ...]:
    """The abilities a check reads (for its composite and its subtracted ability)."""
    rule = check_rules(options)[kind]
    needed: list[str] = []
    for row in tables.get("opencore.composites").rows:
        if row["code"] == rule.target:
            needed += row["abilities"]
    if rule.target in ability_codes():
        needed.append(rule.target)
    if rule.subtract and rule.subtract not in needed:
        needed.append(rule.subtract)
    return tuple(needed)


@dataclass(frozen=True)
class SuccessCount:
    rolls: tuple[int, ...]
    sides: int
    at_least: int
    needed: int
    successes: int  # dice showing at_least or more (ruling opencore-success-count)
    success: bool
    chance: Fraction  # of at least ``needed`` successes, before rolling

    @property
    def counted(self) -> tuple[bool, ...]:
        """For each die, whether it counts as a success."""
        return tuple(value >= self.at_least for value in self.rolls)


def success_count_chance(dice: int, sides: int, at_least: int, needed: int) -> Fraction:
    """P(at least ``needed`` of ``dice`` dice show ``at_least`` or more), exactly (binomial)."""
    p = Fraction(max(0, min(sides, sides - at_least + 1)), sides)
    return sum((math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(needed, dice + 1)), Fraction(0))


MOST_SUCCESS_DICE = 1000  # more dice than any table rolls for one check


def success_count(rolls: tuple[int, ...], *, sides: int, at_least: int, needed: int = 1) -> SuccessCount:
    """Count the dice showing ``at_least`` or more; the check succeeds with ``needed`` of them."""
    check_range("the die's sides", sides, 2, 1000, field="dice")
    check_range("the number of dice", len(rolls), 1, MOST_SUCCESS_DICE, field="dice")
    check_range("the number needed", needed, 1, len(rolls),
                hint="at most one success per die rolled", field="needed")
    check_range("the number each die must reach", at_least, 1, sides, hint=f"a d{sides} shows 1 to {sides}", field="at_least")
    for position, value in enumerate(rolls, 1):
        check_range(f"die number {position}", value, 1, sides, field="rolls")
    counted = SuccessCount(rolls, sides, at_least, needed, 0, False, Fraction(0)).counted
    successes = sum(counted)
    return SuccessCount(rolls, sides, at_least, needed, successes, successes >= needed,
                        success_count_chance(len(rolls), sides, at_least, needed))
