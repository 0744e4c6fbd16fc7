"""The math of the notation: the functions rpg-dice-roller takes from JavaScript's ``Math``, and
the operators, on exact values.

Values stay exact wherever they can: whole numbers, and fractions from ``/`` (which divides
exactly, as on Roll20 and in rpg-dice-roller) and from decimals (``1.45`` is 29/20). Only the
functions whose answers are irrational (``sqrt`` of a non-square, ``log``, ``exp``, ``sin``,
``cos``, ``tan``) give floats. Each function also maps an interval of inputs to the interval of
its outputs, so that the checks made before rolling (checks.py) can bound any expression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable

from rollbook.dice.tree import Value

INF = float("inf")
Interval = tuple[float, float]  # what checks.py bounds values by (floats, so that INF fits)


def tidy(x: Value) -> Value:
    """A value in its simplest form: 7/1 is 7, 2.0 is 2; a float keeps 12 significant digits, so
    that 0.1 + 0.2 and 0.3 are one total in a distribution."""
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else x
    if isinstance(x, float):
        x = float(f"{x:.12g}")
        return int(x) if math.isfinite(x) and x == int(x) else x
    return x


def tidy_sum(values: Iterable[Value]) -> Value:
    """A sum tidied after each term, as the exact distributions add: floats then round the same way."""
    total: Value = 0
    for v in values:
        total = tidy(total + v)
    return total


def divide(a: Value, b: Value) -> Value:
    """Exact division: 7/2 is 7/2 (3.5). The checks refuse any divisor that can be zero."""
    if isinstance(a, float) or isinstance(b, float):
        return tidy(a / b)
    return tidy(Fraction(a) / Fraction(b))


def modulo(a: Value, b: Value) -> Value:
    """The remainder with the divisor's sign (math.js's ``mod``, Python's ``%``): -7 % 3 is 2."""
    return tidy(a % b)


def power(a: Value, b: Value) -> Value:
    """``a ^ b``: exact for a whole exponent (2^-1 is 1/2), a float otherwise (the checks make sure
    the base cannot then be negative, nor zero under a negative exponent)."""
    if isinstance(b, int):
        return tidy(Fraction(a) ** b if not isinstance(a, float) else a**b)
    return tidy(float(a) ** float(b))


def round_half_away(x: Value) -> int:
    """rpg-dice-roller's ``round``: halves away from zero (2.5 is 3, -2.5 is -3)."""
    exact = Fraction(x)
    down = math.floor(abs(exact) + Fraction(1, 2))
    return down if exact >= 0 else -down


def _sign(x: Value) -> int:
    return (x > 0) - (x < 0)


def _sqrt(x: Value) -> Value:
    """Exact when the value is a square (sqrt(9/4) is 3/2)."""
    f = Fraction(x) if not isinstance(x, float) else None
    if f is not None:
        top, bottom = math.isqrt(f.numerator), math.isqrt(f.denominator)
        if top * top == f.numerator and bottom * bottom == f.denominator:
            return tidy(Fraction(top, bottom))
    return tidy(math.sqrt(x))


def _float(f: Callable[[float], float]) -> Callable[[Value], Value]:
    return lambda x: tidy(f(float(x)))


def _monotone(f: Callable[[float], float]) -> Callable[[Interval], Interval]:
    return lambda i: (f(i[0]), f(i[1]))


def _abs_bounds(i: Interval) -> Interval:
    lo, hi = i
    if lo >= 0:
        return lo, hi
    if hi <= 0:
        return -hi, -lo
    return 0, max(-lo, hi)


def _on_finite(f: Callable[[float], float]) -> Callable[[float], float]:
    """Rounding functions leave the infinite ends of an interval where they are."""
    return lambda x: x if x in (INF, -INF) else f(x)


@dataclass(frozen=True)
class MathFunction:
    arity: int
    apply: Callable[..., Value]
    bounds: Callable[..., Interval]  # the interval of results, from the arguments' intervals
    whole: bool  # always a whole number: floor, ceil, round, sign
    keeps_whole: bool = False  # a whole number when its arguments are: abs, max, min
    domain: str | None = None  # the inputs it refuses, said to the player: "can be negative"
    accepts: Callable[[Interval], bool] = lambda i: True  # does the argument's interval stay in the domain


def _image_max(a: Interval, b: Interval) -> Interval:
    return max(a[0], b[0]), max(a[1], b[1])


def _image_min(a: Interval, b: Interval) -> Interval:
    return min(a[0], b[0]), min(a[1], b[1])


def power_bounds(base: Interval, exponent: Interval) -> Interval:
    """The interval of ``b ^ e`` for whole exponents: the extremes lie at the corners, at the
    exponents next to the ends (odd and even), and at bases -1, 0 and 1 when inside."""
    blo, bhi = base
    elo, ehi = exponent
    bases = {blo, bhi} | {b for b in (-1.0, 0.0, 1.0) if blo <= b <= bhi}
    exps = {e for e in (elo, elo + 1, ehi - 1, ehi) if elo <= e <= ehi}
    values = []
    for b in bases:
        for e in exps:
            if b == 0 and e < 0:
                continue
            try:
                values.append(float(b) ** float(e) if b not in (INF, -INF) or e >= 0 else 0.0)
            except OverflowError:
                values.append(INF if b > 0 or e % 2 == 0 else -INF)
    return min(values), max(values)


FUNCTIONS: dict[str, MathFunction] = {
    "abs": MathFunction(1, lambda x: abs(x), _abs_bounds, whole=False, keeps_whole=True),
    "floor": MathFunction(1, lambda x: math.floor(x), _monotone(_on_finite(math.floor)), whole=True),
    "ceil": MathFunction(1, lambda x: math.ceil(x), _monotone(_on_finite(math.ceil)), whole=True),
    "round": MathFunction(1, round_half_away, _monotone(_on_finite(lambda x: float(round_half_away(x)))), whole=True),
    "sign": MathFunction(1, _sign, _monotone(lambda x: float(_sign(x))), whole=True),
    "max": MathFunction(2, lambda a, b: max(a, b), _image_max, whole=False, keeps_whole=True),
    "min": MathFunction(2, lambda a, b: min(a, b), _image_min, whole=False, keeps_whole=True),
    "pow": MathFunction(2, power, power_bounds, whole=False),
    "sqrt": MathFunction(1, _sqrt, _monotone(math.sqrt), whole=False, domain="can be negative",
                         accepts=lambda i: i[0] >= 0),
    "exp": MathFunction(1, _float(math.exp), _monotone(lambda x: math.exp(min(x, 700))), whole=False,
                        domain="can be above 700 (too large for exp)", accepts=lambda i: i[1] <= 700),
    "log": MathFunction(1, _float(math.log), _monotone(lambda x: math.log(x) if x < INF else INF), whole=False,
                        domain="can be zero or negative", accepts=lambda i: i[0] > 0),
    "sin": MathFunction(1, _float(math.sin), lambda i: (-1.0, 1.0), whole=False),
    "cos": MathFunction(1, _float(math.cos), lambda i: (-1.0, 1.0), whole=False),
    "tan": MathFunction(1, _float(math.tan), lambda i: (-INF, INF), whole=False),
}
