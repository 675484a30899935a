"""Hidden information, for every registered game: what a view may show, and what a sample of it may change.

The positions are a few of every kind of decision met in the games of contract_samples' setups and in one
begun from the game's position builder, played by the random bot, with the actions of seats deciding at
once applied one at a time (so that some positions hold secret decisions not yet revealed). At each, the
view of every seat and the spectator's view are compared with determinized samples: complete games that
agree with the view and differ from the real game in everything the view hides (other face-down cards and
settings, another seed). The protocol is all these tests use: a game tells what it hides only by what its
views leave out.

- A view of a sample equals the view it was drawn from, and so does every output of it (repr, str, the
  fingerprint, the log's text, the SVG picture, the legal actions); a save of a view is refused. The
  samples plant other hidden values, so no output of a view carries a hidden fact.
- The samples really plant: every field a view hides, every hidden log entry and the seed change between
  samples, and each sample is a game whose log rebuilds it.
- Every declared bot chooses the same from a view of the real game as from a view of a sample.
- A game played with a planted seed never shows it, nor the text of a hidden log entry, in any view.
- The spec's traits (simultaneous, hidden_information, chance) say what the sample games do.
- Whatever turns visible to a seat is recorded as a reveal, so the table's undo limit never goes back past it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from functools import cache

import pytest
from contract_samples import decision_kind, setups

from cliplab.engine import CHANCE, Hidden, SaveError, State, games, spec, to_json
from cliplab.kit import RANDOM, declaration

PER_KIND = 3  # positions kept of each kind of decision
SAMPLES = 3  # determinized samples drawn from each view
BOT_SEED = 5
PLANTED_SEED = 8_675_309_421  # a seed whose digits would stand out in any text
# What every view changes by being a view, hiding nothing of the game.
BOOKKEEPING = {"config", "viewer", "is_view", "log"}


def starts(game: str, seeds: Iterable[tuple[int, str | None, int]]) -> Iterator[State]:
    """New games of these (players, variant, seed), then one begun at the position builder's defaults with
    the last seed (when the game declares a builder: its start must hide what play would hide)."""
    last = 0
    for players, variant, seed in seeds:
        last = seed
        yield spec(game).new(players, seed, variant)
    kit = declaration(game)
    if kit.position is not None:
        yield kit.position_builder()(seed=last)


def _steps(game: str, games_played: Iterable[State]) -> Iterator[tuple[State, State]]:
    """(before, after) of every action in these games, played by the random bot to their end.
    Seats deciding at once all choose on the same position, and their actions are then applied one at a
    time, as at a table: the positions in between are where secret decisions are hidden."""
    kit = declaration(game)
    for number, state in enumerate(games_played):
        bots = [kit.make_bot(RANDOM, 1000 * number + seat) for seat in range(state.players)]
        while state.outcome() is None:
            choices = [(seat, bots[seat].choose(state.view(seat), seat)) for seat in state.to_move()]
            for seat, action in choices:
                before = state.clone()
                state.apply(action, seat)
                yield before, state


@cache
def positions(game: str) -> list[tuple[State, int]]:
    """(position, a seat to decide there): PER_KIND of every kind of decision, told apart by what the spectator
    cannot see too, spread evenly over the sample setups' games (contract_samples.setups)."""
    met: dict[tuple[object, ...], list[tuple[State, int]]] = {}
    for before, _ in _steps(game, starts(game, setups(game))):
        seat = before.to_move()[-1]
        kind = (decision_kind(before, seat), bool(hidden_entries(before.view(None))))
        met.setdefault(kind, []).append((before, seat))
    picked = []
    for found in met.values():
        step = len(found) / min(PER_KIND, len(found))
        picked += [found[int(step * k)] for k in range(min(PER_KIND, len(found)))]
    return picked


def viewers(state: State) -> list[int | None]:
    return [*range(state.players), None]


def outputs(view: State) -> dict[str, object]:
    """Everything a view shows to whoever holds it."""
    shown: dict[str, object] = {
        "repr": repr(view),
        "str": str(view),
        "fingerprint": view.fingerprint(),
        "log": [f"{seat}: {action}" for seat, action in view.log],
        "to move": view.to_move(),
        "legal actions": {seat: view.legal_actions(seat) for seat in view.to_move()},
        "outcome": view.outcome(),
    }
    picture = getattr(view, "_repr_svg_", None)
    if picture is not None:
        shown["svg"] = picture()
    return shown


def differing(one: State, other: State) -> set[str]:
    """The fields of the game's own data that hold other values in `other` than in `one`."""
    mine, theirs = vars(one), vars(other)
    return {name for name in mine if name not in BOOKKEEPING and name != "_checkpoints" and theirs[name] != mine[name]}


def hidden_entries(view: State) -> list[int]:
    return [index for index, (_, action) in enumerate(view.log) if isinstance(action, Hidden)]


def samples_of(view: State, where: str) -> Iterator[State]:
    for number in range(SAMPLES):
        yield view.determinize(random.Random(f"{where}/{number}"))


def _where(game: str, state: State, seat: int, viewer: int | None) -> str:
    return f"{game}, {state.players} players, {decision_kind(state, seat)}, view of {viewer}"


