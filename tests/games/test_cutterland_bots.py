"""Cutterland bots: each decision of the heuristic does what its docstring says, the search bot plays the
round out, and both beat random play."""

from __future__ import annotations

from cliplab.bots import RandomBot
from cliplab.games.cutterland.bots import HeuristicBot, SearchBot, best_join, piece_gain, ranked_cuts, worth
from cliplab.games.cutterland.rules import SPEC, Cutterland, Kingdom, Take, position


def land(*rows: str) -> list[tuple[int, int, str]]:
    return [(r, c, code) for r, row in enumerate(rows) for c, code in enumerate(row.split()) if code != "--"]


def test_worth_is_the_score_with_the_hunt_as_it_would_go() -> None:
    assert worth(Kingdom({(0, 0): "MC", (0, 1): "M."})) == 2
    assert worth(Kingdom({(0, 0): "WK", (0, 1): "WF"})) == 2  # the frog is eaten: +2, no -2


def test_a_piece_is_joined_where_it_adds_most() -> None:
    kingdom = {(0, 0): "MC", (0, 1): "M.", (0, 2): "WK"}
    gain, join = best_join(kingdom, (((0, 0), "M."),))
    # A meadow cell joined to the centaur's region adds a cell to it; beside the kraken it adds nothing.
    assert gain == 1
    meadow_side = {(-1, 0), (1, 0), (0, -1), (-1, 1), (1, 1)}
    assert (join.row, join.col) in meadow_side


def test_the_heuristic_takes_the_piece_that_adds_most_to_its_kingdom() -> None:
    game = position(2, hands=[[1], []], kingdoms=[[], land("SG SG")], cutter=0)
    # Card 1: goblins at 1,0 1,1 1,3 2,3; piece 1 is the top two rows (three goblins), piece 2 the bottom.
    game.apply("cut card 1 as 1111 1111 2222")
    choice = HeuristicBot(1).choose(game.view(1), 1)
    assert choice == Take(1)
    assert piece_gain(game.kingdoms[1], tuple(game.piece_on_table(1))) > piece_gain(
        game.kingdoms[1], tuple(game.piece_on_table(2))
    )


def test_the_heuristic_cuts_so_that_the_piece_left_to_it_is_as_good_as_possible() -> None:
    game = position(3, hands=[[1], [], []], cutter=0)
    ranked = ranked_cuts(game, 0)
    assert len(ranked) == 1350
    best_left = ranked[0][0]
    assert all(value <= best_left for value, _, _ in ranked)
    cut = HeuristicBot(0).choose(game.view(0), 0)
    assert cut in [action for value, action, _ in ranked if value == best_left]


def test_the_heuristic_places_a_wall_that_saves_a_goblin_and_keeps_a_useless_token() -> None:
    game = position(2, kingdoms=[land("SD SG"), []], tokens=[{"wall": 1, "tower": 1}, {}])
    first = HeuristicBot(0).choose(game.view(0), 0)
    # A wall (or a tower on the goblin) saves it: 2 points for the goblin less the token kept.
    assert str(first) in {"wall east of 0,0", "tower on 0,1"}
    game.apply(first)
    assert str(HeuristicBot(0).choose(game.view(0), 0)) == "keep the other tokens"


def test_the_heuristic_feeds_a_dragon_the_prey_that_leaves_the_best_score() -> None:
    # Eating the frog saves its -2 and leaves the goblin's 2; eating the goblin leaves the frog's -2.
    game = position(2, kingdoms=[land("SD SG SF"), []])
    assert game.phase == "dragons"
    assert str(HeuristicBot(0).choose(game.view(0), 0)) == "dragon at 0,0 eats 0,2"


def test_the_search_bot_chooses_a_cut_among_the_heuristics_best() -> None:
    game = position(3, hands=[[5], [], []], kingdoms=[land("WK"), land("MC"), land("SG")], cutter=0)
    width = 4
    tried = [action for _, action, _ in ranked_cuts(game, 0)[:width]]
    assert SearchBot(0, width=width).choose(game.view(0), 0) in tried


def _mean_scores(kinds: list[type], games: int) -> list[float]:
    totals = [0.0] * len(kinds)
    for seed in range(games):
        game = SPEC.new(len(kinds), 100 + seed)
        assert isinstance(game, Cutterland)
        bots = [kind(seed * 7 + seat) for seat, kind in enumerate(kinds)]
        while game.outcome() is None:
            seat = game.to_move()[0]
            game.apply(bots[seat].choose(game.view(seat), seat), seat)
        outcome = game.outcome()
        assert outcome is not None
        for seat, score in enumerate(outcome.scores):
            totals[seat] += score / games
    return totals


def test_the_heuristic_and_the_search_bot_score_more_than_random_play() -> None:
    random_score, heuristic_score = _mean_scores([RandomBot, HeuristicBot], 4)
    assert heuristic_score > random_score + 10
    random_score, search_score = _mean_scores([RandomBot, SearchBot], 3)
    assert search_score > random_score + 10
