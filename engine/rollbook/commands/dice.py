"""The dice commands: ``roll`` an expression, or ask for its exact odds with ``prob``."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Annotated, Sequence

from rollbook.commands import Arg, Result, command, percent
from rollbook.dice import Budget, canonical, distribution, limits, parse, plan, roll
from rollbook.dice.exact import total_order
from rollbook.dice.functions import tidy
from rollbook.dice.notation import number_text
from rollbook.dice.results import json_number
from rollbook.dice.tree import Value
from rollbook.errors import LimitError, RollbookError

EXPRESSION = Arg("a dice expression, such as 4d6kh3, 1d20+5 or d%", metavar="EXPR", dice=True,
                 ask="the dice to roll, such as 2d6, 1d20+5 or 4d6kh3")
VALUES = Arg("a value for a name in the expression, such as STR=3 for 2d10+STR (one for each name; "
             "names are letters, matched whatever their case)", metavar="NAME=VALUE", flag="--var")
TABLE_ROWS = 60  # outcomes listed in the text; the distribution always has them all


@command("roll")
def roll_command(
    expression: Annotated[str, EXPRESSION],
    *,
    count: Annotated[int, Arg("roll it this many times (the total is then their sum)", metavar="K")] = 1,
    vars: Annotated[dict[str, int] | None, VALUES] = None,
    rng: random.Random,
) -> Result:
    """Roll dice: every die, the breakdown and the total."""
    if count < 1:
        raise RollbookError(f"roll at least once, not {count} times", fields=("count",))
    if count > limits.MAX_REPEATS:
        raise LimitError(f"at most {limits.MAX_REPEATS:,} rolls at once, not {count:,}", fields=("count",))
    budget = Budget()  # one limit on the dice rolled for the whole request
    plan(expression, count, budget, vars)
    results = [roll(expression, rng, budget, vars) for _ in range(count)]
    if count == 1:
        return results[0].to_json()
    first = results[0]
    # each die is listed once, in "dice" (its term says which roll it belongs to): JSON stays small
    dice = [dict(term, roll=i) for i, r in enumerate(results, 1) for term in r.dice]
    return {
        "expression": first.expression,
        "label": first.label,
        "count": count,
        "total": json_number(tidy(sum(r.total for r in results))),
        "totals": [json_number(r.total) for r in results],
        "text": "\n".join(r.text for r in results),
        "dice": dice,
        "rolls": [{"total": json_number(r.total), "text": r.text} for r in results],
    }


@command("prob")
def prob_command(
    expression: Annotated[str, EXPRESSION],
    *,
    at_least: Annotated[int | None, Arg("also give the chance of a total of T or more", metavar="T")] = None,
    at_most: Annotated[int | None, Arg("also give the chance of a total of T or less", metavar="T")] = None,
    vars: Annotated[dict[str, int] | None, VALUES] = None,
    estimate: Annotated[int | None, Arg(
        "estimate the odds from N seeded rolls instead (for what exact odds refuse as too large or too slow); "
        "the answer says it is an estimate, with its sample size and margin", metavar="N")] = None,
    rng: random.Random,
) -> Result:
    """Exact odds of a dice expression: every total with its probability, mean and spread."""
    if estimate is not None:
        return _estimate(expression, estimate, at_least, at_most, vars, rng)
    dist = distribution(expression, vars)
    probabilities = dist.probabilities
    result: Result = {
        "expression": dist.expression,
        "mean": dist.mean,
        "mean_exact": str(dist.mean_exact),
        "stdev": dist.stdev,
        "min": json_number(dist.min),
        "max": json_number(dist.max),
        "residual": str(dist.residual),
        # totals as text: 3, 3.5 or 10/3 (a total can be a fraction once '/' or a decimal is used)
        "distribution": {number_text(v): str(p) for v, p in probabilities.items()},
    }
    lines = [f"{dist.expression}: mean {dist.mean:.4g}, standard deviation {dist.stdev:.4g}, "
             f"from {number_text(dist.min)} to {number_text(dist.max)}"]
    if dist.residual:
        lines.append(f"(chains cut where less than {float(dist.residual):.1e} of the probability is left out)")
    for name, symbol, target, bounds in (("at_least", ">=", at_least, dist.p_at_least_bounds),
                                          ("at_most", "<=", at_most, dist.p_at_most_bounds)):
        if target is None:
            continue
        p, p_max = bounds(target)
        result[name] = target
        result[f"p_{name}"] = str(p)
        result[f"p_{name}_max"] = str(p_max)  # the same unless the residual (a cut chain's tail) may count
        if p_max == p:
            lines.append(f"P(total {symbol} {target}) = {p} ≈ {percent(p)}")
        else:
            lines.append(f"P(total {symbol} {target}) is between {p} and {p_max} ≈ {percent(p)} "
                         "(the residual left out may count or not)")
    rows = list(probabilities.items())
    width = max(len(number_text(v)) for v, _ in rows)
    peak = max(p for _, p in rows)
    shown = rows if len(rows) <= TABLE_ROWS else _around_mean(rows, dist.mean)
    for v, p in shown:
        bar = "█" * round(30 * p / peak)
        lines.append(f"{number_text(v):>{width}}  {percent(p):>9}  {bar}")
    if len(shown) < len(rows):
        lines.append(f"({len(rows) - len(shown):,} rarer totals not shown; the distribution lists them all)")
    result["text"] = "\n".join(lines)
    return result


# An estimate rolls at most this many times, and at most ESTIMATE_DICE dice in all (rerolls and
# explosions included): about half a second on a laptop, a second or two in the browser.
MAX_ESTIMATE_ROLLS = 10_000
ESTIMATE_DICE = 1_000_000
Z95 = 1.96  # a 95% interval


def _estimate(expression: str, times: int, at_least: int | None, at_most: int | None,
              vars: dict[str, int] | None, rng: random.Random) -> Result:
    """The odds estimated by rolling: each total's share of ``times`` rolls (fewer when the dice
    run out: the answer says how many), the margin of a 95% interval for any one chance."""
    if times < 1 or times > MAX_ESTIMATE_ROLLS:
        raise LimitError(f"an estimate takes 1 to {MAX_ESTIMATE_ROLLS:,} rolls, not {times:,}", fields=("estimate",))
    budget = Budget(ESTIMATE_DICE)
    plan(expression, 1, budget, vars)  # one roll at least must fit
    counts: dict[Value, int] = {}
    rolled = 0
    for _ in range(times):
        before = budget.left
        try:
            total = roll(expression, rng, budget, vars).total
        except LimitError:
            if rolled == 0:
                raise
            break  # the dice ran out: the estimate rests on the rolls made
        counts[total] = counts.get(total, 0) + 1
        rolled += 1
        if budget.left < (before - budget.left):  # another roll like this one would not fit
            break
    totals = sorted(counts, key=total_order)
    mean = sum(float(v) * c for v, c in counts.items()) / rolled
    var = sum((float(v) - mean) ** 2 * c for v, c in counts.items()) / rolled
    margin = Z95 * (0.25 / rolled) ** 0.5  # the widest 95% interval of one chance: at p = 1/2
    result: Result = {
        "expression": _canonical(expression, vars),
        "estimate": True,
        "rolls": rolled,
        "margin": margin,
        "mean": mean,
        "stdev": var ** 0.5,
        "min": json_number(totals[0]),
        "max": json_number(totals[-1]),
        "residual": "0",
        "distribution": {number_text(v): str(Fraction(counts[v], rolled)) for v in totals},
    }
    lines = [f"{result['expression']}: ESTIMATED from {rolled:,} rolls (not exact): mean about {mean:.4g}, "
             f"standard deviation about {result['stdev']:.4g}; each chance within ±{margin * 100:.2g} points (95%)"]
    for name, symbol, target in (("at_least", ">=", at_least), ("at_most", "<=", at_most)):
        if target is None:
            continue
        hits = sum(c for v, c in counts.items() if (v >= target if name == "at_least" else v <= target))
        p = Fraction(hits, rolled)
        result[name] = target
        result[f"p_{name}"] = result[f"p_{name}_max"] = str(p)
        lines.append(f"P(total {symbol} {target}) ≈ {percent(p)} ± {margin * 100:.2g} points (estimated)")
    ranges = _ranges(counts, totals, rolled)
    if ranges:  # many totals, each seen a few times: their shares by range say more
        result["ranges"] = [{"from": a, "to": b, "share": str(share)} for a, b, share in ranges]
        for a, b, share in ranges:
            lines.append(f"{a:>8} to {b:<8}  {percent(share):>9}")
    else:
        for v in totals:
            lines.append(f"{number_text(v):>8}  {percent(Fraction(counts[v], rolled)):>9}")
    result["text"] = "\n".join(lines)
    return result


ESTIMATE_TOTALS = 40  # more whole totals than this in an estimate: shown by range
ESTIMATE_RANGES = 20


def _ranges(counts: dict[Value, int], totals: list[Value], rolled: int) -> list[tuple[int, int, Fraction]]:
    """Whole totals in at most ESTIMATE_RANGES ranges of one width, when there are too many to
    list one by one (an estimate of 1000d100 sees most totals once): (from, to, share)."""
    if len(totals) <= ESTIMATE_TOTALS or not all(type(v) is int for v in totals):
        return []
    whole = {int(v): c for v, c in counts.items()}
    lo, hi = min(whole), max(whole)
    width = -(-(hi - lo + 1) // ESTIMATE_RANGES)
    hits: dict[int, int] = {}
    for v, c in whole.items():
        start = lo + (v - lo) // width * width
        hits[start] = hits.get(start, 0) + c
    return [(start, min(start + width - 1, hi), Fraction(hits.get(start, 0), rolled))
            for start in range(lo, hi + 1, width)]


def _canonical(expression: str, vars: dict[str, int] | None) -> str:
    return canonical(parse(expression, vars))


def _around_mean(rows: Sequence[tuple[Value, Fraction]], mean: float) -> list[tuple[Value, Fraction]]:
    """The TABLE_ROWS most likely totals, in order: the readable middle of a wide distribution."""
    top = sorted(rows, key=lambda r: r[1], reverse=True)[:TABLE_ROWS]
    return sorted(top)
