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

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Callable

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.checks import _DiceCounter, bounds, kept_count
from rollbook.dice.errors import DiceLimitError
from rollbook.dice.tree import Chain, Condition, Dice, Expression, Group, Keep, Negate, Node, Number, Parens

TOLERANCE = Fraction(1, 10**12)  # the most probability an expression may neglect
MAX_CHAIN_LEVELS = 200


@dataclass(frozen=True)
class Weights:
    """``weights[v] / denominator`` is P(v); the weights may sum to less than the denominator
    (the neglected tail of an infinite chain)."""

    weights: dict[int, int]
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
                                 hint="use fewer or smaller dice, or roll it instead")


_meter = _Meter()


def constant(v: int) -> Weights:
    return Weights({v: 1}, 1)


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
            f"{width:,}-digit weights)", hint="use fewer or smaller dice, or roll it instead")


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
    _meter.charge(span * width)
    if _CONTEXT is not None and span * width > _DECIMAL_ABOVE:
        return _unpack_dec(_CONTEXT.power(_pack_dec(a, width), n), span, width)
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
        return Weights({v + k: x * w for v, x in other.weights.items()}, a.denominator * b.denominator)
    alo, ahi = min(a.weights), max(a.weights)
    blo, bhi = min(b.weights), max(b.weights)
    span = ahi - alo + bhi - blo + 1
    width = _width(a.mass * b.mass)
    if span * width <= limits.MAX_WEIGHT_DIGITS:
        limits.check_outcomes(span)
        coeffs = _convolve(_dense(a.weights, alo, ahi), _dense(b.weights, blo, bhi), a.mass * b.mass)
        return Weights(_sparse(coeffs, alo + blo), a.denominator * b.denominator)
    return _pairwise(a, b, lambda x, y: x + y)  # sparse values far apart


def _pairwise(a: Weights, b: Weights, op: Callable[[int, int], int]) -> Weights:
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
                               hint=f"this needs {pairs:,}; roll it instead")
    out: dict[int, int] = {}
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


def map_values(a: Weights, f: Callable[[int], int]) -> Weights:
    out: dict[int, int] = {}
    for v, w in a.weights.items():
        k = f(v)
        out[k] = out.get(k, 0) + w
    return Weights(out, a.denominator)


def mix(parts: list[tuple[int, Weights]], denominator: int) -> Weights:
    """``sum(weight * part) / denominator``: a choice among distributions (computed counts, sides)."""
    common = 1
    for _, part in parts:
        common = common * part.denominator // math.gcd(common, part.denominator)
    out: dict[int, int] = {}
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
    p_next = Fraction(go_next.mass, go_next.denominator)
    later = Weights(dict(stop_next.weights), stop_next.denominator)  # the last roll counted
    going *= p_next
    levels = 0
    while going >= tol:
        later = _sub_sum(stop_next, add(go_next, later))
        going *= p_next
        levels += 1
        if levels > MAX_CHAIN_LEVELS:
            raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS)
    return _sub_sum(stop, add(go, later))


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
        if d.explode.kind == "!p":
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


