"""Click & Crack: what each seat may see (hidden information), one test per behaviour.

- Until the reveal, a seat sees only its own tile settings; the spectator sees none. All are revealed
  together once the last seat has set its tiles.
- A sample of a view guesses the settings it cannot see, from all 36, and keeps the viewer's own; a sample
  of the spectator's view guesses every one.
- At a hot-seat table undo never takes back a setting once all are revealed, so nobody sets again knowing
  the others' tiles; the random start player, once drawn, is never drawn again by undoing.
"""

from __future__ import annotations

import random

from cliplab.engine import CHANCE, Hidden
from cliplab.games.click_crack.rules import ALL_SETTINGS, ClickCrack, SetTiles, StartPlayer, position
from cliplab.ui.table import HotSeatTable

PENGUINS = [(1, 1), (1, 4), (4, 1), (4, 4), (2, 2), (3, 3)]


def round_one(seed: int = 0) -> ClickCrack:
    return position(3, seed, penguins=PENGUINS)


def test_a_seat_sees_only_its_own_setting_and_the_spectator_none_until_the_reveal() -> None:
    game = round_one()
    game.apply("set walk N and break E", 0)
    game.apply("set break S and break S", 1)
    for viewer, shown in ((0, [0]), (1, [1]), (2, []), (None, [])):
        view = game.view(viewer)
        assert isinstance(view, ClickCrack)
        assert [seat for seat in range(3) if view.tiles[seat]] == shown
        hidden = [seat for seat, action in view.log if isinstance(action, Hidden)]
        assert hidden == [seat for seat in (0, 1) if seat not in shown]
    game.apply("set walk W and walk E", 2)  # the last setting reveals them all
    for viewer in (0, 1, 2, None):
        assert game.view(viewer).log == game.log
        assert game.view(viewer).tiles == game.tiles  # type: ignore[attr-defined]


def test_a_sample_guesses_the_settings_its_seat_cannot_see_and_keeps_its_own() -> None:
    game = round_one()
    game.apply("set walk N and break E", 0)
    game.apply("set break S and break S", 1)
    own = game.tiles[1]
    guessed = set()
    for seed in range(40):
        sample = game.view(1).determinize(random.Random(seed))
        assert isinstance(sample, ClickCrack)
        assert sample.tiles[1] == own and sample.to_move() == (2,)
        assert isinstance(sample.log[-2][1], SetTiles) and sample.log[-2][1].tiles == sample.tiles[0]
        guessed.add(sample.tiles[0])
    assert len(guessed) > 20 and guessed <= {setting.tiles for setting in ALL_SETTINGS}
    spectator = {game.view(None).determinize(random.Random(seed)).tiles[1] for seed in range(40)}
    assert len(spectator) > 20  # the spectator's samples guess seat 1's setting too


def test_undo_at_a_hot_seat_table_never_takes_back_a_revealed_setting() -> None:
    table = HotSeatTable(["person", "person", "person"], round_one())
    game = table.game
    table.act("set walk N and break E", 0)
    table.act("set break S and break S", 1)
    table.act("set walk W and walk E", 2)  # all three are revealed
    revealed = game.log[-3:]
    assert game.undo_limit([0, 1, 2]) == len(game.log)
    assert not table.can_undo()
    table.act(game.legal_actions(0)[0], 0)
    table.undo()  # carrying out a tile may be taken back, the settings may not
    assert game.log[-3:] == revealed and not table.can_undo()


def test_undo_never_draws_the_random_start_player_again() -> None:
    table = HotSeatTable.new("click_crack", ["person", "person", "person"], seed=4, random_start=True)
    game = table.game
    assert isinstance(game.log[0][1], StartPlayer) and game.log[0][0] == CHANCE
    first = game.log[0]
    table.act(game.legal_actions()[0], game.to_move()[0])
    table.undo()
    assert game.undo_limit([0, 1, 2]) == 1 and game.log == [first]
    assert not table.can_undo()
