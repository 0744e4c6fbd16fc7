"""Rolling a checked syntax tree: the dice fall, modifiers apply in their fixed order.

Per die: roll (and reroll) each face, clamp it (mi/ma), explode or open the roll; then over the
dice: keep/drop, then count successes. Randomness comes from the ``rng`` passed in, so a seed
reproduces a roll exactly (``random.Random`` is the same generator on CPython and in Pyodide).
"""

from __future__ import annotations

import operator
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from rollbook.dice import faces as F
from rollbook.dice.checks import kept_range, pool_offset
from rollbook.dice import limits
from rollbook.dice.functions import FUNCTIONS, divide, modulo, power, tidy, tidy_sum
from rollbook.dice.limits import Budget
from rollbook.dice.results import Die, DiceResult, GroupResult, ResultNode, ValueResult
from rollbook.dice.tree import Chain, Condition, Dice, Function, Group, Keep, Match, Negate, Node, Number, Parens, Value


@dataclass(frozen=True)
class DieModel:
    """Everything about one die that does not change from roll to roll."""

    faces: Sequence[int]
    top: int  # the highest value a roll can show: bare '!' explodes on it
    standing: tuple[int, ...]  # faces an 'r' reroll leaves: drawn directly after MAX_REROLLS
    low: int | None  # open-ended thresholds (see faces.open_ends)
    high: int | None
    again: int | None
    rerolls: tuple[Condition, ...]  # what r/ro reroll (a bare r: the lowest face)


@lru_cache(maxsize=256)
def model(d: Dice, sides: int | str) -> DieModel:
    faces = F.faces_of(sides)
    weights = F.roll_weights(d, faces)
    standing = tuple(f for f in faces if not (d.reroll and F.any_holds(F.reroll_conditions(d, faces), f)))
    low = high = again = None
    if d.open_ended:
        low, high, again = F.open_ends(d, faces)
    rerolls = F.reroll_conditions(d, faces) if d.reroll else ()
    return DieModel(faces, max(weights), standing, low, high, again, rerolls)


# Every die rolled is spent from the request's budget (limits.Budget, limits.MAX_ROLLED).
Runner = Callable[[random.Random, Budget], ResultNode]  # one node, compiled (see compile_tree)

# '/' divides exactly, as on Roll20 and in rpg-dice-roller; floor() gives the rule books' rounding down
OPERATORS: dict[str, Callable[[Value, Value], Value]] = {"+": operator.add, "-": operator.sub, "*": operator.mul,
                                                       "/": divide, "%": modulo, "^": power}


def evaluate(node: Node, rng: random.Random, budget: Budget) -> ResultNode:
    return _EVALUATE[type(node)](node, rng, budget)


def _number(node: Number, rng: random.Random, budget: Budget) -> ValueResult:
    return ValueResult("number", node.value, label=node.label)


def _function(node: Function, rng: random.Random, budget: Budget) -> ValueResult:
    args = tuple(evaluate(a, rng, budget) for a in node.args)
    return ValueResult("function", FUNCTIONS[node.name].apply(*(a.total for a in args)), args, (node.name,))


def chain_result(first: ResultNode, rest: Sequence[tuple[str, Runner]], ops: tuple[str, ...],
                 rng: random.Random, budget: Budget) -> ValueResult:
    """``a + b - c``, left to right: each operand rolled in turn by its runner."""
    parts = [first]
    total = first.total
    for op, run in rest:
        part = run(rng, budget)
        parts.append(part)
        total = OPERATORS[op](total, part.total)
        if type(total) is not int:  # step by step, as the exact distributions do
            total = tidy(total)
    return ValueResult("chain", total, tuple(parts), ops)


def _chain(node: Chain, rng: random.Random, budget: Budget) -> ValueResult:
    rest = [(op, _evaluator(operand)) for op, operand in node.rest]
    return chain_result(evaluate(node.first, rng, budget), rest, tuple(op for op, _ in node.rest), rng, budget)


def _evaluator(node: Node) -> Runner:
    return lambda rng, budget: evaluate(node, rng, budget)


def _negate(node: Negate, rng: random.Random, budget: Budget) -> ValueResult:
    inner = evaluate(node.operand, rng, budget)
    return ValueResult("negate", -inner.total, (inner,))


