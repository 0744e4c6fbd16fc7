"""Distributions as integer weights over one common denominator (``Weights``), and the arithmetic
on them: sums of dice are polynomial products, done by Kronecker substitution (each polynomial
packed into one big integer, so CPython's C multiplication convolves them), and ``N`` identical
dice are one ``pow``. Never a Fraction per outcome. ``meter`` counts the work of the current
distribution (see limits.MAX_WORK)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from rollbook.dice import limits
from rollbook.dice.errors import DiceLimitError
from rollbook.dice.functions import tidy
from rollbook.dice.tree import Value


@dataclass(frozen=True)
class Weights:
    """``weights[v] / denominator`` is P(v); the weights may sum to less than the denominator
    (the neglected tail of an infinite chain)."""

    weights: dict[Any, int]  # Value -> weight: whole numbers for dice, fractions or floats after '/' and functions
    denominator: int

    @property
    def mass(self) -> int:
        return sum(self.weights.values())

    def scaled_by(self, weight: int, denominator: int) -> Weights:
        """Times the probability ``weight / denominator`` (of an independent single outcome)."""
        if weight == denominator == 1:
            return self
        return Weights({v: w * weight for v, w in self.weights.items()}, self.denominator * denominator)


class Meter:
    """Work done for the current distribution, charged by every costly step (see limits.MAX_WORK)."""

    def __init__(self) -> None:
        self.used = 0

    def charge(self, units: int) -> None:
        self.used += units
        if self.used > limits.MAX_WORK:
            raise DiceLimitError("this exact distribution would take too long to compute",
                                 hint="use fewer or smaller dice")


meter = Meter()


def constant(v: Value) -> Weights:
    return Weights({v: 1}, 1)


def is_whole(w: Weights) -> bool:
    return all(type(v) is int for v in w.weights)


# A polynomial sum(c_i x^i) with non-negative coefficients below 10**width is the number
# sum(c_i 10**(width*i)): multiplying the numbers multiplies the polynomials. Large products go
# through the C ``decimal`` module, whose number-theoretic transform beats int's Karatsuba by
# 4-8x at these sizes; small ones through plain ints.
try:
    import _decimal  # noqa: F401  (the C implementation; the pure-Python one would be slow)
    import decimal

    _CONTEXT: decimal.Context | None = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX,
                                                       Emin=decimal.MIN_EMIN)
except ImportError:  # pragma: no cover - every CPython and Pyodide build has _decimal
    _CONTEXT = None


_DECIMAL_ABOVE = 20_000  # digits in the result from which decimal is faster than int


def weight_digits(bound: int) -> int:
    """Decimal digits per packed coefficient when no coefficient exceeds ``bound``."""
    return bound.bit_length() * 30103 // 100000 + 2  # log10(2) = 0.30103; never str() a huge int


def check_cells(span: int, width: int) -> None:
    limits.check_outcomes(span)
    if span * width > limits.MAX_WEIGHT_DIGITS:
        raise DiceLimitError(
            f"this exact distribution is too large to compute quickly ({span:,} totals with "
            f"{width:,}-digit weights)", hint="use fewer or smaller dice")


def dense(weights: dict[int, int], lo: int, hi: int) -> list[int]:
    get = weights.get
    return [get(v, 0) for v in range(lo, hi + 1)]


def _pack_int(coeffs: list[int], nbytes: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(nbytes, "little") for c in coeffs), "little")


def unpack_int(x: int, span: int, nbytes: int) -> list[int]:
    raw = x.to_bytes(span * nbytes, "little")
    frombytes = int.from_bytes
    return [frombytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(span)]


def _pack_dec(coeffs: list[int], width: int) -> decimal.Decimal:
    return decimal.Decimal("".join(str(c).zfill(width) for c in reversed(coeffs)))


def _unpack_dec(x: decimal.Decimal, span: int, width: int) -> list[int]:
    digits = format(x, "f").zfill(span * width)
    n = len(digits)
    return [int(digits[n - (i + 1) * width:n - i * width]) for i in range(span)]


def _convolve(a: list[int], b: list[int], bound: int) -> list[int]:
    """The product of two polynomials whose product's coefficients are at most ``bound``."""
    span = len(a) + len(b) - 1
    width = weight_digits(bound)
    meter.charge(span * width)
    if _CONTEXT is not None and span * width > _DECIMAL_ABOVE:
        return _unpack_dec(_CONTEXT.multiply(_pack_dec(a, width), _pack_dec(b, width)), span, width)
    nbytes = weight_bytes(bound)
    return unpack_int(_pack_int(a, nbytes) * _pack_int(b, nbytes), span, nbytes)


def poly_power(a: list[int], n: int, bound: int) -> list[int]:
    span = (len(a) - 1) * n + 1
    width = weight_digits(bound)
    if _CONTEXT is not None and span * width > _DECIMAL_ABOVE:
        # squarings of ever larger numbers: the last one costs most, about 40-45 ns a digit of the
        # result in all (measured for 16 to 264 as the power)
        meter.charge(span * width * 2)
        return _unpack_dec(_CONTEXT.power(_pack_dec(a, width), n), span, width)
    meter.charge(span * width)
    nbytes = weight_bytes(bound)
    return unpack_int(_pack_int(a, nbytes) ** n, span, nbytes)


def weight_bytes(bound: int) -> int:
    return (bound.bit_length() + 8) // 8


def sparse(coeffs: list[int], lo: int) -> dict[int, int]:
    return {lo + i: c for i, c in enumerate(coeffs) if c}


