"""Checks made once, after parsing and before any die is rolled.

Everything that could go wrong while rolling is found here instead, so a valid expression never
fails on an unlucky roll: a count that could be negative, a divisor that could be zero, a
reroll that matches every face, an explosion that would never stop, too many dice.
Bounds are intervals (``INF`` for explosions and open-ended rolls).
"""

from __future__ import annotations

from rollbook.dice import faces as F
from rollbook.dice import limits
from rollbook.dice.errors import DiceError
from rollbook.dice.functions import FUNCTIONS, INF, power_bounds
from rollbook.dice.tree import Chain, Dice, Expression, Function, Group, Keep, Negate, Node, Number, Parens, Value

Bounds = tuple[float, float]
MAX_EXPONENT = 1_000  # 2^1000 has 302 digits: any larger power is a typo, and slow to print
MAX_OPEN_EXPONENT = 10  # the exponent of a base that can explode: its chains can run long
MAX_TOTAL = 1e300  # beyond, a total (or its mean) no longer fits a float, which JSON and the page need
MAX_SIDES_SPAN = 100  # computed sides with conditions are checked one by one, for at most this many sizes


def check(expr: Expression) -> Bounds:
    """Raise DiceError for anything that cannot be rolled; return the bounds of the total."""
    return bounds(expr.root, DiceCounter())


def check_rolls(expr: Expression) -> tuple[int, float]:
    """``check``, and the fewest and the most dice one roll of it can roll (``INF`` when rerolls
    or explosions leave the most open): what limits.Budget.plan needs before rolling."""
    counter = DiceCounter()
    lo, hi = bounds(expr.root, counter)
    largest = max(abs(lo), abs(hi))
    if largest > MAX_TOTAL and (largest != INF or not counter.open):  # INF without explosions: float overflow
        raise DiceError("this total can be far too large to show or to work with", column=1,
                        hint="multiply or raise to a power less")
    return counter.least, counter.most


class DiceCounter:
    def __init__(self) -> None:
        self.total = 0  # dice written (each term's largest count)
        self.least = 0  # dice rolled, at the fewest
        self.most: float = 0  # dice rolled, at the most
        self.open = False  # some dice explode or are open-ended: a bound of INF is theirs

    def add(self, n: float, column: int) -> None:
        self.total += int(n)
        limits.check_dice(self.total, column or None)

    def rolls(self, fewest: int, most: int, each: float) -> None:
        """A term of ``fewest`` to ``most`` dice, each rolled up to ``each`` times."""
        self.least += fewest
        self.most += _mul(most, each)


