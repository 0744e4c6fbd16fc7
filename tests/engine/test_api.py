"""The command registry, the JSON facade and the CLI agree on names, fields and errors."""

from __future__ import annotations

import json
import random
from typing import Annotated, Literal

import pytest

from rollbook import api, cli, commands
from rollbook.commands import Arg, command


@pytest.fixture
def echo():
    """A throwaway command exercising every kind of parameter the registry understands."""

    @command("test echo")
    def echo_command(
        word: Annotated[Literal["slash", "burn"], Arg("a damage type", metavar="TYPE")],
        count: int,
        *,
        bonus: int = 0,
        label: str | None = None,
        loud: bool = False,
        tags: list[str] | None = None,
        rng: random.Random,
    ) -> dict:
        """Echo the arguments back, with one die roll."""
        return {"word": word, "count": count, "bonus": bonus, "label": label, "loud": loud,
                "tags": tags, "die": rng.randint(1, 6), "text": f"{word} x{count}"}

    yield "test echo"
    del commands.REGISTRY["test echo"]


def request(name: str, **args) -> dict:
    return json.loads(api.call_json(json.dumps({"api": api.API_VERSION, "command": name, "args": args})))


def test_api_and_cli_give_the_same_result(echo, capsys):
    response = request(echo, word="slash", count=2, bonus=3, tags=["a", "b"], seed=11)
    assert response["ok"] is True
    assert cli.main(["test", "echo", "slash", "2", "--bonus", "3", "--tags", "a", "--tags", "b",
                     "--seed", "11", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == response["result"]
    assert response["result"]["seed"] == 11


def test_seeded_commands_repeat_and_unseeded_ones_vary(echo):
    assert request(echo, word="burn", count=1, seed=5) == request(echo, word="burn", count=1, seed=5)
    dice = {request(echo, word="burn", count=1)["result"]["die"] for _ in range(60)}
    assert len(dice) > 1
    assert "seed" not in request(echo, word="burn", count=1)["result"]


def test_cli_prints_the_text_field_without_json(echo, capsys):
    assert cli.main(["test", "echo", "burn", "4"]) == 0
    assert capsys.readouterr().out == "burn x4\n"


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        ({"word": "slush", "count": 1}, "word", "choose one of: slash, burn, not “slush”"),
        ({"word": "slash", "count": "2"}, "count", "enter a whole number, such as 40, not “2”"),
        ({"word": "slash", "count": True}, "count", "enter a whole number, such as 40"),
        ({"word": "slash"}, "count", "enter a whole number, such as 40"),
        ({"word": "slash", "count": 1, "cuont": 1}, "cuont", "is not asked for here"),
        ({"word": "slash", "count": 1, "tags": "a"}, "tags", "enter one or more values, not “a”"),
        ({"word": "slash", "count": 1, "seed": 1.5}, "seed", "enter a whole number, such as 40, not 1.5"),
    ],
)
def test_bad_arguments_are_explained(echo, args, field, message):
    response = request(echo, **args)
    assert response["ok"] is False
    assert response["error"] == {"kind": "input", "message": message, "fields": [field]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1", "the request is not valid JSON"),
        ("[]", "a request must be a JSON object"),
        ('{"args": {}}', 'a request needs "command"'),
        ('{"api": 99, "command": "roll"}', "this engine speaks API version 1, not 99"),
        ('{"command": "no such thing"}', "unknown command “no such thing”"),
        ('{"command": "roll", "args": []}', '"args" must be a JSON object'),
    ],
)
def test_bad_requests_are_answered_not_raised(text, message):
    response = json.loads(api.call_json(text))
    assert response["ok"] is False
    assert response["error"]["message"].startswith(message)


def test_oversized_requests_are_refused():
    response = json.loads(api.call_json(" " * (api.MAX_REQUEST_CHARS + 1)))
    assert response["error"]["kind"] == "limit"


def test_cli_usage_errors_are_one_line_with_status_2(echo, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["test", "echo", "slush", "1"])
    assert exit_info.value.code == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'slush'" in err


def test_every_command_has_a_summary_and_documented_parameters():
    for entry in api.commands_schema():
        assert entry["summary"], entry["command"]
        for param in entry["params"]:
            assert param["help"], f"{entry['command']} --{param['name']} has no help text"
    dice = {entry["command"]: [p["name"] for p in entry["params"] if p["dice"]] for entry in api.commands_schema()}
    assert dice["roll"] == ["expression"] and dice["cyno strike"] == ["damage"]  # a page may offer dice there


def test_a_bug_in_a_command_is_answered_as_an_internal_error():
    @command("test broken")
    def broken(*, value: Annotated[int, Arg("anything")] = 0) -> dict:
        """Fail the way a bug would."""
        return {"ratio": 1 // value}

    try:
        response = request("test broken", value=0)
    finally:
        del commands.REGISTRY["test broken"]
    assert response["ok"] is False
    assert response["error"]["kind"] == "internal"
    assert "ZeroDivisionError" in response["error"]["message"]


def test_deeply_nested_json_is_refused_not_raised():
    text = "[" * 4999 + "]" * 4999
    response = json.loads(api.call_json(text))
    assert response["ok"] is False


@pytest.mark.parametrize("expression", ["-1d4+3", "-(2d6)", "-d20", "-floor(1d6/2)", "-max(1d4, 1d6)"])
def test_cli_reads_a_negative_expression_as_the_expression(expression, capsys):
    assert cli.main(["roll", expression, "--seed", "3", "--json"]) == 0
    total = json.loads(capsys.readouterr().out)["total"]
    assert total == json.loads(api.call_json(json.dumps(
        {"command": "roll", "args": {"expression": expression, "seed": 3}})))["result"]["total"]
