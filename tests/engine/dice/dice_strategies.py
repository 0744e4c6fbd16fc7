"""Hypothesis strategies shared by the dice property and fuzz tests."""

from __future__ import annotations

from hypothesis import strategies as st

SIDES = ["2", "3", "4", "6", "8", "10", "12", "20", "100", "%", "F"]
MODIFIERS = ["", "kh1", "kl2", "dl1", "dh1", "k2", "r1", "ro<2", "r>5", "!", "!!", "!p", "!>=5", "oe", "oel",
             "oeh", "mi2", "ma4", ">=4", "=1", "<3", "d1", "r", "ro", "u", "uo", "u=2", "cs", "cf<2", "s", "sd",
             ">3f<2", "<>2", "!!p", "!<2", "min2", "max4", "kh2dl1", "[fire]", "m", "mt", "m3", "mt>2", "mt3<5",
             "!u", "!uo", "!u=4"]

terms = st.builds(
    lambda n, s, mods: f"{n}d{s}{''.join(mods)}",
    st.sampled_from(["", "1", "2", "3", "4", "6", "(1+1)", "(1d3)"]),
    st.sampled_from(SIDES),
    st.lists(st.sampled_from(MODIFIERS), max_size=2),
)
atoms = st.one_of(terms, st.integers(-5, 20).map(str), st.sampled_from(["1.5", "0.25", "2.75"]),
                  st.tuples(st.sampled_from(["floor", "ceil", "round", "abs", "sqrt", "sign", "log", "sin"]), terms)
                  .map(lambda ft: f"{ft[0]}({ft[1]})"),
                  st.tuples(st.sampled_from(["max", "min", "pow"]), terms, terms).map(lambda f: f"{f[0]}({f[1]}, {f[2]})"),
                  st.lists(terms, min_size=1, max_size=3).map(lambda ts: "{" + ", ".join(ts) + "}")
                  .flatmap(lambda g: st.sampled_from(["", "kh1", "kl1", ">=8"]).map(lambda m: g + m)))
expressions = st.builds(
    lambda first, rest: first + "".join(op + a for op, a in rest),
    atoms,
    st.lists(st.tuples(st.sampled_from([" + ", " - ", " * ", "/", " % ", "^", "**"]), atoms), max_size=3),
)

ALPHABET = "0123456789dD%F+-*/(){},!<>=# khlropeimapfKHLusctqrxnbg.[]^STR\t"
corpus = ["4d6kh3", "1d20+5 # Climb", "d%", "d20oe", "d100oe5", "10d10>=8", "{4d6, 2d10}kh1", "(1+1)d6",
          "2d6r1", "1d20ro<3", "3d6!", "2d6!!", "3d6!p", "4dF", "4d6mi2ma5", "-7/2", "1d6*(2d4-1)",
          "round(4d10/3)", "max(1d6, 1d8)", "pow(2d4, 2)", "1d20+1.45", "d15%2", "3d20^4", "4d6min3", "2d10u",
          "3d8uo>6", "2d20cs>19cf", "4d6>4f<3", "4d6sd", "d6r", "2d6<>4", "4dF.1", "4d10dh1dl2", "d10!>=5",
          "5d10!k2", "2d6!!p", "{4d6+3d8}k4", "2d6[fire] + 1d4[cold]", "1d20 // note", "1d20 /* a */ + 5",
          "2d10+STR", "floor(7/2)d6", "sqrt(1d6)", "{1d20, 1d20}>10f<3sd", "6d6m", "5d10mt", "6d6mt3>2",
          "4d6!u", "3d8!uo>6kh2", "20d20u"]


@st.composite
def mutated(draw) -> str:
    """A corpus expression with a few characters inserted, deleted or replaced."""
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.sampled_from(ALPHABET))
        if action == "insert":
            text = text[:i] + ch + text[i:]
        elif action == "delete":
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + ch + text[i + 1:]
    return text