def _mul(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b


def _div(a: float, b: float) -> float:
    if a in (INF, -INF):
        return a if b > 0 else -a
    if b in (INF, -INF):
        return 0
    return a / b


def whole(node: Node) -> bool:
    """Is every value of this node a whole number? (Counts and sides must be; '/' and decimals
    may make fractions, and a power of a fraction stays one.)"""
    if isinstance(node, Number):
        return isinstance(node.value, int)
    if isinstance(node, (Dice, Group)):
        return all(whole(i) for i in node.items) if isinstance(node, Group) else True
    if isinstance(node, (Negate, Parens)):
        return whole(node.operand if isinstance(node, Negate) else node.inner)
    if isinstance(node, Function):
        f = FUNCTIONS[node.name]
        return f.whole or (f.keeps_whole and all(whole(a) for a in node.args)) or \
            (node.name == "pow" and _whole_power(*node.args))
    ops = [op for op, _ in node.rest]
    if "/" in ops:
        return False
    if ops == ["^"]:
        return _whole_power(node.first, node.rest[0][1])
    return whole(node.first) and all(whole(o) for _, o in node.rest)


def _whole_power(base: Node, exponent: Node) -> bool:
    return whole(base) and whole(exponent) and bounds(exponent, DiceCounter())[0] >= 0


def _divisor(blo: float, bhi: float, column: int, word: str = "divisor") -> None:
    if blo <= 0 <= bhi:
        what = "is zero" if blo == bhi == 0 else f"can be zero (it ranges from {_show(blo)} to {_show(bhi)})"
        raise DiceError(f"the {word} {what}", column=column or None, hint=f"use a {word} that cannot be 0")


def _power(base: Bounds, exponent: Bounds, node: Chain | Function, column: int) -> Bounds:
    """``a ^ b`` and ``pow(a, b)``: refused where a roll could have no answer or a huge one."""
    exp_node = node.rest[0][1] if isinstance(node, Chain) else node.args[1]
    if max(abs(exponent[0]), abs(exponent[1])) > MAX_EXPONENT:
        raise DiceError(f"an exponent can be at most {MAX_EXPONENT:,} either way", column=column or None)
    if INF in (abs(base[0]), abs(base[1])) and max(abs(exponent[0]), abs(exponent[1])) > MAX_OPEN_EXPONENT:
        raise DiceError(f"a base that can explode can be raised to a power of at most {MAX_OPEN_EXPONENT}",
                        column=column or None, hint="e.g. (1d6!)^2")
    if not whole(exp_node):
        if base[0] < 0:
            raise DiceError("a power with an exponent that is not whole needs a base that cannot be negative",
                            column=column or None, hint="e.g. pow(2d6, 0.5), or round the exponent: pow(2d6, floor(1d4/2))")
        if base[0] <= 0 and exponent[0] < 0:
            _divisor(base[0], base[1], column, "base of a negative power")
        return (0, INF) if base[1] in (INF, -INF) else (0, max(float(base[1]) ** e for e in (float(exponent[0]), float(exponent[1]))) + 1)
    if exponent[0] < 0:
        _divisor(base[0], base[1], column, "base of a negative power")
    lo, hi = power_bounds(base, exponent)
    finite = all(x not in (INF, -INF) for x in (*base, *exponent))
    if finite and max(abs(lo), abs(hi)) > 1e300:
        raise DiceError("this power can be far too large to work with", column=column or None,
                        hint="use a smaller base or exponent")
    return lo, hi


def bounds(node: Node, counter: DiceCounter) -> Bounds:
    if isinstance(node, Number):
        return float(node.value), float(node.value)
    if isinstance(node, Parens):
        return bounds(node.inner, counter)
    if isinstance(node, Negate):
        lo, hi = bounds(node.operand, counter)
        return -hi, -lo
    if isinstance(node, Chain):
        lo, hi = bounds(node.first, counter)
        for (op, operand), column in zip(node.rest, node.columns or [0] * len(node.rest)):
            blo, bhi = bounds(operand, counter)
            if op == "+":
                lo, hi = lo + blo, hi + bhi
            elif op == "-":
                lo, hi = lo - bhi, hi - blo
            elif op == "*":
                corners = [_mul(x, y) for x in (lo, hi) for y in (blo, bhi)]
                lo, hi = min(corners), max(corners)
            elif op == "/":
                _divisor(blo, bhi, column)
                corners = [_div(x, y) for x in (lo, hi) for y in (blo, bhi)]
                lo, hi = min(corners), max(corners)
            elif op == "%":
                _divisor(blo, bhi, column)
                lo, hi = (0, bhi) if blo > 0 else (blo, 0)
            else:
                lo, hi = _power((lo, hi), (blo, bhi), node, column)
        return lo, hi
    if isinstance(node, Function):
        return _function_bounds(node, counter)
    if isinstance(node, Dice):
        return _dice_bounds(node, counter)
    if isinstance(node, Group):
        return _group_bounds(node, counter)
    raise TypeError(node)


def _function_bounds(node: Function, counter: DiceCounter) -> Bounds:
    f = FUNCTIONS[node.name]
    args = [bounds(a, counter) for a in node.args]
    if f.domain and not f.accepts(args[0]):
        lo, hi = args[0]
        raise DiceError(f"the value inside {node.name}() {f.domain} (it ranges from {_show(lo)} to {_show(hi)})",
                        column=node.column or None)
    if node.name == "pow":
        return _power(args[0], args[1], node, node.column)
    return f.bounds(*args)


def _group_bounds(node: Group, counter: DiceCounter) -> Bounds:
    if node.pools_dice:
        return _pool_bounds(node, counter)
    items = [bounds(i, counter) for i in node.items]
    if node.success is not None:
        return -len(items) if node.failure else 0, len(items)
    los = sorted(b[0] for b in items)
    his = sorted(b[1] for b in items)
    lo, hi = kept_range(node.keep, len(items))
    return sum(los[lo:hi]), sum(his[lo:hi])


def pool_terms(node: Group) -> list[Dice | Number]:
    """The terms of ``{4d6+3d8+2}k4`` or ``{3d20+5}>21``, whose dice are pooled: dice added
    together, and numbers added or taken away (a number taken away comes back negated)."""
    item = node.items[0]
    terms: list[Node] = [item.first] if isinstance(item, Chain) else [item]
    for op, operand in item.rest if isinstance(item, Chain) else ():
        if op == "-" and isinstance(operand, Number):
            operand = Number(-operand.value, operand.column, operand.label)
        elif op != "+":
            terms = []  # refused below
            break
        terms.append(operand)
    if not terms or not all(isinstance(t, (Dice, Number)) for t in terms):
        what = "counting successes" if node.success is not None else "keep or drop"
        raise DiceError(f"{what} in a group of one expression acts on its dice, so the expression may only add "
                        "dice together and add or take away numbers", column=node.column or None,
                        hint="e.g. {4d6+3d8}k4 or {3d20+5}>21; to act on whole totals, separate them with commas: "
                             "{2d6*2, 1d12}k1")
    return terms  # type: ignore[return-value]  # checked just above


def pool_offset(node: Group) -> Value:
    """``{3d20+5}>21``: the numbers of a pooled group, added to each die before it is counted as
    a success or failure (Roll20's reading); with keep or drop alone they are added once."""
    return sum((t.value for t in pool_terms(node) if isinstance(t, Number)), 0)


def _pool_bounds(node: Group, counter: DiceCounter) -> Bounds:
    lo = hi = 0.0
    dice = 0
    for term in pool_terms(node):
        tlo, thi = bounds(term, counter)
        if isinstance(term, Dice):
            if term.keep or term.success is not None:
                raise DiceError("a die pooled in a group is kept, dropped or counted by the group",
                                column=term.column or None, hint="e.g. {4d6+3d8}k4, not {4d6kh3+3d8}k4")
            dice += int(bounds(term.count, DiceCounter())[1])
            tlo, thi = min(tlo, 0), max(thi, 0)
        lo, hi = lo + tlo, hi + thi
    if node.success is not None:
        return -dice if node.failure else 0, dice
    return lo, hi


def _show(x: float) -> str:
    return "any size" if x in (INF, -INF) else str(int(x))


def kept_range(keeps: tuple[Keep, ...], n: int) -> tuple[int, int]:
    """Which of ``n`` dice (or group items) the keep/drop modifiers leave, as ranks from the lowest:
    ``lo`` up to (not including) ``hi``. Each modifier decides on the whole pool, as in
    rpg-dice-roller, so ``4d10dh1dl2`` keeps the second highest, and ``3d10k1dh1`` nothing."""
    lo, hi = 0, n
    for keep in keeps:
        if keep.mode == "kh":
            lo = max(lo, n - keep.count)
        elif keep.mode == "kl":
            hi = min(hi, keep.count)
        elif keep.mode == "dh":
            hi = min(hi, n - keep.count)
        else:
            lo = max(lo, keep.count)
    return (lo, hi) if lo < hi else (0, 0)


def kept_count(keeps: tuple[Keep, ...], n: int) -> int:
    lo, hi = kept_range(keeps, n)
    return hi - lo


def finite(node: Node, counter: DiceCounter, what: str, column: int) -> tuple[int, int]:
    lo, hi = bounds(node, counter)
    if lo in (INF, -INF) or hi in (INF, -INF):
        raise DiceError(f"the {what} must have a limit, so it cannot explode or be open-ended", column=column or None)
    if not whole(node):
        raise DiceError(f"the {what} must be a whole number, and this one can be a fraction",
                        column=column or None, hint="round it, e.g. floor(7/2)d6")
    return int(lo), int(hi)


def _dice_bounds(d: Dice, counter: DiceCounter) -> Bounds:
    column = d.column
    cmin, cmax = finite(d.count, counter, "number of dice", column)
    if cmin < 0:
        what = f"cannot roll {cmin} dice" if cmin == cmax else f"the number of dice can be negative (as low as {cmin})"
        raise DiceError(what, column=column or None, hint="roll 0 or more dice")
    counter.add(cmax, column)
    counter.rolls(cmin, cmax, _rolls_per_die(d))
    counter.open = counter.open or bool(d.explode or d.open_ended)
    if isinstance(d.sides, str):
        F.validate(d, d.sides)
        values = _roll_values(d, d.sides)
    else:
        smin, smax = finite(d.sides, counter, "number of sides", column)
        if smin < 1 and smin != smax:
            raise DiceError(f"the number of sides can be below 1 (as low as {smin})", column=column or None)
        limits.check_sides(smax, column or None)
        if smin == smax or d.reroll or d.explode or d.open_ended:
            if smax - smin > MAX_SIDES_SPAN:
                raise DiceError(f"computed sides with rerolls, explosions or open ends may vary by at most "
                                f"{MAX_SIDES_SPAN} (here {smin} to {smax})", column=column or None)
            values = []
            for s in range(smin, smax + 1):
                F.validate(d, s)
                values.extend(_roll_values(d, s))
        else:
            values = [F.clamp(d, 1), F.clamp(d, smax)]
    vlo, vhi = min(values), max(values)
    if d.unique and not d.unique.once and \
            all(F.any_holds(d.unique.conditions, v) if d.unique.conditions else True for v in values):
        distinct = set(values)
        top = max(distinct)
        # with '!', each exploding face can show once, and adds a die
        extra = sum(1 for v in distinct if F.explodes(d, v, top)) if d.explode else 0
        if cmax + extra > len(distinct):
            more = f" and the {extra} {'die' if extra == 1 else 'dice'} they can add" if extra else ""
            raise DiceError(f"{cmax} dice{more} cannot all show different faces: there are {len(distinct)}",
                            column=d.column_of("unique") or None, hint="roll fewer dice, or reroll duplicates once: uo")
    separate = bool(d.explode and d.explode.kind in ("!", "!p"))  # extra dice of their own
    if d.match and d.match.total:
        if separate:  # as many dice as explode, but a set per face at most
            shown = set(values) | ({v - 1 for v in values} if d.explode and d.explode.kind == "!p" else set())
            cond = d.match.condition
            return 0, sum(1 for v in shown if cond is None or cond.holds(v))
        return 0, cmax // d.match.size
    lo: float = vlo
    hi: float = vhi
    if d.explode:
        hi = INF
        if vlo - (1 if d.explode.kind.endswith("p") else 0) < 0:
            lo = -INF
    if d.open_ended:
        lo = -INF if d.open_ended.ends in ("both", "low") else lo
        hi = INF if d.open_ended.ends in ("both", "high") else hi
    nmin: float = cmin
    nmax: float = cmax
    if d.keep:
        nmin, nmax = kept_count(d.keep, cmin), kept_count(d.keep, cmax)
        if separate:  # the pool grows as dice explode: keep at most the kh/kl counts
            nmin = 0
            nmax = min([k.count for k in d.keep if k.mode in ("kh", "kl")], default=INF)
    elif separate:
        nmax = INF
    if d.success is not None:
        return (-nmax if d.failure else 0), nmax
    return min(_mul(nmin, lo), _mul(nmax, lo)), max(_mul(nmin, hi), _mul(nmax, hi))


def _rolls_per_die(d: Dice) -> float:
    """The most times one die of the term is rolled: 'ro' twice; 'r', '!' and 'oe' open-ended."""
    if d.explode or d.open_ended or (d.reroll and not d.reroll.once) or (d.unique and not d.unique.once):
        return INF
    return (2 if d.reroll else 1) * (2 if d.unique else 1)


def _roll_values(d: Dice, sides: int | str) -> list[int]:
    return list(F.roll_weights(d, F.faces_of(sides)))
