"""The table/ruling hook on its own, with small fake tables and rulings (no site build)."""

from __future__ import annotations

from types import SimpleNamespace

import markdown
import pytest
from bs4 import BeautifulSoup

from rollbook.rulings import Ruling
from rollbook.tables import Display
from sitebuild import load_hook

pytestmark = [pytest.mark.site, pytest.mark.cpython_only]

hook = load_hook()



TRICKY = Display(  # the real contract, with cells made to break naive rendering
    name="test.tricky", title="Tricky *cells*", caption="Roll d100 and read across.",
    columns=("d100", "Effect | note"),
    rows=(("01 to 05", "a|b"), ("06", "*not bold* _nor italic_ `nor code` [nor link] <b>nor html</b> &amp; \\")),
)
RULINGS = [
    Ruling("cyno-one", "Cyno first", "cyno", "Rule C", "Q?", "Reading C.", "Why C.", None, None),
    Ruling("opencore-one", "OpenCore first", "opencore", "Rule O", "Q?",
               "Reading O,\n\nin two paragraphs.", "Why O.", "Other way.", "hp_floor"),
]


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hook, "tables", SimpleNamespace(
        names=lambda: [TRICKY.name], display=lambda name: {TRICKY.name: TRICKY}[name]))
    monkeypatch.setattr(hook, "rulings", SimpleNamespace(
        all_rulings=lambda: list(RULINGS), get=lambda id: {r.id: r for r in RULINGS}[id]))


def to_html(text: str) -> BeautifulSoup:
    html = markdown.markdown(text, extensions=["tables", "md_in_html", "attr_list", "admonition", "toc"])
    return BeautifulSoup(html, "html.parser")


def test_table_renders_cell_for_cell_with_markup_escaped() -> None:
    soup = to_html(hook.expand("Intro.\n\n[[table test.tricky]]\n\nAfter.", "opencore/combat.md"))
    box = soup.select_one('div[data-rollbook-table="test.tricky"]')
    assert box is not None and box["id"] == "table-test-tricky"
    assert box.find("strong").get_text() == TRICKY.title
    assert TRICKY.caption in box.get_text()
    table = box.find("table")
    assert tuple(th.get_text() for th in table.select("thead th")) == TRICKY.columns
    body = tuple(tuple(td.get_text() for td in tr.find_all("td")) for tr in table.select("tbody tr"))
    assert body == TRICKY.rows


def test_indented_placeholders_render_inside_their_block() -> None:
    soup = to_html(hook.expand('!!! example "Crits"\n\n    [[table test.tricky]]\n', "index.md"))
    assert soup.select_one("div.admonition.example table") is not None


def test_unknown_table_stops_the_build_with_page_and_line() -> None:
    with pytest.raises(hook.PlaceholderError, match=r"opencore/combat\.md:3: unknown table 'test\.nope'"):
        hook.expand("# Combat\n\n[[table test.nope]]\n", "opencore/combat.md")


def test_unknown_ruling_and_malformed_placeholders_stop_the_build() -> None:
    with pytest.raises(hook.PlaceholderError, match=r"index\.md:1: unknown ruling 'nope'"):
        hook.expand("[[ruling nope]]", "index.md")
    with pytest.raises(hook.PlaceholderError, match=r"index\.md:2: \[\[tabel x\]\] is not a placeholder"):
        hook.expand("\n[[tabel x]]", "index.md")
    with pytest.raises(hook.PlaceholderError, match=r"index\.md:1: \[\[table\]\] is not a placeholder"):
        hook.expand("[[table]]", "index.md")


def test_line_numbers_count_the_front_matter() -> None:
    source = "---\ntitle: Combat\n---\n# Combat\n\n[[table test.nope]]\n"
    markdown_without_meta = "# Combat\n\n[[table test.nope]]\n"
    page = SimpleNamespace(file=SimpleNamespace(src_uri="opencore/combat.md", content_string=source))
    with pytest.raises(hook.PlaceholderError, match=r"opencore/combat\.md:6:"):
        hook.on_page_markdown(markdown_without_meta, page, None, None)


def test_placeholders_in_code_blocks_and_prose_stay_literal() -> None:
    text = "```\n[[table test.nope]]\n```\n\n~~~~md\n[[ruling nope]]\n~~~~\n\nWrite [[table x]] alone on a line."
    assert hook.expand(text, "index.md") == text


@pytest.mark.parametrize(("page", "link"), [("index.md", "rulings.md#opencore-one"),
                                             ("opencore/combat.md", "../rulings.md#opencore-one")])
def test_ruling_admonition_links_to_the_rulings_page(page: str, link: str) -> None:
    soup = to_html(hook.expand("[[ruling opencore-one]]", page))
    note = soup.select_one("div.admonition.note.rollbook-ruling")
    assert note.select_one(".admonition-title").get_text() == "Ruling: OpenCore first"
    assert [p.get_text() for p in note.find_all("p")][1:3] == ["Reading O,", "in two paragraphs."]
    assert note.find("a")["href"] == link


def test_rulings_page_groups_by_rule_set_in_site_order_with_id_anchors() -> None:
    soup = to_html(hook.expand("# Rulings\n\n[[rulings]]\n", "rulings.md"))
    assert [h.get_text() for h in soup.find_all("h2")] == ["OpenCore", "Cyno's Role-Play"]
    assert [h["id"] for h in soup.find_all("h3")] == ["opencore-one", "cyno-one"]
    text = soup.get_text()
    for piece in ("Rule O", "Reading O,", "Why O.", "Other way.", "At your table", "Reading C.", "Why C."):
        assert piece in text
    assert "hp_floor" not in text  # the engine option is the command line's word, not a reader's


def test_a_ruling_named_by_its_id_in_the_text_is_named_by_its_title_and_linked() -> None:
    soup = to_html(hook.expand("HP is at least 1 (ruling opencore-one); see ruling cyno-one.", "opencore/combat.md"))
    links = [(a.get_text(), a["href"]) for a in soup.find_all("a")]
    assert links == [("“OpenCore first”", "../rulings.md#opencore-one"), ("“Cyno first”", "../rulings.md#cyno-one")]
    with pytest.raises(hook.PlaceholderError, match=r"index\.md:1: unknown ruling 'opencore-nope' named in the text"):
        hook.expand("as ruling opencore-nope says", "index.md")
    assert hook.expand("a ruling well-known to all", "index.md") == "a ruling well-known to all"


def test_a_ruling_with_an_unknown_rule_set_stops_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = Ruling("odd", "Odd", "gurps", "R", "Q", "Re", "W", None, None)
    monkeypatch.setattr(hook.rulings, "all_rulings", lambda: [odd])
    with pytest.raises(hook.PlaceholderError, match=r"rulings\.md:1: .*unknown rule set 'gurps'"):
        hook.expand("[[rulings]]", "rulings.md")
