"""Ogre CharacterCodex (seed 001): the d20 skill check with open-ended 1s and 20s, automatic
success and failure, total success and failure ranks, taking 10 / 10+ / 20, rounding and
multipliers.

The chance of every outcome is exact (fractions) and computed in closed form over the whole
infinite open-ended chain, so nothing is truncated: see :func:`chain_at_least`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal

from rollbook import tables
from rollbook.errors import RollbookError, quoted
from rollbook.systems import check_range, roll_total

Take = Literal["10", "10+", "20"]
TAKES: tuple[Take, ...] = ("10", "10+", "20")
SIDES = 20
TAKE_10_FLOOR = 10
TOTAL_SUCCESS_RANK = 2  # beating the DC twice
TAKE_20_TIME = 20  # "Taking 20 takes twenty times as long as making a single check would take."
# "Distractions or threats (such as combat) make it impossible for a character to take 10", and to
# take 20 ("you are faced with no threats or distractions"): the takes that ask ``safe`` (take 10+
# is a feat's or CP's, with no such condition)
SAFE_TAKES: tuple[Take, ...] = ("10", "20")
# "if you did attempt to take 20 on a skill that carries penalties for failure, your character would
# automatically incur those penalties": the takes that read ``failure_has_cost``
COSTLY_TAKES: tuple[Take, ...] = ("20",)
RANKS_SHOWN = 8  # rank lists end with an "or more" entry after this many
LARGEST = 1000  # modifiers and DCs beyond this are typos, and would make exact odds enormous fractions
_D = Fraction(1, SIDES)


# --- the exact distribution of the open-ended die ----------------------------------------------


def chain_at_least(s: int) -> Fraction:
    """P(U >= s) for the upward chain U: a d20 that adds another d20 on every 20.

    U takes the value 20k + r (r = 1..19) with probability 20^-(k+1). Writing s - 1 = 20k + r
    with 0 <= r <= 19, the values >= s are the 19 - r top faces of block k (each 20^-(k+1)) plus
    every later block (together 20^-(k+1)), so P(U >= s) = (20 - r) / 20^(k+1).
    """
    if s <= 1:
        return Fraction(1)
    k, r = divmod(s - 1, SIDES)
    return Fraction(SIDES - r, SIDES ** (k + 1))


def die_at_least(t: int, take: Take | None = None) -> Fraction:
    """P(D >= t) for the check's die D (before the modifier), exactly.

    Natural 2..19 count as rolled; a natural 20 adds the chain U; a natural 1 subtracts it
    (ruling codex-open-ended-dice). With take 10+, naturals under 10 count as 10 and only the 20
    is open-ended (ruling codex-take-10-plus-open-ended). Taking 10 or 20 rolls nothing.
    """
    if take in ("10", "20"):
        return Fraction(int(int(take) >= t))
    plain = range(TAKE_10_FLOOR, SIDES) if take == "10+" else range(2, SIDES)
    p = Fraction(sum(1 for face in plain if face >= t), SIDES)
    p += _D * chain_at_least(t - SIDES)  # natural 20: 20 + U >= t
    if take == "10+":
        p += Fraction(TAKE_10_FLOOR - 1, SIDES) * int(TAKE_10_FLOOR >= t)  # naturals 1..9 count as 10
    else:
        p += _D * (1 - chain_at_least(2 - t))  # natural 1: 1 - U >= t  <=>  U <= 1 - t
    return p


def total_at_least(total: int, modifier: int, take: Take | None = None) -> Fraction:
    """P(d20 result + modifier >= total)."""
    return die_at_least(total - modifier, take)


# --- ranks ------------------------------------------------------------------------------------


def success_rank(total: int, dc: int) -> int:
    """How many times the total beats the DC: total // DC (ruling codex-total-success-rank).

    A rank of 2 or more is a total success; 0 when DC <= 0 (no total success) or the check failed.
    """
    if dc <= 0 or total < dc:
        return 0
    return total // dc


def failure_rank(total: int) -> int:
    """The negative of a total below 0; 0 otherwise (ruling codex-total-failure-rank)."""
    return -total if total < 0 else 0


@dataclass(frozen=True)
class RankChance:
    rank: int
    chance: Fraction
    or_more: bool  # the last entry counts this rank and every higher one


@dataclass(frozen=True)
class Chances:
    """Exact chances of a check's outcomes, known before rolling."""

    success: Fraction
    total_success: Fraction  # rank >= 2
    total_failure: Fraction  # total below 0
    success_ranks: tuple[RankChance, ...]
    failure_ranks: tuple[RankChance, ...]


def _ranks(at_least: Iterable[tuple[int, Fraction]]) -> tuple[RankChance, ...]:
    """Per-rank chances from (rank, P(rank >= it)) pairs, ending in an "or more" entry."""
    pairs = list(at_least)
    out: list[RankChance] = []
    for (rank, p), (_, p_next) in zip(pairs, pairs[1:]):
        if p == 0:
            break
        out.append(RankChance(rank, p - p_next, False))
    last_rank, last_p = pairs[-1]
    if last_p > 0:
        out.append(RankChance(last_rank, last_p, True))
    return tuple(out)


