"""Checks made once, after parsing and before any die is rolled.

Everything that could go wrong while rolling is found here instead, so a valid expression never
fails on an unlucky roll: a count that could be negative, a divisor that could be zero, a
reroll that matches every face, an explosion that would never stop, too many dice.
Bounds are intervals (``INF`` for explosions and open-ended rolls).
"""

from __future__ import annotations

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.errors import DiceError
from rollbook.dice.tree import Chain, Dice, Expression, Group, Keep, Negate, Node, Number, Parens

INF = float("inf")
Bounds = tuple[float, float]
MAX_SIDES_SPAN = 100  # computed sides with conditions are checked one by one, for at most this many sizes


def check(expr: Expression) -> Bounds:
    """Raise DiceError for anything that cannot be rolled; return the bounds of the total."""
    return bounds(expr.root, _DiceCounter())


def check_rolls(expr: Expression) -> tuple[int, float]:
    """``check``, and the fewest and the most dice one roll of it can roll (``INF`` when rerolls
    or explosions leave the most open): what limits.Budget.plan needs before rolling."""
    counter = _DiceCounter()
    bounds(expr.root, counter)
    return counter.least, counter.most


class _DiceCounter:
    def __init__(self) -> None:
        self.total = 0  # dice written (each term's largest count)
        self.least = 0  # dice rolled, at the fewest
        self.most: float = 0  # dice rolled, at the most

    def add(self, n: float, column: int) -> None:
        self.total += int(n)
        limits.check_dice(self.total, column or None)

    def rolls(self, fewest: int, most: int, each: float) -> None:
        """A term of ``fewest`` to ``most`` dice, each rolled up to ``each`` times."""
        self.least += fewest
        self.most += _mul(most, each)


def _mul(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b


def _floordiv(a: float, b: float) -> float:
    if a in (INF, -INF):
        return a if b > 0 else -a
    if b in (INF, -INF):
        return 0 if (a >= 0) == (b > 0) else -1
    return a // b


def bounds(node: Node, counter: _DiceCounter) -> Bounds:
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Parens):
        return bounds(node.inner, counter)
    if isinstance(node, Negate):
        lo, hi = bounds(node.operand, counter)
        return -hi, -lo
    if isinstance(node, Chain):
        lo, hi = bounds(node.first, counter)
        for (op, operand), column in zip(node.rest, node.columns or [0] * len(node.rest)):
            blo, bhi = bounds(operand, counter)
            if op == "+":
                lo, hi = lo + blo, hi + bhi
            elif op == "-":
                lo, hi = lo - bhi, hi - blo
            elif op == "*":
                corners = [_mul(x, y) for x in (lo, hi) for y in (blo, bhi)]
                lo, hi = min(corners), max(corners)
            else:
                if blo <= 0 <= bhi:
                    what = "is zero" if blo == bhi == 0 else f"can be zero (it ranges from {_show(blo)} to {_show(bhi)})"
                    raise DiceError(f"the divisor {what}", column=column or None,
                                    hint="divide by something that cannot be 0")
                corners = [_floordiv(x, y) for x in (lo, hi) for y in (blo, bhi)]
                lo, hi = min(corners), max(corners)
        return lo, hi
    if isinstance(node, Dice):
        return _dice_bounds(node, counter)
    if isinstance(node, Group):
        items = [bounds(i, counter) for i in node.items]
        if node.success is not None:
            return 0, len(items)
        los = sorted(b[0] for b in items)
        his = sorted(b[1] for b in items)
        if node.keep is None:
            return sum(los), sum(his)
        kept = kept_count(node.keep, len(items))
        if node.keep.mode in ("kh", "dl"):
            return sum(los[len(los) - kept:]), sum(his[len(his) - kept:])
        return sum(los[:kept]), sum(his[:kept])
    raise TypeError(node)


def _show(x: float) -> str:
    return "any size" if x in (INF, -INF) else str(int(x))


def kept_count(keep: Keep, n: int) -> int:
    """How many of ``n`` dice (or group items) a keep/drop leaves."""
    if keep.mode in ("kh", "kl"):
        return min(keep.count, n)
    return max(n - keep.count, 0)


def finite(node: Node, counter: _DiceCounter, what: str, column: int) -> tuple[int, int]:
    lo, hi = bounds(node, counter)
    if lo in (INF, -INF) or hi in (INF, -INF):
        raise DiceError(f"the {what} must have a limit, so it cannot explode or be open-ended", column=column or None)
    return int(lo), int(hi)


def _dice_bounds(d: Dice, counter: _DiceCounter) -> Bounds:
    column = d.column
    cmin, cmax = finite(d.count, counter, "number of dice", column)
    if cmin < 0:
        what = f"cannot roll {cmin} dice" if cmin == cmax else f"the number of dice can be negative (as low as {cmin})"
        raise DiceError(what, column=column or None, hint="roll 0 or more dice")
    counter.add(cmax, column)
    counter.rolls(cmin, cmax, _rolls_per_die(d))
    if isinstance(d.sides, str):
        F.validate(d, d.sides)
        values = _roll_values(d, d.sides)
    else:
        smin, smax = finite(d.sides, counter, "number of sides", column)
        if smin < 1 and smin != smax:
            raise DiceError(f"the number of sides can be below 1 (as low as {smin})", column=column or None)
        limits.check_sides(smax, column or None)
        if smin == smax or d.reroll or d.explode or d.open_ended:
            if smax - smin > MAX_SIDES_SPAN:
                raise DiceError(f"computed sides with rerolls, explosions or open ends may vary by at most "
                                f"{MAX_SIDES_SPAN} (here {smin} to {smax})", column=column or None)
            values = []
            for s in range(smin, smax + 1):
                F.validate(d, s)
                values.extend(_roll_values(d, s))
        else:
            values = [F.clamp(d, 1), F.clamp(d, smax)]
    vlo, vhi = min(values), max(values)
    lo: float = vlo
    hi: float = vhi
    if d.explode:
        hi = INF
        if vlo - (1 if d.explode.kind == "!p" else 0) < 0:
            lo = -INF
    if d.open_ended:
        lo = -INF if d.open_ended.ends in ("both", "low") else lo
        hi = INF if d.open_ended.ends in ("both", "high") else hi
    nmin, nmax = cmin, cmax
    if d.keep is not None:
        nmin, nmax = kept_count(d.keep, cmin), kept_count(d.keep, cmax)
    if d.success is not None:
        per_die_max = INF if d.explode and d.explode.kind != "!!" else 1
        return 0, _mul(nmax, per_die_max)
    return min(_mul(nmin, lo), _mul(nmax, lo)), max(_mul(nmin, hi), _mul(nmax, hi))


def _rolls_per_die(d: Dice) -> float:
    """The most times one die of the term is rolled: 'ro' twice; 'r', '!' and 'oe' open-ended."""
    if d.explode or d.open_ended or (d.reroll and not d.reroll.once):
        return INF
    return 2 if d.reroll else 1


def _roll_values(d: Dice, sides: int | str) -> list[int]:
    return list(F.roll_weights(d, F.faces_of(sides)))
