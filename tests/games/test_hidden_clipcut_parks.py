"""ClipCut Parks: what each seat may see (hidden information), one test per behaviour.

- The draw piles lie face down for everyone, their owners included: a view shows how many cards each holds
  and nothing of which or in what order; the deals into them show in a view's log as hidden chance events.
- A card turned up from a pile (the solo discard, a replacement) is seen by everyone, with its deal.
- No view holds the seed, so no one can read a roll before it is rolled; a sample of a view rolls its own dice
  and deals its face-down cards from the cards nobody has seen.
- At a hot-seat table undo never reaches back across a die roll, so nobody gets another roll by undoing.
- Saves made before views hid anything still load: chance is drawn as it always was.
"""

from __future__ import annotations

import random
from pathlib import Path

from cliplab.engine import CHANCE, HiddenChance, load, to_json
from cliplab.games.clipcut_parks.rules import FACE_DOWN, ClipCutParks, Deal, Roll
from cliplab.ui.table import HotSeatTable


def new(players: int, seed: int = 5) -> ClipCutParks:
    game = HotSeatTable.new("clipcut_parks", ["person"] * players, seed=seed).game
    assert isinstance(game, ClipCutParks)
    return game


def deal_index(game: ClipCutParks, card: tuple[str, int]) -> int:
    return next(i for i, (_, act) in enumerate(game.log) if isinstance(act, Deal) and (act.kind, act.card) == card)


def test_every_pile_shows_only_its_size_to_every_seat_and_to_the_spectator() -> None:
    game = new(2)
    assert all(len(pile) == 3 for pile in game.pile)
    for viewer in (0, 1, None):
        view = game.view(viewer)
        assert isinstance(view, ClipCutParks)
        assert [len(pile) for pile in view.pile] == [3, 3]
        assert all(kind == FACE_DOWN for pile in view.pile for kind, _ in pile)  # own pile included
        assert view.face_up == game.face_up  # face-up cards are for everyone to see


def test_the_deals_into_the_piles_show_as_hidden_chance_events_in_every_log() -> None:
    game = new(2)
    for seat in range(2):
        hidden = [deal_index(game, card) for card in game.pile[seat]]
        shown = [deal_index(game, card) for card in game.face_up[seat]]
        for viewer in (0, 1, None):
            log = game.view(viewer).log
            assert all(log[index] == (CHANCE, HiddenChance()) for index in hidden)
            assert all(log[index] == game.log[index] for index in shown)
            assert str(log[hidden[0]][1]) == "(a hidden chance event)"


def test_a_card_turned_up_from_the_pile_is_seen_by_everyone_with_its_deal() -> None:
    game = new(1)  # solo: the pile's top card is discarded, face up, before every roll
    turned = game.discarded[0]
    index = deal_index(game, turned)
    assert game.view(0).log[index] == game.log[index] == (CHANCE, Deal(*turned, 0))
    assert game.view(None).log[index] == game.log[index]
    assert game.reveals and game.reveals[-1][1] is None  # turned up for every seat


def test_no_view_holds_the_seed_and_a_sample_rolls_its_own_dice() -> None:
    game = new(1, seed=11)
    view = game.view(0)
    assert view.config.seed is None
    rolls = []
    for seed in range(24):
        sample = view.determinize(random.Random(seed))
        assert sample.config.seed != game.config.seed
        rolls.append(_next_roll(sample))
    assert len(set(rolls)) >= 3  # dice of their own, not the game's next roll read from its seed


def _next_roll(game: ClipCutParks) -> int:
    """Play the first legal action of each seat until the next roll; the face rolled."""
    rolled = sum(isinstance(action, Roll) for _, action in game.log)
    while sum(isinstance(action, Roll) for _, action in game.log) == rolled:
        seat = game.to_move()[0]
        game.apply(game.legal_actions(seat)[0], seat)
    return game.face


def test_a_sample_deals_face_down_cards_from_those_nobody_has_seen() -> None:
    game = new(3, seed=2)
    seen = {card for cards in (*game.face_up, *game.completed, game.discarded) for card in cards}
    piles = set()
    for seed in range(10):
        sample = game.view(1).determinize(random.Random(seed))
        assert isinstance(sample, ClipCutParks)
        assert sample.face_up == game.face_up
        dealt = [card for pile in sample.pile for card in pile]
        assert [len(pile) for pile in sample.pile] == [len(pile) for pile in game.pile]
        assert len(set(dealt)) == len(dealt) and not set(dealt) & seen
        assert all(kind == "park" for kind, _ in dealt)
        for seat, pile in enumerate(sample.pile):  # the log deals the same cards, as a replay would
            assert [sample.log[deal_index(sample, card)] for card in pile] == [(CHANCE, Deal(*c, seat)) for c in pile]
        piles.add(tuple(map(tuple, sample.pile)))
    assert len(piles) > 5


def test_undo_at_a_hot_seat_table_cannot_reach_back_across_a_die_roll() -> None:
    table = HotSeatTable.new("clipcut_parks", ["person", "person"], seed=7)
    game = table.game
    assert isinstance(game, ClipCutParks)
    while game.round == 1:
        seat = game.to_move()[0]
        table.act(game.legal_actions(seat)[0], seat)
    roll_at = max(i for i, (_, action) in enumerate(game.log) if isinstance(action, Roll))
    roll = game.log[roll_at]
    assert game.undo_limit([0, 1]) == roll_at + 1
    assert not table.can_undo()  # every decision so far came before the roll everyone has seen
    table.act(game.legal_actions(1)[0], 1)
    table.undo()  # a decision after the roll may be taken back ...
    assert len(game.log) == roll_at + 1 and game.log[roll_at] == roll
    assert not table.can_undo()  # ... but nothing before it, so no one gets another roll


def test_a_save_made_before_views_hid_anything_still_loads_exactly() -> None:
    path = Path(__file__).parent / "saves" / "clipcut_parks_before_hidden_information.json"
    game = load(path)  # written by cliplab at commit 1b16fc2; every chance entry is checked against the seed
    assert isinstance(game, ClipCutParks) and len(game.log) == 124
    assert to_json(game) == path.read_text(encoding="utf-8")
    assert all(kind == FACE_DOWN for pile in game.view(0).pile for kind, _ in pile)