def _parens(node: Parens, rng: random.Random, budget: Budget) -> ValueResult:
    inner = evaluate(node.inner, rng, budget)
    return ValueResult("parens", inner.total, (inner,))


def keep_flags(values: Sequence[Value], keep: tuple[Keep, ...]) -> list[bool]:
    """Which values the keep/drop modifiers leave; among equal values the earlier is kept (it ranks
    higher, or lower when only the lowest are kept: ``3d6kh1`` and ``3d6kl1`` both keep the first
    of two equal dice)."""
    n = len(values)
    if not keep:
        return [True] * n
    lo, hi = kept_range(keep, n)
    earlier_lower = lo == 0 and hi < n
    order = sorted(range(n), key=lambda i: (values[i], i if earlier_lower else -i))  # ranks from the lowest
    flags = [False] * n
    for i in order[lo:hi]:
        flags[i] = True
    return flags


def roll_dice(d: Dice, rng: random.Random, budget: Budget) -> DiceResult:
    computed: tuple[ResultNode | None, ResultNode | None] | None = None
    count_node = d.count
    if isinstance(count_node, Number):
        n = int(count_node.value)  # counts and sides were checked to be whole
    else:
        count_result = evaluate(count_node, rng, budget)
        n = int(count_result.total)
        computed = (count_result, None)
    if isinstance(d.sides, str):
        sides: int | str = d.sides
    elif isinstance(d.sides, Number):
        sides = int(d.sides.value)
    else:
        sides_result = evaluate(d.sides, rng, budget)
        sides = int(sides_result.total)
        computed = (computed[0] if computed else None, sides_result)
    budget.spend(n)  # the first roll of each die; rerolls and explosions are spent as they come
    plain = not (d.reroll or d.explode or d.open_ended or d.minimum is not None or d.maximum is not None
                 or sides in ("%", "F.1") or d.unique or d.failure or d.critical_success is not None
                 or d.critical_failure is not None or d.sort or d.match)
    if plain:  # the fast path: faces only
        below = _below(rng)
        if sides == "F":
            faces = [below(3) - 1 for _ in range(n)]
        else:
            size = int(sides)
            faces = [below(size) + 1 for _ in range(n)]
        kept = keep_flags(faces, d.keep) if d.keep else None
        if d.success:
            holds = d.success.holds
            total = sum(1 for i, f in enumerate(faces) if (kept is None or kept[i]) and holds(f))
        elif kept is None:
            total = sum(faces)
        else:
            total = sum(f for f, k in zip(faces, kept) if k)
        return DiceResult(d, sides, total, faces=faces, kept=kept, computed=computed)
    m = model(d, sides)
    dice: list[Die] = []
    if d.unique and d.explode:
        dice = _unique_exploding(d, sides, m, n, rng, budget)
    else:
        for _ in range(n):
            dice.extend(_one_die(d, sides, m, rng, budget))
        if d.unique:
            _make_unique(d, sides, m, dice, rng, budget)
    total = score_dice(dice, d.keep, d.success, d.failure)
    if d.match:
        sets = mark_matches(dice, d.match)
        if d.match.total:
            total = sets
    if d.critical_success is not None or d.critical_failure is not None:
        for die in dice:
            die.critical = F.critical(d, die.value, m.faces)
    if d.sort:
        dice.sort(key=lambda die: die.value, reverse=d.sort == "d")
    return DiceResult(d, sides, total, dice=dice, computed=computed)


def score_dice(dice: list[Die], keep: tuple[Keep, ...], success: Condition | None, failure: Condition | None,
               offset: Value = 0) -> int:
    """Keep or drop among the dice, then their total: the kept values added, or the successes
    counted (less the failures), each die compared with ``offset`` added (``{3d20+5}>21``)."""
    for die, k in zip(dice, keep_flags([die.value for die in dice], keep)):
        die.kept = k
    if success is None:
        return sum(die.value for die in dice if die.kept)
    total = 0
    for die in dice:
        if die.kept:
            die.success = success.holds(die.value + offset)
            die.failure = not die.success and failure is not None and failure.holds(die.value + offset)
            total += die.success - die.failure
    return total


