"""Exact probability distributions of dice expressions, as fractions: the walk over the
expression's tree, and the answer (``Distribution``).

The work is done elsewhere: ``weights`` (integer weights over one denominator, sums by
Kronecker substitution), ``chains`` (one die: rerolled, exploding, open-ended), ``keeps`` (keep
and drop as order statistics) and ``pools`` (unique dice, matches). Explosions and open-ended
rolls are infinite; their chains are cut where the neglected probability is below 1e-12, and
that mass is reported as ``residual``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cached_property
from typing import Callable

from rollbook.dice.chains import TOLERANCE, die_value, exploding_pool, success_count
from rollbook.dice.checks import DiceCounter, bounds, kept_range, pool_offset, pool_terms
from rollbook.dice.errors import DiceLimitError
from rollbook.dice.functions import FUNCTIONS, divide, modulo, power, tidy
from rollbook.dice.keeps import group_keep, keep, pool_ranks
from rollbook.dice.pools import match_count, pool_match_count, unique_exploding_pool, unique_pool
from rollbook.dice.tree import Chain, Condition, Dice, Expression, Function, Group, Negate, Node, Number, Parens, Value
from rollbook.dice.weights import Pool, Weights, add, constant, map_values, meter, mix, negate, pairwise, repeat_sum

__all__ = ["Distribution", "distribution_of", "die_value", "total_order", "TOLERANCE"]


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
            return pairwise(args[0], args[1], f.apply)
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
        return pairwise(a, b, ARITHMETIC[op])

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


def _infinite_dice(node: Node) -> int:
    """How many exploding or open-ended dice an expression can roll (the tolerance is shared)."""
    total = 0
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Dice):
            if n.explode or n.open_ended:
                total += int(bounds(n.count, DiceCounter())[1])
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
    meter.used = 0
    return Distribution(expression, _Builder(tol).of(expr.root))
