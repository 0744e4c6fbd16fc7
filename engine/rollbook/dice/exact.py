"""Exact probability distributions of dice expressions, as fractions.

Internally a distribution is integer weights over one common denominator (``Weights``), never a
Fraction per outcome: sums of dice are polynomial products, done by Kronecker substitution
(each polynomial packed into one big integer, so CPython's C multiplication convolves them), and
``N`` identical dice are one ``pow``. Keep/drop uses order statistics: a pass over the faces
from the highest down, tracking how many dice are already placed above — never the ``S**N``
outcomes. Explosions and open-ended rolls are infinite; their chains are cut where the
neglected probability is below 1e-12, and that mass is reported as ``residual``.
"""

from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Callable

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.checks import _DiceCounter, bounds, kept_range, pool_offset, pool_terms
from rollbook.dice.errors import DiceLimitError
from rollbook.dice.functions import FUNCTIONS, divide, modulo, power, tidy, tidy_sum
from rollbook.dice.tree import Chain, Condition, Dice, Expression, Function, Group, Keep, Match, Negate, Node, Number, Parens, Value

TOLERANCE = Fraction(1, 10**12)  # the most probability an expression may neglect
MAX_CHAIN_LEVELS = 200


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


class _Meter:
    """Work done for the current distribution, charged by every costly step (see limits.MAX_WORK)."""

    def __init__(self) -> None:
        self.used = 0

    def charge(self, units: int) -> None:
        self.used += units
        if self.used > limits.MAX_WORK:
            raise DiceLimitError("this exact distribution would take too long to compute",
                                 hint="use fewer or smaller dice")


_meter = _Meter()


def constant(v: Value) -> Weights:
    return Weights({v: 1}, 1)


def _whole(w: Weights) -> bool:
    return all(type(v) is int for v in w.weights)


# --- Kronecker substitution ---------------------------------------------------------------------
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


def _width(bound: int) -> int:
    """Decimal digits per packed coefficient when no coefficient exceeds ``bound``."""
    return bound.bit_length() * 30103 // 100000 + 2  # log10(2) = 0.30103; never str() a huge int


def _check_cells(span: int, width: int) -> None:
    limits.check_outcomes(span)
    if span * width > limits.MAX_WEIGHT_DIGITS:
        raise DiceLimitError(
            f"this exact distribution is too large to compute quickly ({span:,} totals with "
            f"{width:,}-digit weights)", hint="use fewer or smaller dice")


def _dense(weights: dict[int, int], lo: int, hi: int) -> list[int]:
    get = weights.get
    return [get(v, 0) for v in range(lo, hi + 1)]


def _pack_int(coeffs: list[int], nbytes: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(nbytes, "little") for c in coeffs), "little")


def _unpack_int(x: int, span: int, nbytes: int) -> list[int]:
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
    width = _width(bound)
    _meter.charge(span * width)
    if _CONTEXT is not None and span * width > _DECIMAL_ABOVE:
        return _unpack_dec(_CONTEXT.multiply(_pack_dec(a, width), _pack_dec(b, width)), span, width)
    nbytes = _nbytes(bound)
    return _unpack_int(_pack_int(a, nbytes) * _pack_int(b, nbytes), span, nbytes)


def _power(a: list[int], n: int, bound: int) -> list[int]:
    span = (len(a) - 1) * n + 1
    width = _width(bound)
    if _CONTEXT is not None and span * width > _DECIMAL_ABOVE:
        # squarings of ever larger numbers: the last one costs most, about 40-45 ns a digit of the
        # result in all (measured for 16 to 264 as the power)
        _meter.charge(span * width * 2)
        return _unpack_dec(_CONTEXT.power(_pack_dec(a, width), n), span, width)
    _meter.charge(span * width)
    nbytes = _nbytes(bound)
    return _unpack_int(_pack_int(a, nbytes) ** n, span, nbytes)


def _nbytes(bound: int) -> int:
    return (bound.bit_length() + 8) // 8


def _sparse(coeffs: list[int], lo: int) -> dict[int, int]:
    return {lo + i: c for i, c in enumerate(coeffs) if c}


def add(a: Weights, b: Weights) -> Weights:
    """The distribution of a sum of two independent values: a convolution."""
    if len(a.weights) == 1 or len(b.weights) == 1:
        (one, other) = (a, b) if len(a.weights) == 1 else (b, a)
        ((k, w),) = one.weights.items()
        return Weights({tidy(v + k): x * w for v, x in other.weights.items()}, a.denominator * b.denominator)
    if not (_whole(a) and _whole(b)):  # fractions: pair by pair (the packed product needs whole totals)
        return _pairwise(a, b, lambda x, y: tidy(x + y))
    alo, ahi = min(a.weights), max(a.weights)
    blo, bhi = min(b.weights), max(b.weights)
    span = ahi - alo + bhi - blo + 1
    width = _width(a.mass * b.mass)
    if span * width <= limits.MAX_WEIGHT_DIGITS:
        limits.check_outcomes(span)
        coeffs = _convolve(_dense(a.weights, alo, ahi), _dense(b.weights, blo, bhi), a.mass * b.mass)
        return Weights(_sparse(coeffs, alo + blo), a.denominator * b.denominator)
    return _pairwise(a, b, lambda x, y: x + y)  # sparse values far apart