def chances(modifier: int, dc: int, take: Take | None = None) -> Chances:
    """The exact chance of success, of total success and failure, and of each of their ranks."""
    check_range("the modifier", modifier, -LARGEST, LARGEST)
    check_range("the DC", dc, -LARGEST, LARGEST)
    success = total_at_least(dc, modifier, take)
    ranks = range(TOTAL_SUCCESS_RANK, TOTAL_SUCCESS_RANK + RANKS_SHOWN)
    if dc > 0:
        success_at_least = [(r, total_at_least(r * dc, modifier, take)) for r in ranks]
    else:
        success_at_least = [(r, Fraction(0)) for r in ranks]
    failure_at_least = [(q, 1 - total_at_least(-q + 1, modifier, take)) for q in range(1, 1 + RANKS_SHOWN)]
    return Chances(
        success=success,
        total_success=success_at_least[0][1],
        total_failure=failure_at_least[0][1],
        success_ranks=_ranks(success_at_least),
        failure_ranks=_ranks(failure_at_least),
    )


# --- the check --------------------------------------------------------------------------------


def die_value(dice: tuple[int, ...], take: Take | None = None) -> int:
    """The check's die from the d20s rolled in order (the first is the natural roll).

    Raises a RollbookError when the dice do not form a chain: a natural 20 (or, without take 10+,
    a natural 1) needs another die, and so does every extra 20; nothing else may follow.
    """
    if take in ("10", "20"):
        if dice:
            raise RollbookError(f"taking {take} rolls no dice", hint="leave out the rolls", fields=("dice", "take"))
        return int(take)
    if not dice:
        raise RollbookError("a check needs at least one d20", fields=("dice",))
    for position, value in enumerate(dice, 1):
        if not 1 <= value <= SIDES:
            raise RollbookError(f"d20 number {position} cannot show {value}", hint="a d20 shows 1 to 20", fields=("dice",))
    natural, extra = dice[0], dice[1:]
    opens_down = natural == 1 and take != "10+"
    opens = natural == SIDES or opens_down
    needed = 1 if opens else 0
    for value in extra[:-1]:
        if value != SIDES:
            break
        needed += 1
    if len(extra) != needed:
        what = "no more dice" if not opens else "one more d20 after the 1 or 20, and one after every 20"
        raise RollbookError(f"these dice do not form one check: {', '.join(map(str, dice))}", hint=f"a check takes {what}",
                            fields=("dice",))
    if opens and extra[-1] == SIDES:
        raise RollbookError("the last d20 shows 20, so the chain goes on", hint="add the next d20", fields=("dice",))
    chain = sum(extra)
    if natural == SIDES:
        return SIDES + chain
    if opens_down:
        return 1 - chain
    return max(natural, TAKE_10_FLOOR) if take == "10+" else natural


def roll_dice(rng: random.Random, take: Take | None = None) -> tuple[int, ...]:
    """Roll the d20 chain a check needs (nothing when taking 10 or 20)."""
    if take in ("10", "20"):
        return ()
    dice = [roll_total("1d20", rng)]
    opens = dice[0] == SIDES or (dice[0] == 1 and take != "10+")
    while opens:
        dice.append(roll_total("1d20", rng))
        opens = dice[-1] == SIDES
    return tuple(dice)


Automatic = Literal["success", "failure"]

# What an outcome means for the check, in the document's words.
MEANINGS = {
    "success": "If the result equals or exceeds the DC, your character succeeds.",
    "failure": "If the result is lower than the DC, you fail.",
    "total success": ("You have done your action extraordinarily well and some positive events may happen. When "
                      "fighting an opponent, you may hurt him more than expected. The result of a total success is "
                      "described for most skills."),
    "total failure": ("You have failed miserably your action and something wrong happens. You may have broken your "
                      "tools to open a lock or opened your defense in a combat. The result of a total failure is "
                      "described for most skills."),
}
THREATENED = "Distractions or threats (such as combat) make it impossible for a character to take {take}"
PENALTIES_INCURRED = ("Taking 20 assumes the character fails many times before succeeding: on a skill that carries "
                      "penalties for failure, the character incurs those penalties before completing the task.")


@dataclass(frozen=True)
class Check:
    modifier: int
    dc: int
    take: Take | None
    dice: tuple[int, ...]  # the d20s in order; empty when taking 10/20 or automatic
    total: int | None  # None for an automatic result
    success: bool
    automatic: Automatic | None
    impossible_on_20: bool  # modifier + 20 < DC: the GM may rule automatic failure
    success_rank: int  # >= 2 is a total success
    failure_rank: int  # >= 1 is a total failure
    chances: Chances
    time_multiplier: int  # taking 20 takes twenty times as long as one check
    penalties_incurred: bool  # took 20 on a skill where failure has a cost: its penalties happen first

    @property
    def outcome(self) -> str:
        """success, failure, total success or total failure (a key of MEANINGS)."""
        if self.success_rank >= TOTAL_SUCCESS_RANK:
            return "total success"
        if self.failure_rank:
            return "total failure"
        return "success" if self.success else "failure"