def success_count(d: Dice, sides: int | str, cond: Condition, tol: Fraction) -> Weights:
    """Successes one die of a '!' term scores: each die of its explosion chain counts."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))
    top = max(raw)
    go, stop = _split(roll, lambda v: F.explodes(d, v, top))
    as_count = lambda part: map_values(part, lambda v: 1 if cond.holds(v) else 0)  # noqa: E731
    return chain(as_count(stop), as_count(go), None, None, tol)


# --- keep and drop: order statistics --------------------------------------------------------------

def keep(die: Weights, n: int, keep_rule: Keep, score: Callable[[int], int] | None = None) -> Weights:
    """The sum (of ``score(v)``, default ``v``) of the dice a keep/drop leaves among ``n``
    independent dice distributed as ``die``.

    Faces are visited from the best kept down. ``state[j]`` (a polynomial in the kept sum, packed
    into one integer) holds the ways to have placed ``j`` dice so far, all of them kept. At a face
    showing ``v`` with weight ``w``, ``k`` more dice land on it; once ``j + k`` reaches the number
    kept, the rest must all fall on later faces (weight ``rest ** left``), so the outcome is final."""
    kept = kept_count(keep_rule, n)
    score = score or (lambda v: v)
    if kept == 0:
        return Weights({0: die.mass**n}, die.denominator**n)
    highest = keep_rule.mode in ("kh", "dl")
    values = sorted(die.weights, reverse=highest)
    scores = [score(v) for v in values]
    smin, smax = min(scores), max(scores)
    span = (smax - smin) * kept + 1
    bound = die.mass**n
    _check_cells(span, _width(bound))
    # the pass does about faces * kept * kept / 2 big-integer steps on numbers of span * width digits
    _meter.charge(len(values) * kept * (kept + 1) // 2 * (span * _width(bound) // 300 + 25))
    nbytes = _nbytes(bound)  # binary here: the pass shifts polynomials by whole faces
    bits = nbytes * 8
    state = [0] * kept
    state[0] = 1
    final = 0
    rest = die.mass
    binom = math.comb
    for v, s in zip(values, scores):
        w = die.weights[v]
        rest -= w
        here = rest + w  # weight of this face and every later one
        shift = (s - smin) * bits
        new = [0] * kept
        for j in range(kept):
            ways = state[j]
            if not ways:
                continue
            left = n - j
            need = kept - j  # dice still to keep: the outcome is final once k >= need
            # k < need: all k dice kept, the state moves on
            wk = 1
            for k in range(need):
                if k > left:
                    break
                new[j + k] += (ways * binom(left, k) * wk) << (k * shift)
                wk *= w
            # k >= need: sum over k of C(left, k) w^k rest^(left-k) = here^left minus the k < need terms
            coef = here**left - sum(binom(left, k) * w**k * rest ** (left - k) for k in range(min(need, left + 1)))
            if coef:
                final += (ways * coef) << (need * shift)
        state = new
    raw = final.to_bytes(span * nbytes, "little")
    coeffs = [int.from_bytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(span)]
    return Weights(_sparse(coeffs, smin * kept), die.denominator**n)


# --- the walk over the tree -----------------------------------------------------------------------

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
        if op == "*":
            return _pairwise(a, b, lambda x, y: x * y)
        return _pairwise(a, b, lambda x, y: x // y)

    def dice(self, d: Dice) -> Weights:
        counts = self.of(d.count)
        if isinstance(d.sides, str):
            sides_dist = Weights({0: 1}, 1)  # placeholder key: one fixed kind of die
        else:
            sides_dist = self.of(d.sides)
        parts: list[tuple[int, Weights]] = []
        for s, ws in sides_dist.weights.items():
            sides: int | str = d.sides if isinstance(d.sides, str) else s
            for n, wn in counts.weights.items():
                parts.append((ws * wn, self.term(d, sides, n)))
        if len(parts) == 1 and counts.denominator == 1 and sides_dist.denominator == 1:
            return parts[0][1]
        return mix(parts, counts.denominator * sides_dist.denominator)

    def term(self, d: Dice, sides: int | str, n: int) -> Weights:
        if d.success is not None:
            cond = d.success
            if d.explode is not None and d.explode.kind == "!":
                return repeat_sum(success_count(d, sides, cond, self.tol), n)
            value = die_value(d, sides, self.tol)
            if d.keep is not None:
                return keep(value, n, d.keep, lambda v: 1 if cond.holds(v) else 0)
            return repeat_sum(map_values(value, lambda v: 1 if cond.holds(v) else 0), n)
        value = die_value(d, sides, self.tol)
        if d.keep is not None:
            return keep(value, n, d.keep)
        return repeat_sum(value, n)

    def group(self, g: Group) -> Weights:
        items = [self.of(i) for i in g.items]
        if g.keep is None:
            if g.success is None:
                acc = items[0]
                for item in items[1:]:
                    acc = add(acc, item)
                return acc
            cond = g.success
            acc = constant(0)
            for item in items:
                acc = add(acc, map_values(item, lambda v: 1 if cond.holds(v) else 0))
            return acc
        return group_keep(items, g.keep, g.success)


def group_keep(items: list[Weights], keep_rule: Keep, success: Condition | None) -> Weights:
    """Keep/drop among the group's items. Identical items are order statistics (as for dice);
    different ones are followed item by item, tracking the values kept so far."""
    if all(item == items[0] for item in items[1:]):
        score = (lambda v: 1 if success.holds(v) else 0) if success else None
        return keep(items[0], len(items), keep_rule, score)
    kept = kept_count(keep_rule, len(items))
    highest = keep_rule.mode in ("kh", "dl")
    states: dict[tuple[int, ...], int] = {(): 1}
    denominator = 1
    for item in items:
        new: dict[tuple[int, ...], int] = {}
        _meter.charge(len(states) * len(item.weights) * 25)
        if len(states) * len(item.weights) > limits.MAX_GROUP_WORK:
            raise limits.too_many("combinations while keeping from a group", limits.MAX_GROUP_WORK,
                                   hint="keep from fewer or smaller expressions")
        for state, w in states.items():
            for v, wv in item.weights.items():
                merged = sorted(state + (v,), reverse=highest)[:kept]
                key = tuple(merged)
                new[key] = new.get(key, 0) + w * wv
        states = new
        denominator *= item.denominator
    out: dict[int, int] = {}
    for state, w in states.items():
        total = sum(1 for v in state if success.holds(v)) if success else sum(state)
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
        elif isinstance(n, (Negate,)):
            stack.append(n.operand)
        elif isinstance(n, Parens):
            stack.append(n.inner)
        elif isinstance(n, Group):
            stack.extend(n.items)
    return total


class Distribution:
    """The exact distribution of an expression's total."""

    def __init__(self, expression: str, weights: Weights) -> None:
        self.expression = expression
        self._w = weights
        mass = weights.mass
        self.residual = Fraction(weights.denominator - mass, weights.denominator)
        self.min = min(weights.weights)
        self.max = max(weights.weights)
        self._mass = mass

    @cached_property
    def probabilities(self) -> dict[int, Fraction]:
        d = self._w.denominator
        return {v: Fraction(self._w.weights[v], d) for v in sorted(self._w.weights)}

    @cached_property
    def mean_exact(self) -> Fraction:
        """The mean of the computed outcomes (for a cut chain, of all but the neglected tail)."""
        return Fraction(sum(v * w for v, w in self._w.weights.items()), self._mass)

    @property
    def mean(self) -> float:
        return float(self.mean_exact)

    @cached_property
    def variance_exact(self) -> Fraction:
        m = self.mean_exact
        second = Fraction(sum(v * v * w for v, w in self._w.weights.items()), self._mass)
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
