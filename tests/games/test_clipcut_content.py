"""ClipCut Parks content: the shipped card and sheet files, the pad generator, and the checks on load."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from cliplab.games.clipcut_parks import content
from cliplab.games.clipcut_parks.content import (
    BONUSES,
    COLOURS,
    DATA_DIR,
    ICONS,
    PAD_FILE,
    PAD_SIZE,
    REQUIREMENTS,
    SHEET_COLS,
    SHEET_ROWS,
    ContentError,
    ParkCard,
    Sheet,
    card,
    card_from_text,
    generate_sheet,
    grand_park_cards,
    load_cards,
    load_sheet,
    pad_sheet,
    pad_text,
    park_cards,
    sheet_from_text,
    standard_sheet,
)
from cliplab.grid import parts, placements

ALL_CARDS = (*park_cards(), *grand_park_cards())


def colour_spaces(c: ParkCard) -> int:
    return sum(req in COLOURS for _, req in c.spaces)


def icon_spaces(c: ParkCard) -> int:
    return sum(req in ICONS for _, req in c.spaces)


def same_colour_share(sheet: Sheet) -> float:
    """Share of side-by-side square pairs that have one colour (about 0.25 for a sheet without clumps)."""
    same = total = 0
    for r, c in sheet.cells:
        for nb in ((r + 1, c), (r, c + 1)):
            if nb in sheet.cells:
                total += 1
                same += sheet.square((r, c)).colour == sheet.square(nb).colour
    return same / total


def icon_colours(sheet: Sheet) -> dict[str, set[str]]:
    on: dict[str, set[str]] = {icon: set() for icon in ICONS}
    for row in sheet.squares:
        for sq in row:
            if sq.icon:
                on[sq.icon].add(sq.colour)
    return on


def fits_in_one_piece(c: ParkCard, sheet: Sheet) -> bool:
    """Could one section cut from ``sheet`` cover the whole card with every requirement met and no token?"""
    for placement in placements(c.cells, sheet.cells):
        ok = True
        for space, at in placement.mapping:
            want, square = c.requirement(space), sheet.square(at)
            if (want in COLOURS and square.colour != want) or (want in ICONS and square.icon != want):
                ok = False
                break
        if ok:
            return True
    return False


# ----- the shipped cards -----------------------------------------------------------------------------


def test_park_cards_are_30_numbered_in_order_with_the_size_mix() -> None:
    cards = park_cards()
    assert [c.number for c in cards] == list(range(1, 31))
    assert {c.kind for c in cards} == {"park"}
    assert Counter(len(c.cells) for c in cards) == {4: 4, 5: 10, 6: 12, 7: 4}
    assert len({c.name for c in cards}) == 30


def test_grand_park_cards_are_12_of_8_to_14_spaces() -> None:
    cards = grand_park_cards()
    assert [c.number for c in cards] == list(range(1, 13))
    assert {c.kind for c in cards} == {"grand"}
    sizes = sorted(len(c.cells) for c in cards)
    assert sizes[0] >= 8 and sizes[-1] <= 14
    assert len(set(sizes)) >= 6  # a range of sizes, not twelve copies of one
    assert len({c.name for c in cards}) == 12
    assert not {c.name for c in cards} & {c.name for c in park_cards()}


def test_bonuses_are_spread() -> None:
    assert Counter(c.bonus for c in park_cards()) == {"wildlife": 8, "recycling": 8, "gardener": 7, "cut": 7}
    assert Counter(c.bonus for c in grand_park_cards()) == dict.fromkeys(BONUSES, 3)


def test_park_requirement_mix_is_moderate() -> None:
    cards = park_cards()
    assert all(1 <= colour_spaces(c) <= 4 for c in cards)
    assert all(icon_spaces(c) <= 1 for c in cards)
    assert 8 <= sum(icon_spaces(c) for c in cards) <= 16
    assert 8 <= sum(bool(c.walkways) for c in cards) <= 12
    assert all(len(c.walkways) <= 1 and all(2 <= len(w) <= 3 for w in c.walkways) for c in cards)
    # Every requirement appears somewhere, and blanks are the most common space.
    counts = Counter(req for c in cards for _, req in c.spaces)
    assert set(counts) == set(REQUIREMENTS)
    assert counts.most_common(1)[0][0] == "blank"


def test_grand_parks_ask_for_more() -> None:
    for c in grand_park_cards():
        assert colour_spaces(c) >= 3, c
        assert c.walkways, c
    assert sum(len(c.walkways) >= 2 for c in grand_park_cards()) >= 6


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_every_card_is_well_formed(c: ParkCard) -> None:
    cells = [cell for cell, _ in c.spaces]
    assert cells == sorted(cells) and len(set(cells)) == len(cells)
    assert min(r for r, _ in cells) == 0 and min(col for _, col in cells) == 0
    assert len(parts(c.cells)) == 1
    assert {req for _, req in c.spaces} <= set(REQUIREMENTS)
    assert c.bonus in BONUSES
    seen: set[tuple[int, int]] = set()
    for walkway in c.walkways:
        assert len(walkway) >= 2 and list(walkway) == sorted(walkway)
        assert set(walkway) <= c.cells and not set(walkway) & seen
        assert len(parts(walkway)) == 1
        seen |= set(walkway)
    assert c.rows == 1 + max(r for r, _ in cells) and c.cols == 1 + max(col for _, col in cells)


def test_every_park_card_can_be_built_from_one_section_on_many_sheets() -> None:
    # A playability guard for designers: a card no single section could ever satisfy is a chore.
    sheets = [standard_sheet(), *(pad_sheet(n) for n in range(1, 31))]
    for c in park_cards():
        good = sum(fits_in_one_piece(c, s) for s in sheets)
        assert good >= len(sheets) // 3, f"{c} fits in one piece on only {good} of {len(sheets)} sheets"


def test_card_lookup_and_names() -> None:
    assert card("park", 7) is park_cards()[6]
    assert card("grand", 12) is grand_park_cards()[11]
    assert str(card("park", 7)) == f"park 7 ({park_cards()[6].name})"
    assert str(card("grand", 3)).startswith("grand park 3 (")
    with pytest.raises(ValueError, match="no park card 31"):
        card("park", 31)
    with pytest.raises(ValueError, match="no grand park card 0"):
        card("grand", 0)
    with pytest.raises(ValueError, match="unknown card kind 'tiny'"):
        card("tiny", 1)


def test_requirement_of_a_card_and_its_picture_round_trip() -> None:
    c = card_from_text(
        """
        . . .
        . W _
        . r P
        """,
        walkways=["1,1 1,2"],
        bonus="cut",
    )
    assert c.spaces == (((0, 0), "water"), ((0, 1), "blank"), ((1, 0), "recycling"), ((1, 1), "play"))
    assert c.walkways == (((0, 0), (0, 1)),)
    assert (c.rows, c.cols) == (2, 2)
    assert c.requirement((1, 0)) == "recycling"
    with pytest.raises(ValueError, match=r"\(2, 0\) is not a space of park 1 \(Test Park\)"):
        c.requirement((2, 0))
    for shipped in ALL_CARDS:
        walkways = [" ".join(f"{r},{col}" for r, col in w) for w in shipped.walkways]
        again = card_from_text(
            shipped.picture(),
            kind=shipped.kind,
            number=shipped.number,
            name=shipped.name,
            walkways=walkways,
            bonus=shipped.bonus,
        )
        assert again == shipped


def test_loading_a_shipped_file_directly_matches_the_cached_decks() -> None:
    assert load_cards(DATA_DIR / "parks.toml", "park", expected_count=30) == park_cards()
    assert load_cards(str(DATA_DIR / "grand_parks.toml"), "grand") == grand_park_cards()
    assert park_cards() is park_cards()


# ----- sheets ----------------------------------------------------------------------------------------


def test_standard_sheet_is_balanced_and_clumpy() -> None:
    sheet = standard_sheet()
    assert sheet.number == 0
    assert len(sheet.squares) == SHEET_ROWS and all(len(row) == SHEET_COLS for row in sheet.squares)
    assert len(sheet.cells) == 63
    tally = sheet.tally()
    assert all(12 <= tally[colour] <= 20 for colour in COLOURS), tally
    assert 10 <= tally["wildlife"] + tally["recycling"] <= 14
    assert min(tally["wildlife"], tally["recycling"]) >= 4
    on = icon_colours(sheet)
    assert on["wildlife"] | on["recycling"] == set(COLOURS)
    assert same_colour_share(sheet) >= 0.4


def test_all_pad_sheets_are_balanced_clumpy_and_numbered() -> None:
    for n in range(1, PAD_SIZE + 1):
        sheet = pad_sheet(n)
        assert sheet.number == n
        tally = sheet.tally()
        assert all(10 <= tally[colour] <= 22 for colour in COLOURS), (n, tally)
        assert 8 <= tally["wildlife"] + tally["recycling"] <= 16, (n, tally)
        assert min(tally["wildlife"], tally["recycling"]) >= 3, (n, tally)
        on = icon_colours(sheet)
        assert all(len(colours) >= 2 for colours in on.values()), (n, on)
        assert same_colour_share(sheet) >= 0.35, n
        # Icons are spread: none sits side by side with another.
        icons = {cell for cell in sheet.cells if sheet.square(cell).icon}
        assert all((r + 1, c) not in icons and (r, c + 1) not in icons for r, c in icons), n


def test_pad_sheets_differ_from_each_other_and_from_the_standard_sheet() -> None:
    pictures = {pad_sheet(n).squares for n in range(1, PAD_SIZE + 1)}
    assert len(pictures) == PAD_SIZE
    assert standard_sheet().squares not in pictures


def test_pad_sheets_are_deterministic() -> None:
    for n in (1, 17, 100):
        fresh = generate_sheet(random.Random(f"clipcut-pad/{n}"), n)
        assert fresh == pad_sheet(n)
        assert pad_sheet(n) is pad_sheet(n)
    # The same sheet in a fresh interpreter with another hash seed (no dependence on set order).
    script = "from cliplab.games.clipcut_parks.content import pad_sheet; print(pad_sheet(42))"
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
        cwd=Path(__file__).resolve().parents[2],
    ).stdout
    assert out.strip() == str(pad_sheet(42))


def test_the_pad_file_holds_the_generated_sheets() -> None:
    # The game reads its pad sheets from data/pad.txt: it must be what generate_sheet gives for each.
    assert PAD_FILE.read_text() == pad_text()


@pytest.mark.parametrize(
    ("damage", "entry", "problem"),
    [
        (lambda text: text.rsplit("\n\n", 1)[0], "", "holds 99 sheets, the pad has 100"),
        (lambda text: text.replace("G", "Q", 1), "sheet 1", "unknown square"),
    ],
)
def test_a_damaged_pad_file_is_refused_naming_the_file_and_the_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[str], str], entry: str, problem: str
) -> None:
    damaged = tmp_path / "pad.txt"
    damaged.write_text(damage(pad_text()), encoding="utf-8")
    monkeypatch.setattr(content, "PAD_FILE", damaged)
    forget_pad = (content._pad_pictures.cache_clear, pad_sheet.cache_clear)
    for forget in forget_pad:
        forget()
    try:
        with pytest.raises(ContentError, match=problem) as refused:
            pad_sheet(1)
        assert (refused.value.file, refused.value.entry) == (str(damaged), entry)
    finally:
        monkeypatch.undo()
        for forget in forget_pad:
            forget()
    assert str(pad_sheet(1)) == str(generate_sheet(random.Random("clipcut-pad/1"), 1))


def test_pad_sheet_numbers_outside_the_pad_are_refused() -> None:
    for bad in (0, 101, -3):
        with pytest.raises(ValueError, match="numbered 1 to 100"):
            pad_sheet(bad)


def test_a_sheet_prints_in_the_file_format_and_reads_back() -> None:
    for sheet in (standard_sheet(), pad_sheet(5)):
        assert sheet_from_text(str(sheet), sheet.number) == sheet
    assert standard_sheet().square((0, 1)).code == "Gw"
    with pytest.raises(ValueError, match="not on the sheet"):
        standard_sheet().square((7, 0))


def test_generate_sheet_varies_with_the_generator() -> None:
    a = generate_sheet(random.Random(1), 1)
    b = generate_sheet(random.Random(2), 1)
    assert a != b


# ----- checks on load --------------------------------------------------------------------------------

GOOD_1 = """
[[card]]
number = 1
name = "First"
bonus = "cut"
spaces = "W W _ _"
"""
GOOD_2 = """
[[card]]
number = 2
name = "Second"
bonus = "gardener"
spaces = '''
G _
_ r
'''
"""


def third(body: str, number: str = "3", name: str = '"Bad Park"') -> str:
    """Two good cards, then a third with ``body`` (the keys other than number and name)."""
    head = "[[card]]\n" + (f"number = {number}\n" if number else "") + (f"name = {name}\n" if name else "")
    return GOOD_1 + GOOD_2 + "\n" + head + body


BAD = "card 3 (Bad Park)"
FIVE = 'bonus = "wildlife"\n'

CARD_ERRORS = [
    # (id, file text, kind, expected count, card named, problem text)
    ("toml syntax", GOOD_1 + "\n[[card]]\nnumber = = 3\n", "park", None, "", "not valid TOML"),
    ("missing key", third('spaces = "_ _ _ _"\n'), "park", None, BAD, "missing key 'bonus'"),
    ("unknown key", third(FIVE + 'spaces = "_ _ _ _"\ncolour = "red"\n'), "park", None, BAD, "unknown key 'colour'"),
    ("number type", third(FIVE + 'spaces = "_ _ _ _"\n', number='"three"'), "park", None, "[[card]] #3", "'number'"),
    ("number missing", third(FIVE + 'spaces = "_ _ _ _"\n', number=""), "park", None, "[[card]] #3", "'number'"),
    ("name type", third(FIVE + 'spaces = "_ _ _ _"\n', name="7"), "park", None, "card 3", "'name' must be"),
    ("spaces type", third(FIVE + "spaces = 4\n"), "park", None, BAD, "'spaces' must be a string"),
    ("unknown bonus", third('bonus = "cake"\nspaces = "_ _ _ _"\n'), "park", None, BAD, "unknown bonus 'cake'"),
    (
        "unknown code",
        third(FIVE + "spaces = '''\n_ _ _\n_ X _\n'''\n"),
        "park",
        None,
        BAD,
        "unknown code 'X' at row 1, col 1",
    ),
    (
        "ragged",
        third(FIVE + "spaces = '''\n_ _ _\n_ _\n'''\n"),
        "park",
        None,
        BAD,
        "ragged: row 1 has 2 codes but row 0 has 3",
    ),
    ("empty picture", third(FIVE + "spaces = '''\n\n   \n'''\n"), "park", None, BAD, "picture is empty"),
    ("no spaces", third(FIVE + "spaces = '. . .'\n"), "park", None, BAD, "has no spaces"),
    (
        "not connected",
        third(FIVE + "spaces = '''\n_ _ .\n. . _\n. . _\n'''\n"),
        "park",
        None,
        BAD,
        "not orthogonally connected: they form 2 separate groups",
    ),
    ("too small", third(FIVE + "spaces = '_ _ _'\n"), "park", None, BAD, "has 3 spaces; a park card has 4 to 7"),
    (
        "too big for grand",
        "[[card]]\nnumber = 1\nname = 'Huge'\n" + FIVE + "spaces = '''\n_ _ _ _ _\n_ _ _ _ _\n_ _ _ _ _\n'''\n",
        "grand",
        None,
        "card 1 (Huge)",
        "has 15 spaces; a grand park card has 8 to 14",
    ),
    (
        "walkway off the card",
        third(FIVE + "spaces = '_ _ _ _'\nwalkways = ['0,3 0,4']\n"),
        "park",
        None,
        BAD,
        "walkway 1: row 0, col 4 is not a space of the card",
    ),
    (
        "walkway of one",
        third(FIVE + "spaces = '_ _ _ _'\nwalkways = ['0,0 0,1', '0,3']\n"),
        "park",
        None,
        BAD,
        "walkway 2 joins 1 space(s)",
    ),
    (
        "walkway apart",
        third(FIVE + "spaces = '_ _ _ _'\nwalkways = ['0,0 0,2']\n"),
        "park",
        None,
        BAD,
        "walkway 1 joins spaces that are not orthogonally connected",
    ),
    (
        "walkway overlap",
        third(FIVE + "spaces = '_ _ _ _'\nwalkways = ['0,0 0,1', '0,1 0,2']\n"),
        "park",
        None,
        BAD,
        "row 0, col 1 is in walkway 1 and walkway 2",
    ),
    (
        "walkway syntax",
        third(FIVE + "spaces = '_ _ _ _'\nwalkways = ['0-0 0-1']\n"),
        "park",
        None,
        BAD,
        "walkway 1: '0-0' is not a cell written row,col",
    ),
    ("walkways type", third(FIVE + "spaces = '_ _ _ _'\nwalkways = '0,0 0,1'\n"), "park", None, BAD, "'walkways' must"),
    (
        "duplicate number",
        third(FIVE + "spaces = '_ _ _ _'\n", number="2"),
        "park",
        None,
        "card 2 (Bad Park)",
        "number 2 is also used by card 2 (Second)",
    ),
    (
        "duplicate name",
        third(FIVE + "spaces = '_ _ _ _'\n", name='"first"'),
        "park",
        None,
        "card 3 (first)",
        "name 'first' is also used by card 1 (First)",
    ),
    (
        "numbers not 1..N",
        third(FIVE + "spaces = '_ _ _ _'\n", number="5"),
        "park",
        None,
        "card 5 (Bad Park)",
        "number 5 is outside 1..3",
    ),
    ("wrong count", third(FIVE + "spaces = '_ _ _ _'\n"), "park", 30, "", "has 3 cards; 30 expected"),
    ("unknown top-level key", 'title = "empty"\n', "park", None, "", "unknown top-level key 'title'"),
    ("no cards", "# nothing yet\n", "park", None, "", "no [[card]] tables"),
    ("blank line inside", third(FIVE + "spaces = '''\n_ _\n\n_ _\n'''\n"), "park", None, BAD, "blank line at row 1"),
    ("card not a table", "card = 3\n", "park", None, "", "[[card]] tables"),
]


@pytest.mark.parametrize(
    ("text", "kind", "expected", "label", "problem"), [c[1:] for c in CARD_ERRORS], ids=[c[0] for c in CARD_ERRORS]
)
def test_a_bad_card_file_names_the_file_the_card_and_the_problem(
    tmp_path: Path, text: str, kind: str, expected: int | None, label: str, problem: str
) -> None:
    path = tmp_path / "my_cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_cards(path, kind, expected_count=expected)
    err = info.value
    assert err.file == str(path)
    assert err.card == label
    assert problem in err.problem
    where = f"{path}: {label}" if label else str(path)
    assert str(err) == f"{where}: {err.problem}"
    assert "my_cards.toml" in str(err)


def test_a_toml_syntax_error_gives_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(GOOD_1 + "\n[[card]]\nnumber = = 3\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"broken\.toml: not valid TOML: .*line 9"):
        load_cards(path, "park")


def test_a_missing_file_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match=r"nowhere\.toml: cannot read the file"):
        load_cards(tmp_path / "nowhere.toml", "park")


def test_a_designer_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(GOOD_2 + GOOD_1, encoding="utf-8")  # any order; cards come back by number
    first, second = load_cards(path, "park", expected_count=2)
    assert (first.name, second.name) == ("First", "Second")
    assert second.spaces == (((0, 0), "greenery"), ((0, 1), "blank"), ((1, 0), "blank"), ((1, 1), "recycling"))


GOOD_SHEET = "\n".join(["G Gw W Wr T Tw P Pr G"] * 7)

SHEET_ERRORS = [
    ("too few rows", "squares = '''\n" + "\n".join(["G G G G G G G G G"] * 6) + "\n'''\n", "has 6 rows; it needs 7"),
    (
        "short row",
        "squares = '''\n" + "\n".join(["G G G G G G G G G"] * 6 + ["G G G G G G G G"]) + "\n'''\n",
        "row 6 has 8 squares; each row needs 9",
    ),
    (
        "unknown square",
        "squares = '''\n" + GOOD_SHEET.replace("Pr", "Px", 1) + "\n'''\n",
        "unknown square 'Px' at row 0, col 7",
    ),
    ("unknown colour", "squares = '''\n" + GOOD_SHEET.replace("W ", "B ", 1) + "\n'''\n", "unknown square 'B'"),
    ("unknown key", "rows = 7\n", "unknown key 'rows'"),
    ("missing squares", "", "missing key 'squares'"),
    ("squares type", "squares = 7\n", "'squares' must be a string"),
]


@pytest.mark.parametrize(("text", "problem"), [c[1:] for c in SHEET_ERRORS], ids=[c[0] for c in SHEET_ERRORS])
def test_a_bad_sheet_file_names_the_file_and_the_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "my_sheet.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_sheet(path)
    assert info.value.file == str(path) and info.value.card == ""
    assert problem in info.value.problem
    assert str(info.value) == f"{path}: {info.value.problem}"


def test_a_designer_sheet_loads(tmp_path: Path) -> None:
    path = tmp_path / "sheet.toml"
    path.write_text(f"squares = '''\n{GOOD_SHEET}\n'''\n", encoding="utf-8")
    sheet = load_sheet(path, number=7)
    assert sheet.number == 7
    assert sheet.square((2, 1)).colour == "greenery" and sheet.square((2, 1)).icon == "wildlife"
    assert sheet.square((2, 3)).icon == "recycling" and sheet.square((2, 2)).icon == ""
    assert sheet.tally()["greenery"] == 21


def test_card_from_text_checks_like_the_loader() -> None:
    with pytest.raises(ContentError, match=r"<text>: card 4 \(Tiny\): has 2 spaces"):
        card_from_text("_ _", number=4, name="Tiny")
    with pytest.raises(ContentError, match="unknown square 'Q'"):
        sheet_from_text(GOOD_SHEET.replace("G", "Q", 1))