def _pairwise(a: Weights, b: Weights, op: Callable[[Value, Value], Value]) -> Weights:
    """Any operation on two independent values, outcome pair by outcome pair (sparse inputs)."""
    if len(b.weights) == 1:  # by a constant: one pass
        ((k, wk),) = b.weights.items()
        return map_values(a, lambda v: op(v, k)).scaled_by(wk, b.denominator)
    if len(a.weights) == 1:
        ((k, wk),) = a.weights.items()
        return map_values(b, lambda v: op(k, v)).scaled_by(wk, a.denominator)
    pairs = len(a.weights) * len(b.weights)
    _meter.charge(pairs * 8)  # about 0.3 us a pair
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
    _check_cells(span, _width(bound))
    return Weights(_sparse(_power(_dense(a.weights, lo, hi), n, bound), lo * n), a.denominator**n)


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
    _meter.charge(sum(len(part.weights) for _, part in parts) * (_width(common) // 10 + 5))
    for weight, part in parts:
        factor = weight * (common // part.denominator)
        for v, w in part.weights.items():
            out[v] = out.get(v, 0) + w * factor
    return Weights(out, common * denominator)


# --- one die ------------------------------------------------------------------------------------

def chain(stop: Weights, go: Weights, go_next: Weights | None, stop_next: Weights | None, tol: Fraction) -> Weights:
    """A roll that continues while it shows a ``go`` value: ``stop + go * (stop' + go' * (...))``.

    ``stop``/``go`` split the first roll; ``stop_next``/``go_next`` the later ones (a penetrating
    die counts them one less). The chain is cut at the first depth where the probability of
    going on is below ``tol``: that mass is left out (the distribution's residual)."""
    stop_next = stop_next or stop
    go_next = go_next or go
    going = Fraction(go.mass, go.denominator)
    if going < tol:
        return Weights(dict(stop.weights), stop.denominator)
    later_sum = geometric_chain(stop_next, go_next, tol / going)
    if later_sum is not None:  # every roll that goes on adds at least 1: the chain in one pass
        return _sub_sum(stop, add(go, later_sum))
    p_next = Fraction(go_next.mass, go_next.denominator)
    later = Weights(dict(stop_next.weights), stop_next.denominator)  # the last roll counted
    going *= p_next
    if going >= tol and p_next ** MAX_CHAIN_LEVELS * going >= tol:  # refused before any work: d100!>1
        raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS,
                               hint="explode on fewer faces to get exact odds")
    levels = 0
    while going >= tol:
        later = _sub_sum(stop_next, add(go_next, later))
        going *= p_next
        levels += 1
        if levels > MAX_CHAIN_LEVELS:
            raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS)
    return _sub_sum(stop, add(go, later))


MAX_GEOMETRIC_LEVELS = 2_000  # rolls that go on, followed exactly in one chain (d20!>=3 needs 263)


def geometric_chain(stop: Weights, go: Weights, tol: Fraction) -> Weights | None:
    """A chain whose every roll continues with ``go`` (each value at least 1) and ends with
    ``stop``: ``sum over k of go^k * stop`` for ``k`` up to the first ``K`` where the chance of
    more, p^(K+1), is below ``tol`` (as ``chain`` cuts it, level by level). With ``D`` the roll's
    denominator, ``c = sum(go^k D^(K-k))`` is ``(D^(K+1) - go^(K+1)) / (D - go)``, an exact
    division of polynomials done from the lowest power: one big power and one pass over the
    totals, instead of a convolution per level. None when it does not apply."""
    d = go.denominator
    if stop.denominator != d or not go.weights or not (_whole(go) and _whole(stop)) or min(go.weights) < 1:
        return None
    p = Fraction(go.mass, d)
    if p >= 1:
        return None
    guess = math.log(float(tol)) / math.log(float(p)) if p > 0 else 0
    gmax = max(go.weights)
    if guess > MAX_GEOMETRIC_LEVELS or guess * gmax > limits.MAX_OUTCOMES * 2:
        raise limits.too_many("levels in an exploding chain", MAX_GEOMETRIC_LEVELS,
                               hint="explode on fewer faces to get exact odds")
    levels, pk = 0, p  # the smallest K with p^(K+1) < tol
    while pk >= tol:
        pk *= p
        levels += 1
    span = levels * gmax + 1
    width = _width(d ** (levels + 1))
    _check_cells(span + max(stop.weights) - min(stop.weights), width)
    dense_go = _dense(go.weights, 0, gmax)
    top = _power(dense_go, levels + 1, d ** (levels + 1)) if levels + 1 > 1 else dense_go
    _meter.charge(span * len(go.weights) * (width // 100 + 2))  # a multiply-add of width digits a step
    head = d ** (levels + 1)
    gos = sorted(go.weights.items())
    c = [0] * span
    for t in range(span):
        acc = (head if t == 0 else 0) - (top[t] if t < len(top) else 0)
        for g, w in gos:
            if g > t:
                break
            acc += w * c[t - g]
        c[t] = acc // d
    q = Weights(_sparse(c, 0), d ** levels)
    return add(q, stop)


def _sub_sum(a: Weights, b: Weights) -> Weights:
    """Two disjoint parts of one distribution, brought to a common denominator."""
    common = a.denominator * b.denominator // math.gcd(a.denominator, b.denominator)
    fa, fb = common // a.denominator, common // b.denominator
    out = {v: w * fa for v, w in a.weights.items()}
    for v, w in b.weights.items():
        out[v] = out.get(v, 0) + w * fb
    return Weights(out, common)


def _split(roll: Weights, test: Callable[[int], bool]) -> tuple[Weights, Weights]:
    yes = {v: w for v, w in roll.weights.items() if test(v)}
    no = {v: w for v, w in roll.weights.items() if not test(v)}
    return Weights(yes, roll.denominator), Weights(no, roll.denominator)


@lru_cache(maxsize=256)
def die_value(d: Dice, sides: int | str, tol: Fraction) -> Weights:
    """The value one die of this term counts for: rerolled, clamped, exploded or open-ended."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))
    if d.explode is not None:
        top = max(raw)
        go, stop = _split(roll, lambda v: F.explodes(d, v, top))
        if d.explode.kind.endswith("p"):  # the sum of a penetrating die's rolls, separate or compounded
            return chain(stop, go, _shift(go, -1), _shift(stop, -1), tol)
        return chain(stop, go, None, None, tol)
    if d.open_ended is not None:
        low, high, again = F.open_ends(d, faces)
        go, stop = _split(roll, lambda v: v >= again)
        more = chain(stop, go, None, None, tol)  # one added (or subtracted) chain
        up, rest = _split(roll, lambda v: high is not None and v >= high)
        down, middle = _split(rest, lambda v: low is not None and v <= low)
        total = Weights(middle.weights, middle.denominator)
        if up.weights:
            total = _sub_sum(total, add(up, more))
        if down.weights:
            total = _sub_sum(total, add(down, negate(more)))
        return total
    return roll


def _shift(a: Weights, k: int) -> Weights:
    return Weights({v + k: w for v, w in a.weights.items()}, a.denominator)


def success_count(d: Dice, sides: int | str, score: Callable[[Value], Value], tol: Fraction) -> Weights:
    """Successes (less failures) one die of a '!' or '!p' term scores: each die of its explosion
    chain counts, a penetrating one for what it shows after the -1."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))  # type: ignore[arg-type]
    top = max(raw)
    go, stop = _split(roll, lambda v: F.explodes(d, v, top))  # type: ignore[arg-type]
    as_count = lambda part: map_values(part, score)  # noqa: E731
    if d.explode is not None and d.explode.kind == "!p":
        return chain(as_count(stop), as_count(go), as_count(_shift(go, -1)), as_count(_shift(stop, -1)), tol)
    return chain(as_count(stop), as_count(go), None, None, tol)


def unique_pool(d: Dice, sides: int | str, n: int, score: Callable[[Value], Value]) -> Weights:
    """``u``/``uo``: each die in turn is rolled again while (``uo``: once) it shows a value an
    earlier die shows. That depends only on the set of earlier values, so the states are the
    sorted values so far; kept ranks and scores are read off each final state."""
    assert d.unique is not None
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    total = sum(raw.values())
    conditions, once = d.unique.conditions, d.unique.once
    if not conditions and not once and len(set(raw.values())) == 1:
        return unique_subset(sorted(raw), n, d.keep, score)
    states: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _ in range(n):
        _meter.charge(len(states) * len(raw) * 400)  # exact fractions, sets and sorted tuples: about 15 us a step
        if len(states) * len(raw) > limits.MAX_GROUP_WORK:
            raise limits.too_many("combinations while rerolling duplicates", limits.MAX_GROUP_WORK,
                                   hint="use fewer dice or fewer sides")
        new: dict[tuple[int, ...], Fraction] = {}
        for seen, p in states.items():
            taken = set(seen)
            bad = {v for v in raw if v in taken and (not conditions or F.any_holds(conditions, v))}
            bad_mass = sum(raw[v] for v in bad)
            for v, w in raw.items():
                if once:  # a duplicate is rolled again once, and stands whatever it shows
                    pv = Fraction(w, total) * (1 + Fraction(bad_mass, total)) if v not in bad else \
                        Fraction(bad_mass, total) * Fraction(w, total)
                else:
                    pv = Fraction(0) if v in bad else Fraction(w, total - bad_mass)
                if pv:
                    key = tuple(sorted(seen + (v,)))
                    new[key] = new.get(key, 0) + p * pv
        states = new
    lo, hi = kept_range(d.keep, n)
    out: dict[Value, Fraction] = {}
    for values, p in states.items():
        t = tidy(sum(score(v) for v in values[lo:hi]))
        out[t] = out.get(t, 0) + p
    common = math.lcm(*(p.denominator for p in out.values()))
    return Weights({v: int(p * common) for v, p in out.items()}, common)


def unique_subset(values: list[int], n: int, keeps: tuple[Keep, ...], score: Callable[[Value], Value]) -> Weights:
    """``u`` on a die whose faces are equally likely (``20d20u``): each die is drawn among the
    faces not yet shown, so the faces shown are a uniformly random ``n``-subset. A pass over the
    faces from the lowest: ``ways[j]`` (a polynomial in the kept score, packed into one integer)
    counts the subsets of the faces so far with ``j`` chosen; a face chosen as the ``j``-th lowest
    is counted when ``j`` is among the kept ranks."""
    lo, hi = kept_range(keeps, n)
    scores = [int(score(v)) for v in values]
    smin = min(min(scores), 0)
    take = hi - lo
    span = (max(scores) - smin) * max(take, 1) + 1
    bound = math.comb(len(values), n)
    nbytes = _nbytes(bound)
    bits = nbytes * 8
    _check_cells(span, _width(bound))
    _meter.charge(len(values) * (n + 1) * (span * _width(bound) // 300 + 25))
    ways = [0] * (n + 1)
    ways[0] = 1
    for s in scores:
        shift = (s - smin) * bits
        for j in range(n - 1, -1, -1):  # from the top, so each face is chosen once
            if ways[j]:
                ways[j + 1] += ways[j] << shift if lo <= j < hi else ways[j]
    final = ways[n]
    coeffs = _unpack_int(final, (max(scores) - smin) * take + 1 if take else 1, nbytes)
    return Weights(_sparse(coeffs, smin * take), bound)


def unique_exploding_pool(d: Dice, sides: int | str, n: int, score: Callable[[Value], Value], tol: Fraction) -> Weights:
    """``u`` with ``!`` (``4d6!u``): each roll is made unique as it is rolled, then explodes or not
    on the face it ends on. A state is the chains still to finish and the sorted faces so far; a
    chain that may go on for ever (faces the condition of ``u`` leaves free) is cut at ``tol``."""
    assert d.unique is not None
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    total = sum(raw.values())
    top = max(raw)
    conditions, once = d.unique.conditions, d.unique.once
    if not conditions and not once and len(set(raw.values())) == 1:
        return unique_exploding_subsets(sorted(raw), [F.explodes(d, v, top) for v in sorted(raw)], n, d.keep, score)
    states: dict[tuple[int, tuple[int, ...]], Fraction] = {(n, ()): Fraction(1)} if n else {}
    done: dict[tuple[int, ...], Fraction] = {} if n else {(): Fraction(1)}
    levels = 0
    while states:
        _meter.charge(len(states) * len(raw) * 400)  # as unique_pool: about 15 us a step
        if len(states) * len(raw) > limits.MAX_GROUP_WORK:
            raise limits.too_many("combinations while rerolling duplicates", limits.MAX_GROUP_WORK,
                                   hint="use fewer dice or fewer sides")
        new: dict[tuple[int, tuple[int, ...]], Fraction] = {}
        for (chains, seen), p in states.items():
            bad = {v for v in raw if v in seen and (not conditions or F.any_holds(conditions, v))}
            bad_mass = sum(raw[v] for v in bad)
            for v, w in raw.items():
                if once:
                    pv = Fraction(w, total) * (1 + Fraction(bad_mass, total)) if v not in bad else \
                        Fraction(bad_mass, total) * Fraction(w, total)
                else:
                    pv = Fraction(0) if v in bad else Fraction(w, total - bad_mass)
                if not pv:
                    continue
                key = tuple(sorted(seen + (v,)))
                left = chains if F.explodes(d, v, top) else chains - 1
                if left:
                    new[(left, key)] = new.get((left, key), 0) + p * pv
                else:
                    done[key] = done.get(key, 0) + p * pv
        states = new
        levels += 1
        if states and sum(states.values()) < tol:
            break  # the rest is the residual
        if levels > MAX_CHAIN_LEVELS + n:
            raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS)
    out: dict[Value, Fraction] = {}
    for values, p in done.items():
        lo, hi = kept_range(d.keep, len(values))
        t = tidy(sum(score(v) for v in values[lo:hi]))
        out[t] = out.get(t, 0) + p
    common = math.lcm(*(p.denominator for p in out.values()))
    return Weights({v: int(p * common) for v, p in out.items()}, common)


def unique_exploding_subsets(values: list[int], hot: list[bool], n: int, keeps: tuple[Keep, ...],
                             score: Callable[[Value], Value]) -> Weights:
    """``4d6!u`` with equally likely faces: every roll is drawn among the faces not yet shown, so
    the dice are the start of a random order of the faces, up to the ``n``-th face that does not
    explode. Among ``a`` such faces and ``b`` exploding ones, the number ``x`` of exploding faces
    before it follows the negative hypergeometric law C(x+n-1, x) C(a+b-n-x, b-x) / C(a+b, b), and
    given ``x`` the faces are a random ``n``-subset of the first kind and ``x``-subset of the second."""
    a = sum(1 for h in hot if not h)
    b = len(hot) - a
    parts: list[tuple[Fraction, Weights]] = []
    scores = [int(score(v)) for v in values]
    smin = min(min(scores), 0)
    for x in range(b + 1):
        px = Fraction(math.comb(x + n - 1, x) * math.comb(a + b - n - x, b - x), math.comb(a + b, b)) if n else \
            Fraction(x == 0)
        if not px:
            continue
        lo, hi = kept_range(keeps, n + x)
        take = hi - lo
        bound = math.comb(a, n) * math.comb(b, x)
        bits = _nbytes(bound) * 8
        span = (max(scores) - smin) * max(take, 1) + 1
        _check_cells(span, _width(bound))
        _meter.charge(len(values) * (n + 1) * (x + 1) * (span * _width(bound) // 300 + 25))
        ways: dict[tuple[int, int], int] = {(0, 0): 1}
        for s, h in zip(scores, hot):
            shift = (s - smin) * bits
            for (i, j), w in sorted(ways.items(), reverse=True):  # from the top: each face chosen once
                if (h and j < x) or (not h and i < n):
                    key = (i, j + 1) if h else (i + 1, j)
                    ways[key] = ways.get(key, 0) + (w << shift if lo <= i + j < hi else w)
        final = ways.get((n, x), 0)
        coeffs = _unpack_int(final, (max(scores) - smin) * take + 1 if take else 1, bits // 8)
        parts.append((px, Weights(_sparse(coeffs, smin * take), bound)))
    return mixture(parts)


def pool_match_count(pool: Pool, match: Match) -> Weights:
    """``mt`` over a pool of dice of several kinds (an exploding term's stopping and exploding
    rolls): match_count's pass over the faces, placing each kind's dice in turn."""
    pool = [(w, n) for w, n in pool if n]
    if len(pool) <= 1:
        return match_count(*pool[0], match) if pool else constant(0)
    values = sorted(set().union(*(w.weights for w, _ in pool)))
    binom = math.comb
    full = tuple(n for _, n in pool)
    states: dict[tuple[tuple[int, ...], int], int] = {((0,) * len(pool), 0): 1}
    for v in values:
        counts = match.condition is None or match.condition.holds(v)
        new: dict[tuple[tuple[int, ...], int], int] = {}
        for (placed, sets), x in states.items():
            # each kind's ways to put k of its dice still unplaced on v: C(left, k) w^k
            choices = [[(k, binom(n - p, k) * w.weights.get(v, 0) ** k) for k in range(n - p + 1)]
                       if v in w.weights else [(0, 1)] for (w, n), p in zip(pool, placed)]
            _meter.charge(math.prod(len(c) for c in choices) * 4)
            for combo in itertools.product(*choices):
                here = sum(k for k, _ in combo)
                key = (tuple(p + k for p, (k, _) in zip(placed, combo)), sets + (1 if counts and here >= match.size else 0))
                new[key] = new.get(key, 0) + x * math.prod(ways for _, ways in combo)
        states = new
    out = {sets: x for (placed, sets), x in states.items() if placed == full}
    return Weights(out, math.prod(w.denominator**n for w, n in pool))


def match_count(die: Weights, n: int, match: Match) -> Weights:
    """``mt``: how many faces (meeting the condition) at least ``match.size`` of ``n`` dice show.
    A pass over the faces as in keep_ranks: ``state[j]`` maps the sets found so far to the ways
    to have placed ``j`` dice; ``k`` of the dice left land on the next face, C(left, k) w^k ways."""
    values = sorted(die.weights)
    _meter.charge(len(values) * (n + 1) * (n + 2) // 2 * (n // match.size + 1) * 2)
    binom = math.comb
    state: list[dict[int, int]] = [dict() for _ in range(n + 1)]
    state[0][0] = 1
    for v in values:
        w = die.weights[v]
        counts = match.condition is None or match.condition.holds(v)
        new: list[dict[int, int]] = [dict() for _ in range(n + 1)]
        for j in range(n + 1):
            if not state[j]:
                continue
            left = n - j
            wk = 1
            for k in range(left + 1):
                ways = binom(left, k) * wk
                extra = 1 if counts and k >= match.size else 0
                bucket = new[j + k]
                for sets, x in state[j].items():
                    bucket[sets + extra] = bucket.get(sets + extra, 0) + x * ways
                wk *= w
        state = new
    return Weights(dict(state[n]), die.denominator**n)


# --- keep and drop: order statistics --------------------------------------------------------------

def keep(die: Weights, n: int, keeps: tuple[Keep, ...], score: Callable[[int], int] | None = None) -> Weights:
    """The sum (of ``score(v)``, default ``v``) of the dice the keep/drop modifiers leave among
    ``n`` independent dice distributed as ``die``."""
    lo, hi = kept_range(keeps, n)
    return keep_ranks(die, n, lo, hi, score)


def keep_ranks(die: Weights, n: int, lo: int, hi: int, score: Callable[[int], int] | None = None) -> Weights:
    """The sum of ``score(v)`` over the dice ranked ``lo`` to ``hi - 1`` from the lowest, among ``n``
    independent dice distributed as ``die`` (``4d10dh1dl2`` keeps ranks 2 to 2).

    Faces are visited from the nearer end of the kept ranks: ``skip`` dice there are passed over,
    the next ``take`` counted. Each face is measured by its depth, how far its score lies from the
    nearest face's, so sums of depths start small and grow only as the pass goes deeper. Equally
    likely faces an equal step apart, kept from one end (``30d100kh10``), have a closed form
    (``nearest_of_uniform``); any other die goes through ``kept_pass``."""
    take = hi - lo
    score = score or (lambda v: v)  # type: ignore[assignment, return-value]
    if take <= 0:
        return Weights({0: die.mass**n}, die.denominator**n)
    from_top = n - hi <= lo
    skip = n - hi if from_top else lo
    end = skip + take
    values = sorted(die.weights, reverse=from_top)  # type: ignore[type-var]
    scores = [score(v) for v in values]  # type: ignore[arg-type, misc]
    near, sign = (max(scores), -1) if from_top else (min(scores), 1)
    depths = [(s - near) * sign for s in scores]
    span = max(depths) * take + 1
    bound = die.mass**n
    _check_cells(span, _width(bound))
    weights = [die.weights[v] for v in values]
    step = depths[1] if len(depths) > 1 else 0
    if skip == 0 and step > 0 and len(set(weights)) == 1 and all(d == step * p for p, d in enumerate(depths)):
        _meter.charge((len(values) * take * (take + 1) // 2 + 2 * take * span) * (_width(bound) // 60 + 2))
        coeffs = nearest_of_uniform(len(values), n, take)
        scale = weights[0] ** n
        return Weights({take * near + sign * step * i: c * scale for i, c in enumerate(coeffs) if c},
                       die.denominator**n)
    coeffs = kept_pass(weights, depths, n, skip, end, die.mass)
    return Weights({take * near + sign * i: c for i, c in enumerate(coeffs) if c}, die.denominator**n)


def nearest_of_uniform(faces: int, n: int, k: int) -> list[int]:
    """``ways[i]``: of the ``faces ** n`` rolls of ``n`` dice showing 0 to ``faces - 1`` alike, how
    many have their ``k`` lowest dice summing to ``i``.

    Let ``t`` be what the ``k``-th lowest die shows, ``a < k`` the dice below it. Those ``a`` dice
    are any of 0 to ``t - 1``: ``((1 - x^t) / (1 - x))^a`` as a polynomial in the sum; the other
    ``k - a`` kept dice show ``t``; of the ``n - a`` dice at ``t`` or above, at least ``k - a`` show
    ``t`` (``T``, a count). So the answer is ``sum over a of H_a / (1 - x)^a``, where
    ``H_a = C(n, a) sum over t of T x^((k - a) t) (1 - x^t)^a`` has only whole-number terms at
    multiples of ``t``, and dividing by ``1 - x`` is a running sum: Horner's rule from the
    largest ``a``, ``k`` running sums in all. Every step is an addition of whole numbers: about
    ``faces * k * k / 2 + 2 * k * k * faces`` of them, where the pass over faces costs as many
    operations on polynomials."""
    length = k * (faces - 1) + 1
    comb = math.comb
    # rows[a][t] = C(n, a) * T(t, a), with T = sum over b >= k - a of C(n - a, b) R^(n - a - b) and
    # R = faces - 1 - t the faces above t; its first k - a terms, P, follow from one a to the next:
    # P(m + 1, r + 1) = (R + 1) P(m, r) + C(m, r) R^(m - r + 1), and m - r = n - k throughout
    rows = [[0] * faces for _ in range(k)]
    for t in range(faces):
        above = faces - 1 - t
        m = n - k + 1
        far = above**m
        head = far
        whole = (above + 1) ** m
        for a in range(k - 1, -1, -1):
            rows[a][t] = comb(n, a) * (whole - head)
            head = (above + 1) * head + comb(m, k - a) * far
            whole *= above + 1
            m += 1
    add = operator.add
    total: list[int] = []
    for a in range(k - 1, -1, -1):
        h = [0] * length
        first = 1 if a else 0  # t = 0 leaves no room below it: (1 - x^0)^a is 0
        row = rows[a][first:]
        for i in range(a + 1):  # (1 - x^t)^a, term by term: multiples of (k - a + i) t
            stride = k - a + i
            at = slice(first * stride, stride * faces, stride)
            mult = comb(a, i) * (-1) ** i
            h[at] = map(add, h[at], row) if mult == 1 else [x + mult * y for x, y in zip(h[at], row)]
        total = list(map(add, h, itertools.accumulate(total))) if total else h
    return total


def kept_pass(weights: list[int], depths: list[int], n: int, skip: int, end: int, mass: int) -> list[int]:
    """``ways[i]``: the ways ``n`` dice fall with the dice ranked ``skip`` to ``end - 1`` from the
    first face summing to depth ``i``; face ``f`` has weight ``weights[f]`` and depth ``depths[f]``
    (all whole numbers, at least 0), ``mass`` the weight of a whole roll.

    A pass over the faces: ``state[j]`` (a polynomial in the counted depth, packed into one
    integer) holds the ways to have placed ``j`` dice so far. At a face of weight ``w``, ``k`` more
    dice land on it; once ``j + k`` reaches ``end``, the rest must all fall on later faces, so the
    outcome is final. Before ``skip`` dice are placed nothing is counted: those states are plain
    numbers, and the costly work is the ``take * take / 2`` moves between counted states."""
    take = end - skip
    span = max(depths) * take + 1
    bound = mass**n
    width = _width(bound)
    # the moves between counted states, on numbers of up to span * width digits; the others are cheap
    _meter.charge(len(depths) * (take * (take + 1) // 2 * (span * width // 600 + 25) + end * end))
    nbytes = _nbytes(bound)  # binary here: the pass shifts polynomials by whole faces
    bits = nbytes * 8
    state = [0] * end
    state[0] = 1
    final = 0
    rest = mass
    binom = math.comb
    stay = n - end  # dice that always fall beyond the last kept rank
    for w, depth in zip(weights, depths):
        rest -= w
        here = rest + w  # weight of this face and every later one
        shift = depth * bits
        new = [0] * end
        # short[j]: the ways the n - j dice left put fewer than end - j on this face, the rest later
        # (the k < need terms of here^left); from j = end - 1 down: P(m + 1, r + 1) =
        # (rest + w) P(m, r) + C(m, r) w^r rest^(m - r + 1), with m - r = n - end throughout
        tail = rest ** (stay + 1)
        short = tail
        power = here ** (stay + 1)
        for j in range(end - 1, -1, -1):
            left = n - j
            need = end - j
            ways = state[j]
            if ways:
                coef = power - short
                if coef:
                    final += (ways * coef) << ((end - max(j, skip)) * shift)
                wk = 1
                for k in range(need):
                    counted = k if j >= skip else max(0, j + k - skip)
                    move = ways * binom(left, k) * wk if k else ways
                    new[j + k] += move << (counted * shift) if counted else move
                    wk *= w
            short = here * short + binom(left, need) * w**need * tail
            power *= here
        state = new
    return _unpack_int(final, span, nbytes)


def pool_ranks(groups: list[tuple[Weights, int]], lo: int, hi: int, score: Callable[[int], int]) -> Weights:
    """Like keep_ranks, for a pool of dice of several kinds: ``groups`` pairs each kind's
    distribution with how many of it are rolled (``{4d6+3d8}k4``; an exploding term's stopping and
    exploding rolls). States track how many dice of each kind are placed; each holds the counted
    sum as a polynomial packed into one integer, as in keep_ranks.

    At each face the kinds are placed one after the other (dice showing one face are alike, so
    the ``p``-th die placed is the ``p``-th lowest whatever its kind): the work grows with the
    sum of the kinds' counts, not their product. Once ``end`` dice are placed the outcome is
    final: the kinds already placed at this face have their other dice on later faces, the kinds
    still to come on this face or later ones."""
    n = sum(count for _, count in groups)
    take = hi - lo
    denominator = math.prod(w.denominator**count for w, count in groups)
    bound = math.prod(w.mass**count for w, count in groups)
    if take <= 0:
        return Weights({0: bound}, denominator)
    from_top = n - hi <= lo
    skip = n - hi if from_top else lo
    end = skip + take
    values = sorted({v for w, _ in groups for v in w.weights}, reverse=from_top)
    scores = {v: score(v) for v in values}
    smin, smax = min(scores.values()), max(scores.values())
    span = (smax - smin) * take + 1
    width = _width(bound)
    _check_cells(span, width)
    step = span * width // 100 + 150  # a product and a shift of a big integer, and a binomial (measured)
    counts = [count for _, count in groups]
    states_at_most = min(math.prod(min(count, end) + 1 for count in counts), math.comb(end + len(groups), len(groups)))
    if states_at_most * len(values) * (end + 1) * step > 5 * limits.MAX_WORK:  # hopeless: refused before any work
        _meter.charge(limits.MAX_WORK + 1)
    nbytes = _nbytes(bound)
    bits = nbytes * 8
    rests = [w.mass for w, _ in groups]
    states: dict[tuple[int, ...], int] = {(0,) * len(groups): 1}
    final = 0
    binom = math.comb
    for v in values:
        shift = (scores[v] - smin) * bits
        here = [w.weights.get(v, 0) for w, _ in groups]
        rests = [r - h for r, h in zip(rests, here)]  # after this face
        for i, h in enumerate(here):
            if not h:
                continue
            rest = rests[i]
            # the kinds placed before this one at this face: their other dice fall later; the
            # kinds after it: at this face or later (for a state that becomes final here)
            before = [(rests[x], counts[x]) for x in range(i)]
            after = [(here[x] + rests[x], counts[x]) for x in range(i + 1, len(groups))]
            new: dict[tuple[int, ...], int] = {}
            _meter.charge(len(states) * step * 2)
            for placed, poly in states.items():
                j = sum(placed)
                left = counts[i] - placed[i]
                need = end - j  # dice still to place before the outcome is final
                wk = 1
                short = 0  # the k < need terms of (h + rest)^left, for the final ones
                for k in range(min(need, left + 1)):
                    ways = binom(left, k) * wk
                    short += ways * rest ** (left - k)
                    counted = max(0, min(j + k, end) - max(j, skip))
                    key = placed[:i] + (placed[i] + k,) + placed[i + 1:]
                    new[key] = new.get(key, 0) + ((poly * ways) << (counted * shift))
                    wk *= h
                if left >= need:
                    coef = (h + rest) ** left - short
                    for (r, count), x in zip(before, range(i)):
                        coef *= r ** (count - placed[x])
                    for (r, count), x in zip(after, range(i + 1, len(groups))):
                        coef *= r ** (count - placed[x])
                    if coef:
                        final += (poly * coef) << ((end - max(j, skip)) * shift)
            states = new
    raw = final.to_bytes(span * nbytes, "little")
    coeffs = [int.from_bytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(span)]
    return Weights(_sparse(coeffs, smin * take), denominator)


def negative_binomial(n: int, p: Fraction, tol: Fraction) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """P(x explosions) for ``n`` dice that each explode with chance ``p`` (every extra die too):
    C(n + x - 1, x) p^x (1 - p)^n, until less than ``tol`` is left; and what is left."""
    out: list[tuple[int, Fraction]] = []
    left = Fraction(1)
    x = 0
    while left >= tol or not out:
        _meter.charge((n + x) * 10)
        px = math.comb(n + x - 1, x) * p**x * (1 - p) ** n if n else Fraction(x == 0)
        out.append((x, px))
        left -= px
        x += 1
        if x > MAX_GEOMETRIC_LEVELS:  # each level is metered: the limit only stops the hopeless
            raise limits.too_many("levels in an exploding chain", MAX_GEOMETRIC_LEVELS)
    return out, left


Pool = list[tuple[Weights, int]]  # kinds of dice: each one's law, and how many of it are rolled


def exploding_pool(d: Dice, sides: int | str, n: int, tol: Fraction, measure: Callable[[Pool], Weights]) -> Weights:
    """Keep/drop or matches after '!' or '!p' (``5d10!k2``, ``6d6!mt``): the pool is every die
    rolled, the extra ones included, and ``measure`` gives the law of what is made of a pool. Its
    order does not matter, so it is ``n`` rolls that stopped a chain and ``x`` rolls that
    exploded, where ``x`` follows a negative binomial law; a penetrating die's extra rolls count
    one less, so for ``!p`` the first rolls and the extra ones are kinds of their own."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))  # type: ignore[arg-type]
    top = max(raw)
    go, stop = _split(roll, lambda v: F.explodes(d, v, top))  # type: ignore[arg-type]
    p = Fraction(go.mass, roll.denominator)
    go = Weights(go.weights, go.mass)  # each kind given its own roll: conditional laws
    stop = Weights(stop.weights, stop.mass)
    penetrate = d.explode is not None and d.explode.kind == "!p"
    parts: list[tuple[Fraction, Weights]] = []
    if not penetrate:
        laws, _ = negative_binomial(n, p, tol)
        for x, px in laws:
            parts.append((px, measure([(stop, n), (go, x)])))
    else:  # first rolls: g of n explode; extra rolls (one less): g stop, and x more explode
        _meter.charge((n + 1) * n * 20)  # n + 1 laws of exact fractions with about n digits each
        later_go, later_stop = _shift(go, -1), _shift(stop, -1)
        for g in range(n + 1):
            pg = math.comb(n, g) * p**g * (1 - p) ** (n - g)
            laws, _ = negative_binomial(g, p, tol / (n + 1))
            for x, px in laws:
                parts.append((pg * px, measure([(stop, n - g), (go, g), (later_stop, g), (later_go, x)])))
    return mixture(parts)


def mixture(parts: list[tuple[Fraction, Weights]]) -> Weights:
    """``sum(p * part)``: the law of a value that follows ``part`` with chance ``p``; the chances
    may add up to less than 1 (a chain cut short), and what is missing is the residual."""
    common = math.lcm(*(p.denominator * w.denominator for p, w in parts))
    out: dict[Value, int] = {}
    _meter.charge(sum(len(w.weights) for _, w in parts) * (_width(common) // 10 + 5))
    for p, part in parts:
        factor = p.numerator * (common // (p.denominator * part.denominator))
        for v, w in part.weights.items():
            out[v] = out.get(v, 0) + w * factor
    return Weights(out, common)


# --- the walk over the tree -----------------------------------------------------------------------

ARITHMETIC: dict[str, Callable[[Value, Value], Value]] = {
    "*": lambda x, y: tidy(x * y), "/": divide, "%": modulo, "^": power}


def scorer(success: Condition | None, failure: Condition | None) -> Callable[[Value], Value]:
    """What one die counts for: its value, or 1 for a success (-1 for a failure, 0 otherwise)."""
    if success is None:
        return lambda v: v
    if failure is None:
        return lambda v: 1 if success.holds(v) else 0
    return lambda v: 1 if success.holds(v) else (-1 if failure.holds(v) else 0)


class _Builder:
    def __init__(self, tol: Fraction) -> None:
        self.tol = tol

    def of(self, node: Node) -> Weights:
        if isinstance(node, Number):
            return constant(node.value)
        if isinstance(node, Parens):
            return self.of(node.inner)
        if isinstance(node, Negate):
            return negate(self.of(node.operand))
        if isinstance(node, Chain):
            acc = self.of(node.first)
            for op, operand in node.rest:
                acc = self.arith(acc, op, self.of(operand))
            return acc
        if isinstance(node, Function):
            f = FUNCTIONS[node.name]
            args = [self.of(a) for a in node.args]
            if len(args) == 1:
                return map_values(args[0], f.apply)
            return _pairwise(args[0], args[1], f.apply)
        if isinstance(node, Dice):
            return self.dice(node)
        if isinstance(node, Group):
            return self.group(node)
        raise TypeError(node)

    def arith(self, a: Weights, op: str, b: Weights) -> Weights:
        if op == "+":
            return add(a, b)
        if op == "-":
            return add(a, negate(b))
        return _pairwise(a, b, ARITHMETIC[op])

    def dice(self, d: Dice) -> Weights:
        counts = self.of(d.count)
        if isinstance(d.sides, str):
            sides_dist = Weights({0: 1}, 1)  # placeholder key: one fixed kind of die
        else:
            sides_dist = self.of(d.sides)
        parts: list[tuple[int, Weights]] = []
        for s, ws in sides_dist.weights.items():
            sides: int | str = d.sides if isinstance(d.sides, str) else int(s)
            for n, wn in sorted(counts.weights.items(), reverse=True):  # the costliest first: refused at once
                parts.append((ws * wn, self.term(d, sides, int(n))))
        if len(parts) == 1 and counts.denominator == 1 and sides_dist.denominator == 1:
            return parts[0][1]
        return mix(parts, counts.denominator * sides_dist.denominator)

    def term(self, d: Dice, sides: int | str, n: int) -> Weights:
        score = scorer(d.success, d.failure)
        separate = d.explode is not None and d.explode.kind in ("!", "!p")
        if d.match is not None and d.match.total:
            if separate:  # 6d6!mt: the extra dice are dice of the pool
                match = d.match
                return exploding_pool(d, sides, n, self.tol, lambda pool: pool_match_count(pool, match))
            return match_count(die_value(d, sides, self.tol), n, d.match)
        if d.unique and d.explode:
            return unique_exploding_pool(d, sides, n, score, self.tol)
        if d.unique:
            return unique_pool(d, sides, n, score)
        if separate and d.keep:
            keeps = d.keep

            def kept(pool: Pool) -> Weights:
                lo, hi = kept_range(keeps, sum(count for _, count in pool))
                return pool_ranks(pool, lo, hi, score)  # type: ignore[arg-type]

            return exploding_pool(d, sides, n, self.tol, kept)
        if separate and d.success is not None:
            return repeat_sum(success_count(d, sides, score, self.tol), n)
        value = die_value(d, sides, self.tol)
        if d.keep:
            return keep(value, n, d.keep, None if d.success is None else score)  # type: ignore[arg-type]
        return repeat_sum(value if d.success is None else map_values(value, score), n)

    def group(self, g: Group) -> Weights:
        score = scorer(g.success, g.failure)
        if g.pools_dice:
            return self.pool(g, score)
        items = [self.of(i) for i in g.items]
        if g.keep:
            return group_keep(items, g.keep, score, counted=g.success is not None)
        acc = constant(0)
        for item in items:
            acc = add(acc, item if g.success is None else map_values(item, score))
        return acc

    def pool(self, g: Group, score: Callable[[Value], Value]) -> Weights:
        """``{4d6+3d8}k4``: the dice of every term, kept or counted as one pool."""
        kinds: list[tuple[Weights, int]] = []
        numbers = constant(0)
        for term in pool_terms(g):
            if isinstance(term, Number):
                numbers = add(numbers, constant(term.value))
                continue
            if not (isinstance(term.count, Number) and (isinstance(term.sides, (Number, str)))) or \
                    (term.explode is not None and term.explode.kind in ("!", "!p")):
                raise DiceLimitError("exact odds of a pooled group need dice with fixed counts and sides, "
                                     "and no '!' or '!p' explosions")
            sides = term.sides if isinstance(term.sides, str) else int(term.sides.value)
            kinds.append((die_value(term, sides, self.tol), int(term.count.value)))
        lo, hi = kept_range(g.keep, sum(n for _, n in kinds))
        if g.success is not None:  # {3d20+5}>21: the numbers are added to each die before it is counted
            offset = pool_offset(g)
            return pool_ranks(kinds, lo, hi, lambda v: score(v + offset))  # type: ignore[arg-type, return-value]
        return add(pool_ranks(kinds, lo, hi, score), numbers)  # type: ignore[arg-type]


def group_keep(items: list[Weights], keeps: tuple[Keep, ...], score: Callable[[Value], Value],
               counted: bool = False) -> Weights:
    """Keep/drop among the group's items (``counted``: scored as successes, not added). Identical
    items are order statistics (as for dice), fractions first scaled to whole numbers; different
    ones are followed item by item, tracking the values that may still be kept."""
    n = len(items)
    lo, hi = kept_range(keeps, n)
    if all(item == items[0] for item in items[1:]) and not any(type(v) is float for v in items[0].weights):
        scale = math.lcm(*(Fraction(v).denominator for v in items[0].weights))
        if scale == 1:
            return keep_ranks(items[0], n, lo, hi, score)  # type: ignore[arg-type]
        whole = Weights({int(v * scale): w for v, w in items[0].weights.items()}, items[0].denominator)
        if counted:
            return keep_ranks(whole, n, lo, hi, lambda v: score(Fraction(v, scale)))  # type: ignore[arg-type, return-value]
        sums = keep_ranks(whole, n, lo, hi)
        return Weights({tidy(Fraction(v, scale)): w for v, w in sums.weights.items()}, sums.denominator)
    if hi <= lo:
        return constant(0).scaled_by(1, 1) if n == 0 else Weights({0: math.prod(i.mass for i in items)},
                                                                   math.prod(i.denominator for i in items))
    from_top = n - hi <= lo
    skip = n - hi if from_top else lo
    end = skip + hi - lo
    states: dict[tuple[Value, ...], int] = {(): 1}
    denominator = 1
    for item in items:
        new: dict[tuple[Value, ...], int] = {}
        _meter.charge(len(states) * len(item.weights) * 100)  # a sorted tuple a step: about 4 us
        if len(states) * len(item.weights) > limits.MAX_GROUP_WORK:
            raise limits.too_many("combinations while keeping from a group", limits.MAX_GROUP_WORK,
                                   hint="keep from fewer or smaller expressions")
        for state, w in states.items():
            for v, wv in item.weights.items():
                key = tuple(sorted(state + (v,), reverse=from_top)[:end])  # type: ignore[type-var]
                new[key] = new.get(key, 0) + w * wv
        states = new
        denominator *= item.denominator
    out: dict[Value, int] = {}
    for state, w in states.items():
        total = tidy_sum(sorted(score(v) for v in state[skip:end]))
        out[total] = out.get(total, 0) + w
    return Weights(out, denominator)


def _infinite_dice(node: Node) -> int:
    """How many exploding or open-ended dice an expression can roll (the tolerance is shared)."""
    total = 0
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Dice):
            if n.explode or n.open_ended:
                total += int(bounds(n.count, _DiceCounter())[1])
            stack.append(n.count)
            if not isinstance(n.sides, str):
                stack.append(n.sides)
        elif isinstance(n, Chain):
            stack.append(n.first)
            stack.extend(o for _, o in n.rest)
        elif isinstance(n, Negate):
            stack.append(n.operand)
        elif isinstance(n, Function):
            stack.extend(n.args)
        elif isinstance(n, Parens):
            stack.append(n.inner)
        elif isinstance(n, Group):
            stack.extend(n.items)
    return total


def total_order(v: Value) -> tuple[float, Value]:
    """A sort key for totals: as a float first (fast, where a Fraction compared with a float is
    slow), the exact value where floats tie (numbers too large for a float among them)."""
    try:
        return float(v), v
    except OverflowError:
        return (math.inf if v > 0 else -math.inf), v


class Distribution:
    """The exact distribution of an expression's total."""

    def __init__(self, expression: str, weights: Weights) -> None:
        self.expression = expression
        self._w = weights
        mass = weights.mass
        self.residual = Fraction(weights.denominator - mass, weights.denominator)
        # ordered as floats: comparing a Fraction with a float is slow, converting each once is not
        self.min = min(weights.weights, key=total_order)
        self.max = max(weights.weights, key=total_order)
        self._mass = mass

    @cached_property
    def probabilities(self) -> dict[int, Fraction]:
        d = self._w.denominator
        return {v: Fraction(self._w.weights[v], d) for v in sorted(self._w.weights, key=total_order)}

    @cached_property
    def _exact_values(self) -> list[tuple[int | Fraction, int]]:
        """The outcomes as exact numbers (a float from sqrt or log taken at its exact binary value)."""
        return [(v if type(v) is int else Fraction(v), w) for v, w in self._w.weights.items()]

    @cached_property
    def mean_exact(self) -> Fraction:
        """The mean of the computed outcomes (for a cut chain, of all but the neglected tail)."""
        return Fraction(sum(v * w for v, w in self._exact_values), self._mass)

    @property
    def mean(self) -> float:
        return float(self.mean_exact)

    @cached_property
    def variance_exact(self) -> Fraction:
        m = self.mean_exact
        second = Fraction(sum(v * v * w for v, w in self._exact_values), self._mass)
        return second - m * m

    @property
    def stdev(self) -> float:
        return math.sqrt(self.variance_exact)

    def p_eq(self, t: int) -> Fraction:
        return Fraction(self._w.weights.get(t, 0), self._w.denominator)

    def p_at_least(self, t: int) -> Fraction:
        """P(total >= t) over the computed outcomes: exact when ``residual`` is 0; otherwise the
        truth lies between this and this + residual (see ``p_at_least_bounds``)."""
        return Fraction(sum(w for v, w in self._w.weights.items() if v >= t), self._w.denominator)

    def p_at_most(self, t: int) -> Fraction:
        """P(total <= t) over the computed outcomes; see ``p_at_least``."""
        return Fraction(sum(w for v, w in self._w.weights.items() if v <= t), self._w.denominator)

    def p_at_least_bounds(self, t: int) -> tuple[Fraction, Fraction]:
        """The lowest and highest P(total >= t) can be: the neglected tail of a cut chain (the
        residual) is not placed, so it may or may not count."""
        p = self.p_at_least(t)
        return p, min(p + self.residual, Fraction(1))

    def p_at_most_bounds(self, t: int) -> tuple[Fraction, Fraction]:
        p = self.p_at_most(t)
        return p, min(p + self.residual, Fraction(1))

    def __repr__(self) -> str:
        return f"<Distribution {self.expression}: {self.min}..{self.max}, mean {self.mean:.4g}>"


def distribution_of(expr: Expression, expression: str) -> Distribution:
    infinite = _infinite_dice(expr.root)
    tol = TOLERANCE / infinite if infinite else TOLERANCE
    _meter.used = 0
    return Distribution(expression, _Builder(tol).of(expr.root))