def can_succeed_automatically(modifier: int, dc: int) -> bool:
    """Automatic success may be chosen when the modifier equals or exceeds the DC."""
    return modifier >= dc


def impossible_on_20(modifier: int, dc: int) -> bool:
    """A natural 20 (without its extra dice) would fail (ruling codex-automatic-failure)."""
    return modifier + SIDES < dc


TakeConditions = Literal["asked", "trusted"]


def check(modifier: int, dc: int, dice: tuple[int, ...], *, take: Take | None = None, automatic: bool = False,
          impossible_fails: bool = False, safe: bool = False, failure_has_cost: bool = False,
          take_conditions: TakeConditions = "asked") -> Check:
    """Resolve a skill check: d20 (open-ended) + modifier vs DC, or an automatic result.

    Taking 10 or 20 needs ``safe`` (not threatened or distracted) unless the table keeps that
    condition itself (ruling codex-take-conditions; option take_conditions=trusted); taking 20 on a
    skill whose failure has a cost (``failure_has_cost``) incurs that cost first. An automatic
    success has no rank (ruling codex-automatic-success-no-rank)."""
    if take is not None and take not in TAKES:
        raise RollbookError(f"cannot take {quoted(take)}", hint="take 10, 10+ or 20", fields=("take",))
    if take in SAFE_TAKES and not safe and take_conditions == "asked":
        raise RollbookError(THREATENED.format(take=take),
                            hint="if the character is not threatened or distracted, say so; otherwise roll",
                            fields=("take", "safe"))
    odds = chances(modifier, dc, take)
    hopeless = impossible_on_20(modifier, dc)
    if automatic and take is not None:
        raise RollbookError(f"automatic success and taking {take} are two ways to skip the roll", hint="choose one",
                            fields=("automatic", "take"))
    if dice and (automatic or (impossible_fails and hopeless)):
        reason = "automatic success" if automatic else "automatic failure (a 20 could not succeed)"
        raise RollbookError(f"{reason} rolls no dice", hint="leave out the rolls", fields=("dice",))
    time = TAKE_20_TIME if take == "20" else 1
    incurred = take in COSTLY_TAKES and failure_has_cost
    if automatic:
        if not can_succeed_automatically(modifier, dc):
            raise RollbookError(f"automatic success needs a modifier of at least the DC ({modifier} < {dc})",
                                hint="roll the check instead", fields=("automatic", "modifier"))
        one = Chances(Fraction(1), Fraction(0), Fraction(0), (), ())
        return Check(modifier, dc, take, (), None, True, "success", hopeless, 0, 0, one, time, incurred)
    if impossible_fails and hopeless:
        none = Chances(Fraction(0), Fraction(0), Fraction(0), (), ())
        return Check(modifier, dc, take, (), None, False, "failure", hopeless, 0, 0, none, time, incurred)
    total = die_value(dice, take) + modifier
    return Check(modifier, dc, take, dice, total, total >= dc, None, hopeless,
                 success_rank(total, dc), failure_rank(total), odds, time, incurred)


def dc_for(complexity: str) -> int:
    """The guideline DC for a complexity (table codex.dc), e.g. ``tough`` -> 15."""
    rows = tables.get("codex.dc").rows
    for row in rows:
        if row["complexity"].lower() == complexity.strip().lower():
            return row["dc"]
    raise RollbookError(f"unknown complexity {quoted(complexity)}", hint="one of: " + ", ".join(r["complexity"] for r in rows),
                        fields=("complexity",))


# --- rounding and multiplying -------------------------------------------------------------------


def round_down(value: Fraction, *, minimum: int | None = None) -> int:
    """Round down, even one-half or more; some rolls (damage) have a minimum of 1."""
    result = math.floor(value)
    return result if minimum is None else max(minimum, result)


def combine_multipliers(multipliers: Iterable[Fraction | int], *, real_world: bool = False) -> Fraction:
    """One multiple from several: each extra multiple adds 1 less than its value (x2 and x2 make x3).

    Real-world values (weight, distance) multiply normally (x8 and x3 make x24).
    """
    values = [Fraction(m) for m in multipliers]
    for value in values:
        if value <= 0:
            raise RollbookError(f"a multiplier must be more than 0, not {value}", hint="e.g. 2 for a double")
    if not values:
        return Fraction(1)
    if real_world:
        return math.prod(values, start=Fraction(1))
    return values[0] + sum(m - 1 for m in values[1:])