def mark_matches(dice: list[Die], match: Match) -> int:
    """``m``/``mt``: mark the kept dice that belong to a set (``match.size`` or more showing one
    face that meets its condition); the number of such sets."""
    counts: dict[int, int] = {}
    cond = match.condition
    for die in dice:
        if die.kept and (cond is None or cond.holds(die.value)):
            counts[die.value] = counts.get(die.value, 0) + 1
    sets = {v for v, c in counts.items() if c >= match.size}
    for die in dice:
        die.matched = die.kept and die.value in sets
    return len(sets)


def _unique_exploding(d: Dice, sides: int | str, m: DieModel, n: int, rng: random.Random,
                      budget: Budget) -> list[Die]:
    """``u`` with ``!``: each roll is made unique as it is rolled (a duplicate rolled again, as
    ``r`` rerolls), and then explodes or not on the face it ends on; the extra die it adds must
    differ from every die before it too."""
    assert d.unique is not None
    seen: set[int] = set()
    out: list[Die] = []
    for _ in range(n):
        chain: list[Die] = []
        while True:
            die = Die(sides, 0, [], added=bool(chain))
            value = _unique_value(d, sides, m, rng, die, budget, _roll_once(d, sides, m, rng, die, budget), seen)
            die.value = value
            seen.add(value)
            chain.append(die)
            if not F.explodes(d, value, m.top):
                break
            die.exploded = True
            _check_chain(chain, budget)
        out.extend(chain)
    return out


def _make_unique(d: Dice, sides: int | str, m: DieModel, dice: list[Die], rng: random.Random, budget: Budget) -> None:
    """``u``: each die showing a value an earlier die shows (and meeting the compare point, if one
    is given) is rolled again until it does not; ``uo``: once (rpg-dice-roller's order of dice)."""
    seen: set[int] = set()
    for die in dice:
        die.value = _unique_value(d, sides, m, rng, die, budget, die.value, seen)
        seen.add(die.value)


def _unique_value(d: Dice, sides: int | str, m: DieModel, rng: random.Random, die: Die, budget: Budget,
                  value: int, seen: set[int]) -> int:
    """The die showing ``value`` rolled again while (``uo``: once) an earlier die shows it too and it
    meets the condition of ``u``. After limits.MAX_REROLLS rerolls, the rest of the run is drawn
    directly among the faces it can end on (the same odds: each of them was equally likely)."""
    assert d.unique is not None
    conditions = d.unique.conditions

    def bad(v: int) -> bool:
        return v in seen and (not conditions or F.any_holds(conditions, v))

    while bad(value):
        budget.spend(1)
        die.rerolled.append(value)
        die.clamped_from = None
        if len(die.rerolled) > limits.MAX_REROLLS and not (d.reroll and d.reroll.once):
            allowed = [f for f in m.standing if not bad(F.clamp(d, f))]
            face = allowed[rng.randrange(len(allowed))]
            die.rolls.append(face)
            value = F.clamp(d, face)
            if value != face:
                die.clamped_from = face
            break
        value = _roll_once(d, sides, m, rng, die, budget)
        if d.unique.once:
            break
    return value


_RANDRANGE = random.Random.randrange


