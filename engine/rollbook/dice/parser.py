"""Dice notation to syntax tree: a hand-written recursive-descent parser.

It reads characters directly (no token list), so every error knows its column and says what
was expected there ("at the 6th character, expected a number, dice or '(' after '+', found '*'"; the
API error keeps the column for the page's caret). Nesting is capped
before Python's own recursion limit can be reached, so no input raises RecursionError.
The grammar is documented, in EBNF, in docs/dice-notation.md.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Mapping

from rollbook.dice import limits
from rollbook.dice.errors import DiceError, DiceSyntaxError, place
from rollbook.errors import quoted
from rollbook.dice.tree import (
    Chain,
    Comparison,
    Condition,
    Dice,
    Explode,
    Expression,
    Function,
    Group,
    Keep,
    KeepMode,
    Match,
    Negate,
    Node,
    Number,
    OpenEnded,
    Parens,
    Reroll,
    SortOrder,
    SpecialSides,
)
from rollbook.dice.functions import FUNCTIONS

MAX_NUMBER_DIGITS = 9  # constants up to 999,999,999: enough for any table, small enough to stay fast
# longest first; '!=' is rpg-dice-roller's other spelling of '<>' (never after '!', where it explodes on '=')
COMPARISONS: tuple[tuple[str, Comparison], ...] = ((">=", ">="), ("<=", "<="), ("<>", "<>"), ("!=", "<>"),
                                                   (">", ">"), ("<", "<"), ("=", "="))
KEEP_WORDS: dict[str, KeepMode] = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "k": "kh", "d": "dl"}
OPEN_WORDS = {"oe": "both", "oel": "low", "oeh": "high"}
KEEP_ORDER = ("kh", "kl", "dh", "dl")  # rpg-dice-roller's: keep before drop (it matters only to the breakdown)
SORT_WORDS: dict[str, SortOrder] = {"s": "a", "sa": "a", "sd": "d"}
CLAMP_WORDS = {"mi": "minimum", "min": "minimum", "ma": "maximum", "max": "maximum"}
MODIFIER_WORDS = ("min", "max", "oel", "oeh", "oe", "kh", "kl", "dh", "dl", "ro", "uo", "cs", "cf", "sa", "sd",
                  "mi", "ma", "mt", "k", "d", "r", "u", "s", "f", "m")  # longest first
MODIFIER_HINT = ("modifiers are kh kl dh dl k d, r ro, u uo, ! !! !p !!p, oe oel oeh, min max, cs cf, s sa sd, "
                 "m mt, a compare point (>= > <= < = <>) and f")
EXAMPLE = "e.g. 1d20+5, 4d6kh3 or 2d6+1d4"


def _describe(ch: str) -> str:
    return "the end of the expression" if ch == "" else repr(ch)


Values = tuple[tuple[str, int], ...]  # named values (``STR``) and what they stand for, names upper case


class _Parser:
    def __init__(self, text: str, values: Values = ()) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.values = dict(values)

    # --- characters -------------------------------------------------------------------------
    def skip(self) -> None:
        """Past whitespace and ``/* comments */`` (rpg-dice-roller's; they are not shown)."""
        text, pos = self.text, self.pos
        while pos < len(text):
            if text[pos].isspace():
                pos += 1
            elif text.startswith("/*", pos):
                end = text.find("*/", pos + 2)
                if end < 0:
                    raise DiceSyntaxError("this '/*' comment is never closed", column=pos + 1, hint="end it with */")
                pos = end + 2
            else:
                break
        self.pos = pos

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def column(self) -> int:
        self.skip()
        return self.pos + 1

    def error(self, message: str, column: int | None = None, hint: str | None = None,
              variable: str | None = None) -> DiceSyntaxError:
        column = column or self.column()
        # past the end, "found the end of the expression" says where: no "at the 3rd character" before it
        return DiceSyntaxError(message, column=column, hint=hint, variable=variable, placed=column <= len(self.text))

    def word(self) -> str:
        """The modifier name at the cursor, consumed: the longest one that matches, so that
        ``d20oekh1`` reads ``oe`` then ``kh``. An unknown name is the whole run of letters."""
        self.skip()
        start = self.pos
        for name in MODIFIER_WORDS:
            if self.text[start:start + len(name)].lower() == name:
                self.pos = start + len(name)
                return name
        while self.pos < len(self.text) and self.text[self.pos].isascii() and self.text[self.pos].isalpha():
            self.pos += 1
        return self.text[start:self.pos].lower()

    def number(self, what: str) -> int:
        col = self.column()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
            self.pos += 1
        digits = self.text[start:self.pos]
        if not digits:
            raise self.error(f"expected {what}, found {_describe(self.peek())}", col)
        if len(digits) > MAX_NUMBER_DIGITS:
            raise limits.too_many("digits in a number", MAX_NUMBER_DIGITS, column=col)
        return int(digits)

    def decimal(self) -> int | Fraction:
        """``3`` or ``1.45`` (read exactly: 29/20)."""
        col = self.column()
        whole = self.number("a number")
        if self.text[self.pos:self.pos + 1] == "." and self.text[self.pos + 1:self.pos + 2].isdigit():
            start = self.pos + 1
            self.pos = start
            while self.pos < len(self.text) and self.text[self.pos] in "0123456789":
                self.pos += 1
            if self.pos - start > MAX_NUMBER_DIGITS:
                raise limits.too_many("digits in a number", MAX_NUMBER_DIGITS, column=col)
            return Fraction(Decimal(f"{whole}.{self.text[start:self.pos]}"))
        return whole

    def letters(self) -> str:
        """The run of ASCII letters at the cursor, not consumed: ``STR`` in ``2d10+STR``."""
        self.skip()
        end = self.pos
        while end < len(self.text) and self.text[end].isascii() and self.text[end].isalpha():
            end += 1
        return self.text[self.pos:end]

    def name_value(self) -> tuple[int, int]:
        """``STR``: the value given for the name at the cursor, and its column."""
        col = self.column()
        name = self.letters()
        self.pos += len(name)
        upper = name.upper()
        value = self.values.get(upper)
        if value is None:
            raise self.error(f"{upper} has no value", col, hint=f"give {upper} a value, or leave it out", variable=upper)
        return value, col

    def named_value(self) -> Node:
        """A name as an operand; a negative value is printed ``(-3)``, so the text reads back."""
        value, col = self.name_value()
        if value < 0:
            return Parens(Negate(Number(-value, col), col), col)
        return Number(value, col)

    def optional_number(self) -> int | None:
        return self.number("a number") if self.peek().isdigit() else None

    def enter(self, column: int) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise limits.too_many("levels of nesting (parentheses, groups, minus signs)", limits.MAX_DEPTH, column=column)

    # --- grammar ----------------------------------------------------------------------------
    def expression(self) -> Expression:
        if not self.text.strip():
            raise DiceSyntaxError("the expression is empty", column=1, hint=EXAMPLE, placed=False)
        if self.peek() == "/" and (command := re.match(r"/r(oll)?\b\s*", self.text[self.pos:])):
            rest = self.text[self.pos + command.end():].strip() or "1d20+5"
            raise self.error("Roll20's /roll is not part of the expression", hint=f"leave it out: {rest}")
        root = self.sum()
        label = None
        # '# Climb', '// Climb', or Roll20's '\ Climb': the rest labels the roll
        if self.peek() in ("#", "\\") or self.text.startswith("//", self.pos):
            start = self.pos + (2 if self.text.startswith("//", self.pos) else 1)
            label = self.text[start:].strip() or None
            self.pos = len(self.text)
        if self.peek() != "":
            ch = self.peek()
            hint = "join the parts with + - * /" if (ch.isalnum() or ch in ("(", "{")) else None
            if ch == ")":
                raise self.error("this ')' closes no '('")
            if ch.isalpha() and self.text[self.pos - 1].isspace():  # Roll20's '1d20+5 Roll for Initiative'
                hint = f"to label the roll, put # before the words: {self.text[:self.pos].rstrip()} # {self.text[self.pos:]}"
            raise self.error(f"unexpected {_describe(ch)}", hint=hint)
        return Expression(root, label)

    def sum(self, after: str | None = None) -> Node:
        return self.chain("+-", self.product, after)

    def product(self, after: str | None = None) -> Node:
        return self.chain("*/%", self.unary, after)

    def chain(self, ops: str, operand: Callable[[str | None], Node], after: str | None) -> Node:
        first = operand(after)
        rest: list[tuple[str, Node]] = []
        columns: list[int] = []
        while self.peek() != "" and self.peek() in ops and not self.at_power() and not self.at_comment():
            columns.append(self.column())
            op = self.text[self.pos]
            self.pos += 1
            rest.append((op, operand(op)))
        return Chain(first, tuple(rest), tuple(columns)) if rest else first

    def at_power(self) -> bool:
        return self.peek() == "^" or self.text.startswith("**", self.pos)

    def at_comment(self) -> bool:
        return self.text.startswith("//", self.pos)

    def unary(self, after: str | None = None) -> Node:
        if self.peek() == "-":
            col = self.column()
            self.enter(col)
            self.pos += 1
            node = Negate(self.unary("-"), col)
            self.depth -= 1
            return node
        return self.power(after)

    def power(self, after: str | None) -> Node:
        """``2^3``, ``2**3``: binds tighter than ``*`` and than a minus before it (``-2^2`` is -4),
        and from the right (``2^3^2`` is 2^9)."""
        base = self.operand(after)
        if not self.at_power():
            return base
        col = self.column()
        self.pos += 1 if self.text[self.pos] == "^" else 2
        self.enter(col)
        exponent = self.unary("^")
        self.depth -= 1
        return Chain(base, (("^", exponent),), (col,))

    def operand(self, after: str | None) -> Node:
        node = self.bare_operand(after)
        if self.peek() == "[":
            return self.labelled(node)
        return node

    def labelled(self, node: Node) -> Node:
        """Roll20's ``2d6[fire]``: a label for the term before it."""
        col = self.column()
        end = self.text.find("]", self.pos)
        if end < 0:
            raise self.error("this '[' label is never closed", col, hint="e.g. 2d6[fire]")
        text = self.text[self.pos + 1:end].strip() or None
        if not isinstance(node, (Number, Dice, Group)):
            raise self.error("a [label] follows dice, a group or a number", col, hint="e.g. 2d6[fire] + 1d4[cold]")
        self.pos = end + 1
        return dataclasses.replace(node, label=text)

    def bare_operand(self, after: str | None) -> Node:
        ch = self.peek()
        col = self.column()
        if ch.isdigit():
            count: Node = Number(self.decimal(), col)
        elif ch == "(":
            count = self.parens()
        elif self.text.startswith("[[", self.pos):
            count = self.parens("[[", "]]")  # Roll20's inline roll, [[1d20+5]]: parentheses here
        elif ch in ("d", "D") and reads_as_dice(self.letters()):
            return self.dice(Number(1, col), col)
        elif ch.isascii() and ch.isalpha():
            if self.letters().lower() in FUNCTIONS and self.text[self.pos + len(self.letters()):].lstrip()[:1] == "(":
                count = self.function()  # may be a count: floor(7/2)d6
            else:
                count = self.named_value()
        elif ch == "{":
            return self.group()
        else:
            where = f" after {after!r}" if after else ""
            hint = EXAMPLE if ch == "" or ch in "+*/)" else None
            if ch == "%":
                hint = "percentile dice are written d%"
            raise self.error(f"expected a number, dice or '('{where}, found {_describe(ch)}", hint=hint)
        if self.peek() in ("d", "D"):
            return self.dice(count, col)
        return count

    def function(self) -> Function:
        """``floor(1d6/2)``, ``max(1d6, 1d8)``: the name, then its arguments in parentheses."""
        col = self.column()
        name = self.letters().lower()
        self.pos += len(name)
        self.peek()
        self.enter(col)
        self.pos += 1  # the '('
        args = [self.sum()]
        while self.peek() == ",":
            self.pos += 1
            args.append(self.sum())
        if self.peek() != ")":
            raise self.error(f"expected ',' or ')' to close {name}( at {place(col)}, found {_describe(self.peek())}")
        self.pos += 1
        self.depth -= 1
        wanted = FUNCTIONS[name].arity
        if len(args) != wanted:
            example = f"{name}(1d6, 1d8)" if wanted == 2 else f"{name}(1d6/2)"
            raise self.error(f"{name} takes {wanted} argument{'s' if wanted > 1 else ''}, not {len(args)}", col,
                             hint=f"e.g. {example}")
        return Function(name, tuple(args), col)

    def parens(self, opening: str = "(", closing: str = ")") -> Node:
        col = self.column()
        self.enter(col)
        self.pos += len(opening)
        inner = self.sum()
        self.peek()
        if not self.text.startswith(closing, self.pos):
            raise self.error(f"expected '{closing}' to close the '{opening}' at {place(col)}, found {_describe(self.peek())}")
        self.pos += len(closing)
        self.depth -= 1
        return Parens(inner, col)

    def dice(self, count: Node, col: int) -> Dice:
        self.skip()
        self.pos += 1  # the d
        ch = self.peek()
        sides: Node | SpecialSides
        if ch.isdigit():
            sides = Number(self.number("a number of sides"), self.column())
        elif ch == "%":
            self.pos += 1
            sides = "%"
        elif ch in ("F", "f"):
            self.pos += 1
            sides = "F"
            if self.text.startswith(".", self.pos):  # rpg-dice-roller's dF.2 (the usual) and dF.1
                variant = self.text[self.pos + 1:self.pos + 2]
                if variant not in ("1", "2"):
                    raise self.error("a Fate die is dF, dF.2 (the same) or dF.1 (one -1, four blanks, one +1)",
                                     self.pos + 1)
                self.pos += 2
                sides = "F.1" if variant == "1" else "F"
        elif ch == "(":
            sides = self.parens()
        else:
            raise self.error(f"expected a number of sides after 'd', found {_describe(ch)}",
                             hint="e.g. d20, d% or dF")
        return self.dice_modifiers(Dice(count, sides, column=col))

    def condition(self, required_after: str | None) -> Condition | None:
        """``>=8``, ``<3``, ``=1`` or a bare face ``1``; None when absent and not required."""
        self.skip()
        col = self.column()
        for written, op in COMPARISONS:
            if self.text.startswith(written, self.pos):
                self.pos += len(written)
                return Condition(op, self.signed(f"a number after '{written}'"))
        if self.peek().isdigit():  # a bare face; negative ones need '=' (r=-1) so '3d6!-2' stays a sum
            return Condition("=", self.number("a face"))
        if required_after:
            raise self.error(f"expected a face or a comparison after {required_after!r}, found {_describe(self.peek())}",
                             col, hint=f"e.g. {required_after}1 or {required_after}<3")
        return None

    def signed(self, what: str) -> int:
        """A whole number, negative (Fate dice have negative faces) or named (``d100<=DEX``)."""
        if self.peek() == "-":
            self.pos += 1
            return -self.number(what)
        if self.peek().isascii() and self.peek().isalpha():
            return self.name_value()[0]
        return self.number(what)

    def dice_modifiers(self, dice: Dice) -> Dice:
        seen: dict[str, int] = {}
        fields: dict[str, object] = {}
        conditions: dict[str, list[Condition]] = {"reroll": [], "unique": [], "explode": [], "cs": [], "cf": []}
        keeps: list[Keep] = []

        def once(name: str, col: int) -> None:
            if name in seen:
                raise self.error(f"a second {name} modifier (the first is at column {seen[name]})", col,
                                 hint="give each kind of modifier once")
            seen[name] = col

        def repeatable(name: str, word: str, once_word: str, col: int) -> None:
            """r/ro, u/uo: conditions may repeat (r1r2), the two spellings may not be mixed."""
            key = f"{name}_once"
            if name in seen and (word == once_word) != fields[key]:
                raise self.error(f"'{word[0]}' and '{once_word}' cannot be mixed on one die", col)
            seen.setdefault(name, col)
            fields[key] = word == once_word
            cond = self.condition(None)
            if cond is not None:
                conditions[name].append(cond)

        while True:
            ch = self.peek()
            col = self.column()
            if ch.isalpha():
                word = self.word()
                if word in KEEP_WORDS:
                    mode = KEEP_WORDS[word]
                    once(mode, col)
                    seen.setdefault("keep or drop", col)
                    keeps.append(Keep(mode, self.keep_count()))
                elif word in ("r", "ro"):
                    repeatable("reroll", word, "ro", col)
                elif word in ("u", "uo"):
                    repeatable("unique", word, "uo", col)
                elif word in OPEN_WORDS:
                    once("open-ended", col)
                    fields["open_ended"] = OpenEnded(OPEN_WORDS[word], self.optional_number() or 1)  # type: ignore[arg-type]
                elif word in CLAMP_WORDS:
                    once(CLAMP_WORDS[word], col)
                    fields[CLAMP_WORDS[word]] = self.signed(f"a number after {word!r}")
                elif word in ("cs", "cf"):
                    seen.setdefault(word, col)
                    cond = self.condition(None)
                    if cond is not None:
                        conditions[word].append(cond)
                elif word in SORT_WORDS:
                    once("sorting", col)
                    fields["sort"] = SORT_WORDS[word]
                elif word in ("m", "mt"):
                    once("match", col)
                    fields["match"] = self.match(word, col)
                elif word == "f":
                    if "success" not in seen:
                        raise self.error("'f' counts failures against successes: give the success first", col,
                                         hint="e.g. 4d6>4f<3")
                    once("failure", col)
                    fields["failure"] = self.condition("f")
                else:
                    raise self.error(f"unknown modifier {word!r}", col, hint=MODIFIER_HINT)
            elif ch == "!":
                kind = "!"
                self.pos += 1
                if self.text.startswith("!", self.pos):
                    kind, self.pos = "!!", self.pos + 1
                if self.text[self.pos:self.pos + 1] in ("p", "P"):
                    kind, self.pos = kind + "p", self.pos + 1
                if "explode" in seen and fields["explode_kind"] != kind:
                    raise self.error(f"{kind!r} cannot be mixed with {fields['explode_kind']!r} on one die", col)
                seen.setdefault("explode", col)
                fields["explode_kind"] = kind
                cond = self.condition(None)
                if cond is not None:
                    conditions["explode"].append(cond)
            elif ch and ch in "<>=":
                once("success", col)
                fields["success"] = self.condition(None)
            else:
                break
        if "reroll" in seen:
            fields["reroll"] = Reroll(bool(fields.pop("reroll_once")), tuple(conditions["reroll"]))
        if "unique" in seen:
            fields["unique"] = Reroll(bool(fields.pop("unique_once")), tuple(conditions["unique"]))
        if "explode" in seen:
            fields["explode"] = Explode(fields.pop("explode_kind"), tuple(conditions["explode"]))  # type: ignore[arg-type]
        for word, name in (("cs", "critical_success"), ("cf", "critical_failure")):
            if word in seen:
                fields[name] = tuple(conditions[word])
        if keeps:
            fields["keep"] = tuple(sorted(keeps, key=lambda k: KEEP_ORDER.index(k.mode)))
        if "explode" in seen and "open-ended" in seen:
            raise self.error("a die cannot both explode and be open-ended", max(seen["explode"], seen["open-ended"]),
                             hint="use one of ! !! !p !!p oe")
        return Dice(dice.count, dice.sides, column=dice.column, modifier_columns=tuple(seen.items()),
                    **fields)  # type: ignore[arg-type]

    def match(self, word: str, col: int) -> Match:
        """``m``, ``mt``, ``m3`` (sets of three or more), ``mt>3`` (only faces above 3): a compare
        point right after them is theirs (write a success condition before them)."""
        size = self.optional_number()
        if size is not None and size < 2:
            raise self.error(f"a set of matching dice has at least 2 dice, not {size}", col, hint=f"e.g. 4d6{word}3")
        condition = None
        self.skip()
        if any(self.text.startswith(written, self.pos) for written, _ in COMPARISONS):
            condition = self.condition(None)
        return Match(word == "mt", 2 if size is None else size, condition)

    def keep_count(self) -> int:
        """The count after kh/kl/dh/dl/k/d: one when left out."""
        n = self.optional_number()
        return 1 if n is None else n

    def group(self) -> Group:
        col = self.column()
        self.enter(col)
        self.pos += 1
        items = [self.sum()]
        while self.peek() == ",":
            self.pos += 1
            items.append(self.sum())
            if len(items) > limits.MAX_GROUP_ITEMS:
                raise limits.too_many("expressions in one group", limits.MAX_GROUP_ITEMS, column=col)
        if self.peek() != "}":
            raise self.error(f"expected ',' or '}}' to close the '{{' at {place(col)}, found {_describe(self.peek())}")
        self.pos += 1
        self.depth -= 1
        keeps: list[Keep] = []
        fields: dict[str, object] = {}
        while True:
            ch = self.peek()
            mcol = self.column()
            if ch.isalpha():
                word = self.word()
                if word in KEEP_WORDS:
                    if any(k.mode == KEEP_WORDS[word] for k in keeps):
                        raise self.error(f"a second {KEEP_WORDS[word]} modifier on this group", mcol)
                    keeps.append(Keep(KEEP_WORDS[word], self.keep_count()))
                elif word in SORT_WORDS and "sort" not in fields:
                    fields["sort"] = SORT_WORDS[word]
                elif word == "f" and "success" in fields and "failure" not in fields:
                    fields["failure"] = self.condition("f")
                else:
                    raise self.error(f"a group takes keep/drop, a compare point, f and s, not {word!r}", mcol,
                                     hint="e.g. {4d6, 2d10}kh1 or {1d20+5, 1d20+3}>=15")
            elif ch and ch in "<>=":
                if "success" in fields:
                    raise self.error("a second success condition on this group", mcol)
                fields["success"] = self.condition(None)
            else:
                break
        return Group(tuple(items), tuple(sorted(keeps, key=lambda k: KEEP_ORDER.index(k.mode))), column=col,
                     **fields)  # type: ignore[arg-type]


def reads_as_dice(word: str) -> bool:
    """Where an operand starts, ``d`` alone (``d20``, ``d%``) or ``dF…`` is a die; any other
    run of letters is a name, so ``DEX`` is never ``d`` + ``EX``."""
    return word.lower() == "d" or word.lower().startswith("df")


MAX_NAME_CHARS = 20


def named_values(given: Mapping[str, int] | None) -> Values:
    """Check the values given for names (``{"STR": 3}``) and put them in the parser's form:
    upper-case names, sorted, so that ``str`` and ``STR`` are one name and one cache entry."""
    out: dict[str, int] = {}
    for name, value in (given or {}).items():
        upper = name.upper() if isinstance(name, str) else ""
        if not (upper.isascii() and upper.isalpha()) or len(upper) > MAX_NAME_CHARS:
            raise DiceError(f"a name is 1 to {MAX_NAME_CHARS} letters (A to Z), not {quoted(name)}", hint="e.g. STR",
                            variable=name, value_given=True)
        if reads_as_dice(upper):
            raise DiceError(f"{quoted(name)} would read as dice (d, dF), so it cannot be a name", hint="e.g. DEX",
                            variable=name, value_given=True)
        if isinstance(value, bool) or not isinstance(value, int):
            raise DiceError(f"the value of {upper} must be a whole number, such as 3" +
                            (f", not {quoted(value)}" if isinstance(value, (str, float)) else ""),
                            variable=name, value_given=True)
        if len(str(abs(value))) > MAX_NUMBER_DIGITS:
            error = limits.too_many("digits in a number", MAX_NUMBER_DIGITS, hint=f"the value of {upper}")
            error.variable, error.value_given = name, True
            raise error
        if upper in out:
            raise DiceError(f"{upper} is given twice", hint="give each name one value", variable=name, value_given=True)
        out[upper] = value
    return tuple(sorted(out.items()))


@lru_cache(maxsize=512)
def parse_tree(text: str, values: Values = ()) -> Expression:
    """Parse without semantic checks (the cache makes repeated rolls of one expression cheap).

    ``values`` gives each name its number (``(("STR", 3),)``): names are read case-insensitively
    and become plain numbers in the tree, so everything after the parser sees only numbers."""
    if len(text) > limits.MAX_CHARS:
        raise limits.too_many("characters in an expression", limits.MAX_CHARS)
    return _Parser(text, values).expression()
