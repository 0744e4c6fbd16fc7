"""The ``roll`` and ``prob`` commands, through the CLI and the JSON API (in-process)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rollbook import api, cli
from rollbook.dice.errors import place


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_json_fields(capsys):
    code, out, _ = run_cli(capsys, "roll", "4d6kh3", "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["expression"] == "4d6kh3" and data["seed"] == 7
    assert data["text"].startswith("4d6kh3 (") and data["text"].endswith(f"= {data['total']}")
    (term,) = data["dice"]
    assert sum(d["value"] for d in term["dice"] if d["kept"]) == data["total"]


def test_roll_text_and_reproducible_seed(capsys):
    _, first, _ = run_cli(capsys, "roll", "10d10+d%+d20oe", "--seed", "12")
    _, second, _ = run_cli(capsys, "roll", "10d10+d%+d20oe", "--seed", "12")
    assert first == second and first.strip().endswith(str(int(first.split("=")[-1])))


def test_roll_count(capsys):
    code, out, _ = run_cli(capsys, "roll", "3d6", "--count", "6", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 6 and len(data["totals"]) == 6 and len(data["rolls"]) == 6
    assert data["total"] == sum(data["totals"]) and len(data["text"].splitlines()) == 6


@pytest.mark.parametrize("count", ["0", "101"])
def test_roll_count_bounds(capsys, count):
    code, _, err = run_cli(capsys, "roll", "3d6", "--count", count)
    assert code == 2 and err.count("\n") == 1


def test_prob_json(capsys):
    code, out, _ = run_cli(capsys, "prob", "2d6", "--at-least", "10", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["expression"] == "2d6" and (data["min"], data["max"]) == (2, 12) and data["mean"] == 7
    dist = {int(k): Fraction(v) for k, v in data["distribution"].items()}
    assert dist[7] == Fraction(1, 6) and sum(dist.values()) == 1
    assert Fraction(data["p_at_least"]) == Fraction(1, 6)
    assert data["residual"] == "0"


def test_prob_text(capsys):
    code, out, _ = run_cli(capsys, "prob", "3d6", "--at-least", "15")
    assert code == 0 and "P(total >= 15) = 5/54" in out and "3d6: mean 10.5" in out


@pytest.mark.parametrize(
    ("argv", "column"),
    [(["roll", "1d"], 3), (["prob", "2d6+"], 5), (["roll", "4d6kh3kh1"], 7), (["prob", "2d6r<7"], 4)],
)
def test_bad_input_exits_2_with_one_line_naming_the_place(capsys, argv, column):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    # the place in words, or the end of the expression when it is there
    assert err.count("\n") == 1 and (f"at {place(column)}, " in err or "found the end of the expression" in err), err


def test_limits_through_the_api():
    answer = json.loads(api.call_json(json.dumps({"command": "prob", "args": {"expression": "1000d100"}})))
    assert answer["ok"] is False and answer["error"]["kind"] == "limit"
    answer = json.loads(api.call_json(json.dumps({"command": "roll", "args": {"expression": "1d20+5", "seed": 3}})))
    assert answer["ok"] is True and answer["result"]["total"] == json.loads(
        api.call_json(json.dumps({"command": "roll", "args": {"expression": "1d20+5", "seed": 3}})))["result"]["total"]


def test_prob_at_least_is_honest_about_the_residual(capsys):
    """d20oe is cut where 1e-14 is left: P(>= 25) is exactly 1/25, which the answer must bracket."""
    code, out, _ = run_cli(capsys, "prob", "d20oe", "--at-least", "25", "--json")
    data = json.loads(out)
    low, high = Fraction(data["p_at_least"]), Fraction(data["p_at_least_max"])
    assert code == 0 and low < Fraction(1, 25) <= high and high - low == Fraction(data["residual"]) > 0
    assert f"is between {low} and {high}" in data["text"]
    code, out, _ = run_cli(capsys, "prob", "2d6", "--at-least", "10", "--json")
    data = json.loads(out)
    assert data["p_at_least"] == data["p_at_least_max"] == "1/6" and "P(total >= 10) = 1/6" in data["text"]


def test_prob_at_most_is_the_chance_of_a_total_of_t_or_less(capsys):
    code, out, _ = run_cli(capsys, "prob", "2d6", "--at-least", "8", "--at-most", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["at_most"] == 4
    assert data["p_at_most"] == data["p_at_most_max"] == "1/6" and data["p_at_least"] == "5/12"
    assert "P(total <= 4) = 1/6" in data["text"] and "P(total >= 8) = 5/12" in data["text"]


# --- prob --estimate: odds from seeded rolls, where exact odds are out of reach ------------------

def ask_prob(**args) -> dict:
    return api.call({"command": "prob", "args": args})


def test_exact_odds_out_of_reach_say_so_and_point_at_the_estimate():
    answer = ask_prob(expression="1000d100")
    assert not answer["ok"] and answer["error"]["kind"] == "limit"
    assert answer["error"]["message"].startswith("exact odds are out of reach: at most 20,000 different totals")
    assert answer["error"]["message"].endswith("estimate them from seeded rolls instead, such as 10,000)")
    assert answer["error"]["fields"] == ["expression"]


def test_an_estimate_is_labelled_seeded_and_counts_its_rolls():
    first = ask_prob(expression="3d6", estimate=2000, seed=5, at_least=12)["result"]
    assert first == ask_prob(expression="3d6", estimate=2000, seed=5, at_least=12)["result"]
    assert first["estimate"] is True and first["rolls"] == 2000 and first["seed"] == 5
    assert first["text"].startswith("3d6: ESTIMATED from 2,000 rolls (not exact)")
    assert abs(first["margin"] - 1.96 * (0.25 / 2000) ** 0.5) < 1e-12
    shares = {int(v): Fraction(p) for v, p in first["distribution"].items()}
    assert sum(shares.values()) == 1 and all((p * 2000).denominator == 1 for p in shares.values())
    assert Fraction(first["p_at_least"]) == sum(p for v, p in shares.items() if v >= 12)
    # within its margin of the exact answer (this seed; a 95% interval misses one time in twenty)
    exact = Fraction(ask_prob(expression="3d6", at_least=12)["result"]["p_at_least"])
    assert abs(float(Fraction(first["p_at_least"]) - exact)) < first["margin"]
    assert ask_prob(expression="3d6", estimate=2000, seed=6)["result"]["distribution"] != first["distribution"]


def test_an_estimate_stops_when_the_dice_run_out_and_shows_wide_totals_by_range():
    result = ask_prob(expression="1000d100", estimate=10000, seed=1)["result"]
    assert result["rolls"] == 1000  # a million dice in all
    ranges = result["ranges"]
    assert 10 <= len(ranges) <= 20 and ranges[0]["from"] == result["min"] and ranges[-1]["to"] == result["max"]
    assert all(a["to"] + 1 == b["from"] for a, b in zip(ranges, ranges[1:]))
    assert sum(Fraction(r["share"]) for r in ranges) == 1


@pytest.mark.parametrize("n", [0, -3, 10001])
def test_an_estimate_takes_1_to_10000_rolls(n):
    answer = ask_prob(expression="3d6", estimate=n, seed=1)
    assert not answer["ok"] and "an estimate takes 1 to 10,000 rolls" in answer["error"]["message"]
