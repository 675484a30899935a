"""Every registered game's declaration: found by its name, complete, and its scores agree with the rules.

The live scores and the score breakdown are read in every kind of decision of the sample games and at the
end of each; at the end the live scores are the outcome's scores, and each seat's breakdown accounts for
its score. The design metrics of every finished sample game are numbers.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from contract_samples import decision_samples, finished_games

from cliplab.engine import OptionError, State, games, spec
from cliplab.kit import RANDOM, Declaration, declaration, resolve

TEACH = Path(__file__).resolve().parents[2] / "notebooks" / "teach"


@pytest.mark.parametrize("game", games())
def test_the_registered_name_finds_a_complete_declaration(game: str) -> None:
    kit = declaration(game)
    assert isinstance(kit, Declaration) and kit.name == game and kit.spec is spec(game)
    assert RANDOM in kit.bot_names() and kit.default_bot in kit.bot_names()
    assert kit.bot_name("default") == kit.default_bot
    for bot in kit.bot_names():
        assert callable(kit.bot_factory(bot)), f"{game}: bot {bot!r} is not a factory"
    for part in (kit.breakdown, kit.live_scores, kit.metrics, kit.drawing):
        assert part is not None, f"{game} declares no breakdown, live scores, metrics or drawing"
    if kit.teach is not None:
        assert (TEACH / f"{kit.teach}.ipynb").is_file(), f"{game} names a teaching notebook that is not there"


@pytest.mark.parametrize("game", games())
def test_the_still_drawing_renders_in_every_kind_of_decision_and_at_the_end(game: str) -> None:
    kit = declaration(game)
    assert kit.drawing is not None, f"{game} declares no drawing"
    for state in [sample for sample, _ in decision_samples(game)] + finished_games(game):
        picture = kit.svg(state)
        assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>"), picture[:200]


def _check_breakdown(kit: Declaration, state: State) -> None:
    lines = kit.score_breakdown(state)
    assert sorted(lines) == list(range(state.players)), f"{kit.name}: breakdown seats {sorted(lines)}"
    for seat, rows in lines.items():
        assert rows, f"{kit.name}: seat {seat} has no score lines"
        for words, points in rows:
            assert isinstance(words, str) and words.strip(), f"{kit.name}: a score line without words: {rows}"
            assert isinstance(points, int | float) and math.isfinite(points), f"{kit.name}: {words}: {points!r}"


@pytest.mark.parametrize("game", games())
def test_scores_are_read_in_every_kind_of_decision(game: str) -> None:
    kit = declaration(game)
    for state, _ in decision_samples(game):
        before = state.fingerprint()
        scores = kit.live_score_reader()(state)
        assert len(scores) == state.players and all(math.isfinite(score) for score in scores), scores
        _check_breakdown(kit, state)
        assert state.fingerprint() == before, f"{game}: reading the scores changed the game"


@pytest.mark.parametrize("game", games())
def test_at_the_end_the_scores_are_the_outcome_and_the_breakdown_accounts_for_them(game: str) -> None:
    kit = declaration(game)
    for state in finished_games(game):
        outcome = state.outcome()
        assert outcome is not None
        assert list(kit.live_score_reader()(state)) == list(outcome.scores)
        _check_breakdown(kit, state)
        for seat, rows in kit.score_breakdown(state).items():
            points = [value for _, value in rows]
            # A score is the sum of its lines, or (a count ranked with tie-breaks) its first line.
            assert outcome.scores[seat] in (sum(points), points[0]), f"{game} seat {seat}: {rows} vs {outcome}"


@pytest.mark.parametrize("game", games())
def test_design_metrics_of_finished_games_are_numbers(game: str) -> None:
    kit = declaration(game)
    for state in finished_games(game):
        found = kit.design_metrics(state)
        assert found, f"{game} reports no design metrics"
        for name, value in found.items():
            assert isinstance(name, str) and name, found
            assert isinstance(value, int | float) and math.isfinite(value), f"{game}: {name} = {value!r}"
        if "rounds" in found:
            assert found["rounds"] >= 1


def test_the_kit_refuses_incomplete_declarations_and_unknown_names() -> None:
    with pytest.raises(ValueError, match="declares a 'random' bot"):
        Declaration(name="nothing", bots={"heuristic": "a.b:C"}, default_bot="heuristic")
    with pytest.raises(ValueError, match="default bot 'search' is not one of its bots"):
        Declaration(name="nothing", bots={"random": "cliplab.bots:RandomBot"}, default_bot="search")
    kit = declaration(games()[0])
    with pytest.raises(OptionError, match=f"{kit.name} has no bot 'nobody' \\(its bots: {', '.join(kit.bots)}"):
        kit.make_bot("nobody", 1)
    with pytest.raises(OptionError, match="there is no game 'no_such_game' \\(games: " + ", ".join(games())):
        declaration("no_such_game")
    with pytest.raises(OptionError, match="is not a reference of the form"):
        resolve("cliplab.bots.RandomBot")
