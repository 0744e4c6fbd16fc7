"""Keep and drop: order statistics, never the ``S**N`` outcomes. Dice of one kind kept from one
end, their faces equally likely, have a closed form; any other die takes a pass over the faces
from the nearer end of the kept ranks; several kinds of dice (``{4d6+3d8}k4``) and groups of
expressions have passes of their own."""

from __future__ import annotations

import itertools
import math
import operator
from fractions import Fraction
from typing import Callable

from rollbook.dice import limits
from rollbook.dice.checks import kept_range
from rollbook.dice.functions import tidy, tidy_sum
from rollbook.dice.tree import Keep, Value
from rollbook.dice.weights import Weights, check_cells, constant, meter, sparse, unpack_int, weight_bytes, weight_digits


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
    check_cells(span, weight_digits(bound))
    weights = [die.weights[v] for v in values]
    step = depths[1] if len(depths) > 1 else 0
    if skip == 0 and step > 0 and len(set(weights)) == 1 and all(d == step * p for p, d in enumerate(depths)):
        meter.charge((len(values) * take * (take + 1) // 2 + 2 * take * span) * (weight_digits(bound) // 60 + 2))
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
    width = weight_digits(bound)
    # the moves between counted states, on numbers of up to span * width digits; the others are cheap
    meter.charge(len(depths) * (take * (take + 1) // 2 * (span * width // 600 + 25) + end * end))
    nbytes = weight_bytes(bound)  # binary here: the pass shifts polynomials by whole faces
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
    return unpack_int(final, span, nbytes)


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
    width = weight_digits(bound)
    check_cells(span, width)
    step = span * width // 100 + 150  # a product and a shift of a big integer, and a binomial (measured)
    counts = [count for _, count in groups]
    states_at_most = min(math.prod(min(count, end) + 1 for count in counts), math.comb(end + len(groups), len(groups)))
    if states_at_most * len(values) * (end + 1) * step > 5 * limits.MAX_WORK:  # hopeless: refused before any work
        meter.charge(limits.MAX_WORK + 1)
    nbytes = weight_bytes(bound)
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
            meter.charge(len(states) * step * 2)
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
    return Weights(sparse(coeffs, smin * take), denominator)


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
        meter.charge(len(states) * len(item.weights) * 100)  # a sorted tuple a step: about 4 us
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
