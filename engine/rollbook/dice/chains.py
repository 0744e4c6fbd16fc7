"""One die's value, and chains that may go on for ever: rerolled, clamped, exploding, penetrating
and open-ended dice, and pools that grow as their dice explode. A chain is cut where the
neglected probability is below the tolerance, and that mass is reported as ``residual``."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Callable

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.tree import Dice, Value
from rollbook.dice.weights import (Pool, Weights, add, check_cells, dense, disjoint_sum, is_whole, map_values, meter,
                                   mixture, negate, poly_power, shifted, sparse, split, weight_digits)


TOLERANCE = Fraction(1, 10**12)  # the most probability an expression may neglect


MAX_CHAIN_LEVELS = 200


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
        return disjoint_sum(stop, add(go, later_sum))
    p_next = Fraction(go_next.mass, go_next.denominator)
    later = Weights(dict(stop_next.weights), stop_next.denominator)  # the last roll counted
    going *= p_next
    if going >= tol and p_next ** MAX_CHAIN_LEVELS * going >= tol:  # refused before any work: d100!>1
        raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS,
                               hint="explode on fewer faces to get exact odds")
    levels = 0
    while going >= tol:
        later = disjoint_sum(stop_next, add(go_next, later))
        going *= p_next
        levels += 1
        if levels > MAX_CHAIN_LEVELS:
            raise limits.too_many("levels in an exploding chain", MAX_CHAIN_LEVELS)
    return disjoint_sum(stop, add(go, later))


MAX_GEOMETRIC_LEVELS = 2_000  # rolls that go on, followed exactly in one chain (d20!>=3 needs 263)


def geometric_chain(stop: Weights, go: Weights, tol: Fraction) -> Weights | None:
    """A chain whose every roll continues with ``go`` (each value at least 1) and ends with
    ``stop``: ``sum over k of go^k * stop`` for ``k`` up to the first ``K`` where the chance of
    more, p^(K+1), is below ``tol`` (as ``chain`` cuts it, level by level). With ``D`` the roll's
    denominator, ``c = sum(go^k D^(K-k))`` is ``(D^(K+1) - go^(K+1)) / (D - go)``, an exact
    division of polynomials done from the lowest power: one big power and one pass over the
    totals, instead of a convolution per level. None when it does not apply."""
    d = go.denominator
    if stop.denominator != d or not go.weights or not (is_whole(go) and is_whole(stop)) or min(go.weights) < 1:
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
    width = weight_digits(d ** (levels + 1))
    check_cells(span + max(stop.weights) - min(stop.weights), width)
    dense_go = dense(go.weights, 0, gmax)
    top = poly_power(dense_go, levels + 1, d ** (levels + 1)) if levels + 1 > 1 else dense_go
    meter.charge(span * len(go.weights) * (width // 100 + 2))  # a multiply-add of width digits a step
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
    q = Weights(sparse(c, 0), d ** levels)
    return add(q, stop)


@lru_cache(maxsize=256)
def die_value(d: Dice, sides: int | str, tol: Fraction) -> Weights:
    """The value one die of this term counts for: rerolled, clamped, exploded or open-ended."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))
    if d.explode is not None:
        top = max(raw)
        go, stop = split(roll, lambda v: F.explodes(d, v, top))
        if d.explode.kind.endswith("p"):  # the sum of a penetrating die's rolls, separate or compounded
            return chain(stop, go, shifted(go, -1), shifted(stop, -1), tol)
        return chain(stop, go, None, None, tol)
    if d.open_ended is not None:
        low, high, again = F.open_ends(d, faces)
        go, stop = split(roll, lambda v: v >= again)
        more = chain(stop, go, None, None, tol)  # one added (or subtracted) chain
        up, rest = split(roll, lambda v: high is not None and v >= high)
        down, middle = split(rest, lambda v: low is not None and v <= low)
        total = Weights(middle.weights, middle.denominator)
        if up.weights:
            total = disjoint_sum(total, add(up, more))
        if down.weights:
            total = disjoint_sum(total, add(down, negate(more)))
        return total
    return roll


def success_count(d: Dice, sides: int | str, score: Callable[[Value], Value], tol: Fraction) -> Weights:
    """Successes (less failures) one die of a '!' or '!p' term scores: each die of its explosion
    chain counts, a penetrating one for what it shows after the -1."""
    faces = F.faces_of(sides)
    raw = F.roll_weights(d, faces)
    roll = Weights(raw, sum(raw.values()))  # type: ignore[arg-type]
    top = max(raw)
    go, stop = split(roll, lambda v: F.explodes(d, v, top))  # type: ignore[arg-type]
    as_count = lambda part: map_values(part, score)  # noqa: E731
    if d.explode is not None and d.explode.kind == "!p":
        return chain(as_count(stop), as_count(go), as_count(shifted(go, -1)), as_count(shifted(stop, -1)), tol)
    return chain(as_count(stop), as_count(go), None, None, tol)


def negative_binomial(n: int, p: Fraction, tol: Fraction) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """P(x explosions) for ``n`` dice that each explode with chance ``p`` (every extra die too):
    C(n + x - 1, x) p^x (1 - p)^n, until less than ``tol`` is left; and what is left."""
    out: list[tuple[int, Fraction]] = []
    left = Fraction(1)
    x = 0
    while left >= tol or not out:
        meter.charge((n + x) * 10)
        px = math.comb(n + x - 1, x) * p**x * (1 - p) ** n if n else Fraction(x == 0)
        out.append((x, px))
        left -= px
        x += 1
        if x > MAX_GEOMETRIC_LEVELS:  # each level is metered: the limit only stops the hopeless
            raise limits.too_many("levels in an exploding chain", MAX_GEOMETRIC_LEVELS)
    return out, left


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
    go, stop = split(roll, lambda v: F.explodes(d, v, top))  # type: ignore[arg-type]
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
        meter.charge((n + 1) * n * 20)  # n + 1 laws of exact fractions with about n digits each
        later_go, later_stop = shifted(go, -1), shifted(stop, -1)
        for g in range(n + 1):
            pg = math.comb(n, g) * p**g * (1 - p) ** (n - g)
            laws, _ = negative_binomial(g, p, tol / (n + 1))
            for x, px in laws:
                parts.append((pg * px, measure([(stop, n - g), (go, g), (later_stop, g), (later_go, x)])))
    return mixture(parts)
