"""Syntax tree back to text: the canonical form of an expression.

``parse(canonical(tree)) == tree`` for every tree the parser builds. Modifiers are printed in
one fixed order (reroll, open-ended, mi, ma, keep/drop, success, explosion); explosions come
last so that a comparison after ``!`` can only be the explosion's own condition.
"""

from __future__ import annotations

from rollbook.dice.tree import Chain, Condition, Dice, Expression, Group, Keep, Negate, Node, Number, Parens


def canonical(expr: Expression) -> str:
    text = node_text(expr.root)
    return f"{text} # {expr.label}" if expr.label else text


def node_text(node: Node) -> str:
    if isinstance(node, Number):
        return str(node.value)
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
    if isinstance(node, Group):
        return "{" + ", ".join(node_text(i) for i in node.items) + "}" + keep_success_text(node.keep, node.success)
    raise TypeError(f"not a dice node: {node!r}")


def face_condition(cond: Condition) -> str:
    """``r1``, ``r<3``, ``!>=5``: equality with a face is written bare."""
    if cond.op == "=" and cond.value >= 0:
        return str(cond.value)
    return f"{cond.op}{cond.value}"


def dice_text(d: Dice, count: str | None = None, sides: str | None = None) -> str:
    """``4d6kh3``; a breakdown passes the rolled ``count``/``sides`` text of computed ones."""
    if sides is None:
        sides = d.sides if isinstance(d.sides, str) else node_text(d.sides)
    out = [count if count is not None else node_text(d.count), "d", sides]
    if d.reroll:
        word = "ro" if d.reroll.once else "r"
        out.extend(word + face_condition(c) for c in d.reroll.conditions)
    if d.open_ended:
        word = {"both": "oe", "low": "oel", "high": "oeh"}[d.open_ended.ends]
        out.append(word + (str(d.open_ended.width) if d.open_ended.width != 1 else ""))
    if d.minimum is not None:
        out.append(f"mi{d.minimum}")
    if d.maximum is not None:
        out.append(f"ma{d.maximum}")
    out.append(keep_success_text(d.keep, d.success))
    if d.explode:
        if d.explode.conditions:
            out.extend(d.explode.kind + face_condition(c) for c in d.explode.conditions)
        else:
            out.append(d.explode.kind)
    return "".join(out)


def keep_success_text(keep: Keep | None, success: Condition | None) -> str:
    text = f"{keep.mode}{keep.count}" if keep else ""
    if success:
        text += f"{success.op}{success.value}"
    return text