def add(a: Weights, b: Weights) -> Weights:
    """The distribution of a sum of two independent values: a convolution."""
    if len(a.weights) == 1 or len(b.weights) == 1:
        (one, other) = (a, b) if len(a.weights) == 1 else (b, a)
        ((k, w),) = one.weights.items()
        return Weights({tidy(v + k): x * w for v, x in other.weights.items()}, a.denominator * b.denominator)
    if not (is_whole(a) and is_whole(b)):  # fractions: pair by pair (the packed product needs whole totals)
        return pairwise(a, b, lambda x, y: tidy(x + y))
    alo, ahi = min(a.weights), max(a.weights)
    blo, bhi = min(b.weights), max(b.weights)
    span = ahi - alo + bhi - blo + 1
    width = weight_digits(a.mass * b.mass)
    if span * width <= limits.MAX_WEIGHT_DIGITS:
        limits.check_outcomes(span)
        coeffs = _convolve(dense(a.weights, alo, ahi), dense(b.weights, blo, bhi), a.mass * b.mass)
        return Weights(sparse(coeffs, alo + blo), a.denominator * b.denominator)
    return pairwise(a, b, lambda x, y: x + y)  # sparse values far apart


def pairwise(a: Weights, b: Weights, op: Callable[[Value, Value], Value]) -> Weights:
    """Any operation on two independent values, outcome pair by outcome pair (sparse inputs)."""
    if len(b.weights) == 1:  # by a constant: one pass
        ((k, wk),) = b.weights.items()
        return map_values(a, lambda v: op(v, k)).scaled_by(wk, b.denominator)
    if len(a.weights) == 1:
        ((k, wk),) = a.weights.items()
        return map_values(b, lambda v: op(k, v)).scaled_by(wk, a.denominator)
    pairs = len(a.weights) * len(b.weights)
    meter.charge(pairs * 8)  # about 0.3 us a pair
    if pairs > limits.MAX_PRODUCT_PAIRS:
        raise limits.too_many("pairs of outcomes combined in one exact distribution", limits.MAX_PRODUCT_PAIRS,
                               hint=f"this needs {pairs:,}")
    out: dict[Value, int] = {}
    bw = list(b.weights.items())
    for x, wx in a.weights.items():
        for y, wy in bw:
            v = op(x, y)
            out[v] = out.get(v, 0) + wx * wy
    limits.check_outcomes(len(out))
    return Weights(out, a.denominator * b.denominator)


def repeat_sum(a: Weights, n: int) -> Weights:
    """The sum of ``n`` independent copies of ``a``: one big-integer power."""
    if n == 0:
        return constant(0)
    if n == 1:
        return a
    if len(a.weights) == 1:
        ((k, w),) = a.weights.items()
        return Weights({k * n: w**n}, a.denominator**n)
    lo, hi = min(a.weights), max(a.weights)
    span = (hi - lo) * n + 1
    bound = a.mass**n
    check_cells(span, weight_digits(bound))
    return Weights(sparse(poly_power(dense(a.weights, lo, hi), n, bound), lo * n), a.denominator**n)


def negate(a: Weights) -> Weights:
    return Weights({-v: w for v, w in a.weights.items()}, a.denominator)


def map_values(a: Weights, f: Callable[[Value], Value]) -> Weights:
    out: dict[Value, int] = {}
    for v, w in a.weights.items():
        k = f(v)
        out[k] = out.get(k, 0) + w
    return Weights(out, a.denominator)


def mix(parts: list[tuple[int, Weights]], denominator: int) -> Weights:
    """``sum(weight * part) / denominator``: a choice among distributions (computed counts, sides)."""
    common = 1
    for _, part in parts:
        common = common * part.denominator // math.gcd(common, part.denominator)
    out: dict[Value, int] = {}
    meter.charge(sum(len(part.weights) for _, part in parts) * (weight_digits(common) // 10 + 5))
    for weight, part in parts:
        factor = weight * (common // part.denominator)
        for v, w in part.weights.items():
            out[v] = out.get(v, 0) + w * factor
    return Weights(out, common * denominator)


def mixture(parts: list[tuple[Fraction, Weights]]) -> Weights:
    """``sum(p * part)``: the law of a value that follows ``part`` with chance ``p``; the chances
    may add up to less than 1 (a chain cut short), and what is missing is the residual."""
    common = math.lcm(*(p.denominator * w.denominator for p, w in parts))
    out: dict[Value, int] = {}
    meter.charge(sum(len(w.weights) for _, w in parts) * (weight_digits(common) // 10 + 5))
    for p, part in parts:
        factor = p.numerator * (common // (p.denominator * part.denominator))
        for v, w in part.weights.items():
            out[v] = out.get(v, 0) + w * factor
    return Weights(out, common)


def disjoint_sum(a: Weights, b: Weights) -> Weights:
    """Two disjoint parts of one distribution, brought to a common denominator."""
    common = a.denominator * b.denominator // math.gcd(a.denominator, b.denominator)
    fa, fb = common // a.denominator, common // b.denominator
    out = {v: w * fa for v, w in a.weights.items()}
    for v, w in b.weights.items():
        out[v] = out.get(v, 0) + w * fb
    return Weights(out, common)


def split(roll: Weights, test: Callable[[int], bool]) -> tuple[Weights, Weights]:
    yes = {v: w for v, w in roll.weights.items() if test(v)}
    no = {v: w for v, w in roll.weights.items() if not test(v)}
    return Weights(yes, roll.denominator), Weights(no, roll.denominator)


def shifted(a: Weights, k: int) -> Weights:
    return Weights({v + k: w for v, w in a.weights.items()}, a.denominator)


Pool = list[tuple[Weights, int]]  # kinds of dice: each one's law, and how many of it are rolled