@pytest.mark.parametrize("game", games())
def test_a_view_and_all_it_shows_are_the_same_whatever_it_hides(game: str) -> None:
    for state, seat in positions(game):
        for viewer in viewers(state):
            where = _where(game, state, seat, viewer)
            view = state.view(viewer)
            assert view.config.seed is None, f"{where}: the view holds the seed"
            with pytest.raises(SaveError):
                to_json(view)
            shown = outputs(view)
            for sample in samples_of(view, where):
                again = sample.view(viewer)
                assert again == view, f"{where}: a sample's view differs in {differing(view, again) or 'log'}"
                assert outputs(again) == shown, f"{where}: a sample's view shows something else"


@pytest.mark.parametrize("game", games())
def test_samples_plant_other_values_for_everything_a_view_hides(game: str) -> None:
    hidden: set[str] = set()
    planted: set[str] = set()
    logs_hidden = logs_planted = 0
    for state, seat in positions(game):
        for viewer in viewers(state):
            where = _where(game, state, seat, viewer)
            view = state.view(viewer)
            hidden |= differing(state, view)
            masked = hidden_entries(view)
            logs_hidden += bool(masked)
            seeds = set()
            for sample in samples_of(view, where):
                assert not sample.is_view and sample.viewer is None, f"{where}: a sample is still a view"
                assert sample.config.seed is not None and sample.config.seed != state.config.seed, where
                seeds.add(sample.config.seed)
                planted |= differing(state, sample)
                logs_planted += any(sample.log[index] != state.log[index] for index in masked)
                assert not hidden_entries(sample), f"{where}: a sample keeps hidden log entries"
                rebuilt = sample.clone()
                rebuilt.rewind(len(rebuilt.log))  # a sample keeps no snapshots: this replays its whole log
                assert rebuilt == sample, f"{where}: a sample's log does not rebuild it"
            assert len(seeds) == SAMPLES, f"{where}: samples share a seed"
    assert hidden <= planted, f"{game}: samples never change the hidden fields {sorted(hidden - planted)}"
    assert logs_planted or not logs_hidden, f"{game}: samples never change a hidden log entry"


def _bots() -> list[tuple[str, str]]:
    return [(game, bot) for game in games() for bot in declaration(game).bot_names()]


@pytest.mark.parametrize(("game", "bot"), _bots(), ids=[f"{game}-{bot}" for game, bot in _bots()])
def test_a_bot_chooses_the_same_whatever_its_seat_cannot_see(game: str, bot: str) -> None:
    kit = declaration(game)
    for state, seat in positions(game):
        where = _where(game, state, seat, seat)
        real = kit.make_bot(bot, BOT_SEED).choose(state.view(seat), seat)
        other = next(samples_of(state.view(seat), where))
        chosen = kit.make_bot(bot, BOT_SEED).choose(other.view(seat), seat)
        assert chosen == real, f"{where}: bot {bot!r} chose {real} in the game and {chosen} in a sample"


@pytest.mark.parametrize("game", games())
def test_no_view_shows_the_seed_or_the_text_of_a_hidden_entry(game: str) -> None:
    rules = spec(game)
    planted = [(players, None, PLANTED_SEED) for players in range(rules.min_players, rules.max_players + 1)]
    for step, (_, state) in enumerate(_steps(game, starts(game, planted))):
        if step % 4:
            continue
        for viewer in viewers(state):
            view = state.view(viewer)
            visible = {str(action) for _, action in view.log}
            secrets = {str(state.log[index][1]) for index in hidden_entries(view)} - visible
            text = "\n".join(str(value) for value in outputs(view).values())
            where = f"{game}, {state.players} players, step {step}, view of {viewer}"
            assert str(PLANTED_SEED) not in text, f"{where}: the seed shows"
            leaked = [secret for secret in secrets if secret in text]
            assert not leaked, f"{where}: a view shows the hidden {leaked}"


@pytest.mark.parametrize("game", games())
def test_the_spec_declares_the_traits_its_games_show(game: str) -> None:
    rules = spec(game)
    several = hides = drew = False
    for state, _ in _steps(game, starts(game, setups(game))):
        several |= len(state.to_move()) > 1
        drew |= any(seat == CHANCE for seat, _ in state.log)
        for viewer in viewers(state):
            view = state.view(viewer)
            hides |= bool(hidden_entries(view) or differing(state, view))
    assert rules.simultaneous == several, f"{game}: simultaneous={rules.simultaneous}, sample games say {several}"
    assert rules.hidden_information == hides, f"{game}: hidden_information={rules.hidden_information}, games: {hides}"
    assert rules.chance == drew, f"{game}: chance={rules.chance}, sample games say {drew}"


@pytest.mark.parametrize("game", games())
def test_what_turns_visible_is_recorded_and_the_undo_limit_never_goes_back(game: str) -> None:
    for before, after in _steps(game, starts(game, setups(game))):
        step = range(len(before.log), len(after.log))
        for seat in range(after.players):
            seen = set(hidden_entries(before.view(seat))) - set(hidden_entries(after.view(seat)))
            if seen:
                recorded = [at for at, seats in after.reveals if at in step and (seats is None or seat in seats)]
                assert recorded, f"{game}: log entries {sorted(seen)} turned visible to {seat} with no reveal"
            assert after.undo_limit([seat]) >= before.undo_limit([seat]), f"{game}: seat {seat}'s undo limit fell"
        everyone = range(after.players)
        limit = after.undo_limit(everyone)
        assert before.undo_limit(everyone) <= limit <= len(after.log)
        for index in range(limit, len(after.log)):
            entry = after.log[index]
            assert entry[0] != CHANCE or index in hidden_entries(after.view(None)), (
                f"{game}: undo may go back past the chance result {entry[1]} that everyone has seen"
            )
