"""Syntax tree back to text: the canonical form of an expression.

``parse(canonical(tree)) == tree`` for every tree the parser builds. Modifiers are printed in
one fixed order (reroll, open-ended, mi, ma, unique, keep/drop, success, failure, cs, cf, sort,
explosion); explosions come last so that a comparison after ``!`` can only be the explosion's own
condition.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rollbook.dice.tree import Chain, Condition, Dice, Expression, Function, Group, Keep, Negate, Node, Number, Parens, Value


def canonical(expr: Expression) -> str:
    text = node_text(expr.root)
    return f"{text} # {expr.label}" if expr.label else text


def number_text(v: Value) -> str:
    """``3``, ``3.5`` (a fraction with a short decimal), ``10/3`` (one without), ``1.41421356237``."""
    if type(v) is int:  # nearly every total: the fast path of every breakdown
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        exact = Decimal(v.numerator) / Decimal(v.denominator)
        if Fraction(exact) == v:
            return format(exact, "f")
        return f"{v.numerator}/{v.denominator}"
    if isinstance(v, float):
        return f"{v:.12g}"
    return str(v)


def label_text(label: str | None) -> str:
    return f"[{label}]" if label else ""


def node_text(node: Node) -> str:
    if isinstance(node, Number):
        return number_text(node.value) + label_text(node.label)
    if isinstance(node, Dice):
        return dice_text(node)
    if isinstance(node, Chain):
        parts = [node_text(node.first)]
        for op, operand in node.rest:
            parts.append(f" {op} {node_text(operand)}")
        return "".join(parts)
    if isinstance(node, Negate):
        return "-" + node_text(node.operand)
    if isinstance(node, Parens):
        return f"({node_text(node.inner)})"
    if isinstance(node, Function):
        return f"{node.name}(" + ", ".join(node_text(a) for a in node.args) + ")"
    if isinstance(node, Group):
        return "{" + ", ".join(node_text(i) for i in node.items) + "}" + group_modifiers_text(node)
    raise TypeError(f"not a dice node: {node!r}")


def face_condition(cond: Condition) -> str:
    """``r1``, ``r<3``, ``!>=5``: equality with a face is written bare."""
    if cond.op == "=" and cond.value >= 0:
        return str(cond.value)
    return f"{cond.op}{cond.value}"


def dice_text(d: Dice, count: str | None = None, sides: str | None = None) -> str:
    """``4d6kh3``; a breakdown passes the rolled ``count``/``sides`` text of computed ones.

    Modifiers without a compare point (a bare ``r``, ``u``, ``cs``, ``cf``) come last, just before
    an explosion, so that no compare point that follows can be read as theirs."""
    if sides is None:
        sides = d.sides if isinstance(d.sides, str) else node_text(d.sides)
    out = [count if count is not None else node_text(d.count), "d", sides]
    bare: list[str] = []
    if d.reroll:
        word = "ro" if d.reroll.once else "r"
        out.extend(word + face_condition(c) for c in d.reroll.conditions)
        if not d.reroll.conditions:
            bare.append(word)
    if d.open_ended:
        word = {"both": "oe", "low": "oel", "high": "oeh"}[d.open_ended.ends]
        out.append(word + (str(d.open_ended.width) if d.open_ended.width != 1 else ""))
    if d.minimum is not None:
        out.append(f"mi{d.minimum}")
    if d.maximum is not None:
        out.append(f"ma{d.maximum}")
    if d.unique:
        word = "uo" if d.unique.once else "u"
        out.extend(word + f"{c.op}{c.value}" for c in d.unique.conditions)
        if not d.unique.conditions:
            bare.append(word)
    out.append(keep_success_text(d.keep, d.success, d.failure))
    for word, marks in (("cs", d.critical_success), ("cf", d.critical_failure)):
        if marks is not None:
            out.extend(word + f"{c.op}{c.value}" for c in marks)
            if not marks:
                bare.append(word)
    if d.sort:
        out.append("s" + d.sort)
    if d.match:
        out.append(match_text(d))
    out.extend(bare)
    if d.explode:
        if d.explode.conditions:
            out.extend(d.explode.kind + face_condition(c) for c in d.explode.conditions)
        else:
            out.append(d.explode.kind)
    out.append(label_text(d.label))
    return "".join(out)


def match_text(d: Dice) -> str:
    """``m``, ``mt3``, ``mt>3``: its compare point always written with its operator."""
    assert d.match is not None
    m = d.match
    cond = f"{m.condition.op}{m.condition.value}" if m.condition else ""
    return ("mt" if m.total else "m") + (str(m.size) if m.size != 2 else "") + cond


def keep_success_text(keep: tuple[Keep, ...], success: Condition | None, failure: Condition | None = None) -> str:
    text = "".join(f"{k.mode}{k.count}" for k in keep)
    if success:
        text += f"{success.op}{success.value}"
    if failure:
        text += f"f{failure.op}{failure.value}"
    return text


def group_modifiers_text(g: Group) -> str:
    return keep_success_text(g.keep, g.success, g.failure) + ("s" + g.sort if g.sort else "") + label_text(g.label)
