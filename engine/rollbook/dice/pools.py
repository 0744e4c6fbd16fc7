"""Counts over a whole pool of dice: unique dice (``u``, ``uo``, with or without ``!``) and
matches (``mt``), each one pass over the faces or over the sets of faces seen."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Callable

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.chains import MAX_CHAIN_LEVELS
from rollbook.dice.checks import kept_range
from rollbook.dice.functions import tidy
from rollbook.dice.tree import Dice, Keep, Match, Value
from rollbook.dice.weights import (Pool, Weights, check_cells, constant, meter, mixture, sparse, unpack_int,
                                   weight_bytes, weight_digits)


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
        meter.charge(len(states) * len(raw) * 400)  # exact fractions, sets and sorted tuples: about 15 us a step
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
    nbytes = weight_bytes(bound)
    bits = nbytes * 8
    check_cells(span, weight_digits(bound))
    meter.charge(len(values) * (n + 1) * (span * weight_digits(bound) // 300 + 25))
    ways = [0] * (n + 1)
    ways[0] = 1
    for s in scores:
        shift = (s - smin) * bits
        for j in range(n - 1, -1, -1):  # from the top, so each face is chosen once
            if ways[j]:
                ways[j + 1] += ways[j] << shift if lo <= j < hi else ways[j]
    final = ways[n]
    coeffs = unpack_int(final, (max(scores) - smin) * take + 1 if take else 1, nbytes)
    return Weights(sparse(coeffs, smin * take), bound)


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
        meter.charge(len(states) * len(raw) * 400)  # as unique_pool: about 15 us a step
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
        bits = weight_bytes(bound) * 8
        span = (max(scores) - smin) * max(take, 1) + 1
        check_cells(span, weight_digits(bound))
        meter.charge(len(values) * (n + 1) * (x + 1) * (span * weight_digits(bound) // 300 + 25))
        ways: dict[tuple[int, int], int] = {(0, 0): 1}
        for s, h in zip(scores, hot):
            shift = (s - smin) * bits
            for (i, j), w in sorted(ways.items(), reverse=True):  # from the top: each face chosen once
                if (h and j < x) or (not h and i < n):
                    key = (i, j + 1) if h else (i + 1, j)
                    ways[key] = ways.get(key, 0) + (w << shift if lo <= i + j < hi else w)
        final = ways.get((n, x), 0)
        coeffs = unpack_int(final, (max(scores) - smin) * take + 1 if take else 1, bits // 8)
        parts.append((px, Weights(sparse(coeffs, smin * take), bound)))
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
            meter.charge(math.prod(len(c) for c in choices) * 4)
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
    meter.charge(len(values) * (n + 1) * (n + 2) // 2 * (n // match.size + 1) * 2)
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