def _below(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange`` for one argument; for a plain Random or SystemRandom the method behind it
    (the same numbers in the same order, without randrange's argument checks)."""
    if type(rng).randrange is _RANDRANGE and hasattr(rng, "_randbelow"):
        return rng._randbelow  # type: ignore[attr-defined, no-any-return]
    return rng.randrange


def _face(sides: int | str, rng: random.Random, die: Die) -> int:
    """One natural face. d% is two d10 read as tens and units, 00 and 0 being 100."""
    if sides == "%":
        tens, units = rng.randrange(10), rng.randrange(10)
        if die.percentile is None:
            die.percentile = []
        die.percentile.append((tens, units))
        return tens * 10 + units or 100
    if sides == "F":
        return rng.randrange(3) - 1
    if sides == "F.1":
        return F.FATE_ONE_FACES[rng.randrange(6)]
    return rng.randrange(int(sides)) + 1


def _roll_once(d: Dice, sides: int | str, m: DieModel, rng: random.Random, die: Die, budget: Budget) -> int:
    """One roll of the die with its rerolls and clamps: the value it shows (the first roll is
    already spent from the budget, each reroll is spent here)."""
    face = _face(sides, rng, die)
    die.rolls.append(face)
    reroll = d.reroll
    if reroll:
        times = 0
        while F.any_holds(m.rerolls, face):
            budget.spend(1)
            die.rerolled.append(face)
            times += 1
            if times > limits.MAX_REROLLS:  # the rest of a long run: a standing face, drawn directly
                face = m.standing[rng.randrange(len(m.standing))]
            else:
                face = _face(sides, rng, die)
            die.rolls.append(face)
            if reroll.once:
                break
    value = F.clamp(d, face)
    if value != face:
        die.clamped_from = face
    return value


def _one_die(d: Dice, sides: int | str, m: DieModel, rng: random.Random, budget: Budget) -> list[Die]:
    die = Die(sides, 0, [])
    value = _roll_once(d, sides, m, rng, die, budget)
    die.value = value
    explode = d.explode
    if explode is None and d.open_ended is None:
        return [die]
    penetrate = explode is not None and explode.kind.endswith("p")  # each extra roll counts one less
    if explode is not None and explode.kind in ("!", "!p"):  # separate dice
        out = [die]
        natural = value
        while F.explodes(d, natural, m.top):  # penetrating dice explode on what they show before the -1
            out[-1].exploded = True
            _check_chain(out, budget)
            extra = Die(sides, 0, [], added=True, penalty=int(penetrate))
            natural = _roll_once(d, sides, m, rng, extra, budget)
            extra.value = natural - penetrate
            out.append(extra)
        return out
    parts = [value]
    if explode is not None:  # '!!' and '!!p' compound: one die, a chain of parts
        die.penalty = int(penetrate)
        last = value
        while F.explodes(d, last, m.top):
            _check_chain(parts, budget)
            last = _roll_once(d, sides, m, rng, die, budget)
            parts.append(last - penetrate)
    else:
        sign = 0
        if m.high is not None and value >= m.high:
            sign = 1
        elif m.low is not None and value <= m.low:
            sign = -1
        if sign:
            while True:
                _check_chain(parts, budget)
                nxt = _roll_once(d, sides, m, rng, die, budget)
                parts.append(sign * nxt)
                if nxt < m.again:  # type: ignore[operator]
                    break
    die.parts = parts
    die.value = sum(parts)
    return [die]


def _check_chain(parts: list[Die] | list[int], budget: Budget) -> None:
    """One more roll for a chain. Its length is never reached in practice (an explosion triggers on
    at most half the rolls: 2**-100), the request's budget may be."""
    if len(parts) > limits.MAX_CHAIN:
        raise limits.too_many("extra rolls in one chain", limits.MAX_CHAIN)
    budget.spend(1)


def roll_group(g: Group, rng: random.Random, budget: Budget) -> GroupResult:
    if g.pools_dice:
        return _roll_pool(g, rng, budget)
    items = [evaluate(i, rng, budget) for i in g.items]
    values = [i.total for i in items]
    kept = keep_flags(values, g.keep)
    success: list[bool | None] = [None] * len(items)
    failed = [False] * len(items)
    if g.success:
        for i, (v, k) in enumerate(zip(values, kept)):
            if k:
                success[i] = g.success.holds(v)
                failed[i] = not success[i] and g.failure is not None and g.failure.holds(v)
        total: Value = sum(map(bool, success)) - sum(failed)
    elif g.keep:  # in the order the exact distributions add them
        total = tidy_sum(sorted(v for v, k in zip(values, kept) if k))
    else:
        total = tidy_sum(values)
    order = list(range(len(items)))
    if g.sort:
        order.sort(key=lambda i: values[i], reverse=g.sort == "d")
    return GroupResult(g, [items[i] for i in order], [kept[i] for i in order], [success[i] for i in order], total,
                       [failed[i] for i in order])


def _roll_pool(g: Group, rng: random.Random, budget: Budget) -> GroupResult:
    """``{4d6+3d8}k4``, ``{3d20+5}>21``: the dice of every term in one pool, kept, dropped or counted together."""
    offset = pool_offset(g)  # (checks the terms)
    written = g.items[0]
    nodes, ops = ([written.first, *(o for _, o in written.rest)], tuple(op for op, _ in written.rest)) \
        if isinstance(written, Chain) else ([written], ())
    terms = [evaluate(t, rng, budget) for t in nodes]
    rolled = [t for t in terms if isinstance(t, DiceResult)]
    dice = [die for t in rolled for die in t.dice]
    counted = score_dice(dice, g.keep, g.success, g.failure, offset)
    for t in rolled:
        t.total = sum(die.value for die in t.dice if die.kept) if g.success is None else 0
    total = counted if g.success is not None else tidy(tidy_sum([t.total for t in rolled]) + offset)
    item: ResultNode = terms[0] if len(terms) == 1 else ValueResult("chain", total, tuple(terms), ops)
    return GroupResult(g, [item], [True], [None], total, [False])


_EVALUATE: dict[type, Callable[..., ResultNode]] = {Number: _number, Dice: roll_dice, Chain: _chain, Negate: _negate,
                                                    Parens: _parens, Group: roll_group, Function: _function}


# --- compiled rollers ---------------------------------------------------------------------------
# A parsed expression is rolled again and again (a widget, --count, the same attack each round),
# so the common shapes are turned once into closures with their constants bound: no type
# dispatch or attribute lookups per roll. Anything else goes through ``evaluate``.

def compile_tree(node: Node) -> Runner:
    if isinstance(node, Number):
        shared = ValueResult("number", node.value, label=node.label)  # results are never changed: one serves every roll
        return lambda rng, budget: shared
    if isinstance(node, Parens):
        inner = compile_tree(node.inner)
        return lambda rng, budget: _wrap("parens", inner(rng, budget))
    if isinstance(node, Chain):
        return _compile_chain(node)
    if isinstance(node, Dice) and isinstance(node.count, Number) and isinstance(node.sides, Number) \
            and node == Dice(node.count, node.sides, keep=node.keep):
        return _compile_plain(node)
    return _evaluator(node)


def _wrap(kind: str, inner: ResultNode) -> ValueResult:
    return ValueResult(kind, inner.total, (inner,))


def _compile_chain(node: Chain) -> Runner:
    first = compile_tree(node.first)
    rest = [(op, compile_tree(operand)) for op, operand in node.rest]
    ops = tuple(op for op, _ in rest)
    if ops == ("+",):
        second = rest[0][1]

        def plus(rng: random.Random, budget: Budget) -> ValueResult:
            a = first(rng, budget)
            b = second(rng, budget)
            total = a.total + b.total
            return ValueResult("chain", total if type(total) is int else tidy(total), (a, b), ops)

        return plus
    return lambda rng, budget: chain_result(first(rng, budget), rest, ops, rng, budget)


def _compile_plain(d: Dice) -> Runner:
    n = int(d.count.value)  # type: ignore[union-attr]
    sides = int(d.sides.value)  # type: ignore[union-attr]
    keep = d.keep
    if n == 1 and not keep:
        def one(rng: random.Random, budget: Budget) -> DiceResult:
            budget.left -= 1  # budget.spend(1), inlined on the hottest path
            if budget.left < 0:
                budget.spend(0)
            below = rng._randbelow if type(rng).randrange is _RANDRANGE else rng.randrange  # type: ignore[attr-defined]
            face = below(sides) + 1
            return DiceResult(d, sides, face, faces=[face])

        return one

    def many(rng: random.Random, budget: Budget) -> DiceResult:
        budget.left -= n  # budget.spend(n), inlined
        if budget.left < 0:
            budget.spend(0)
        below = rng._randbelow if type(rng).randrange is _RANDRANGE else rng.randrange  # type: ignore[attr-defined]
        faces = [below(sides) + 1 for _ in range(n)]
        if not keep:
            return DiceResult(d, sides, sum(faces), faces=faces)
        kept = keep_flags(faces, keep)
        return DiceResult(d, sides, sum([f for f, k in zip(faces, kept) if k]), faces=faces, kept=kept)

    return many
