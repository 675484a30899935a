"""Random play through every registered game and variant (after OpenSpiel's games_sim_test).

Each registered (game, variant) pair joins automatically, for every player count its spec allows. A seeded
random player plays each game to its end through the checked path, and at every step the protocol is
checked: who is to move and what they may do, that the chosen action applies, that clones are equal and
independent, that undo gives back the position before, that the game stays within its longest length and
that views keep the log's shape and refuse actions. On a random share of the steps (SAMPLE_RATE) the
expensive checks run too: every legal action applies on a clone, and a battery of illegal and malformed
tries (wrong seats, unlisted actions, wrong types, garbage text) is refused with the fingerprint unchanged;
on the other steps one random try from that battery is made. Saves and replays are checked at steps
0, 1, 2, 4, 8, ... and at the end, where the outcome is checked and the game is rewound to earlier lengths.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cliplab import engine
from cliplab.engine import Action, Hidden, IllegalAction, State, from_json, replay, to_json

DEFAULT_GAMES = 100  # seeded games per player count with the default rules (variant None)
VARIANT_GAMES = 20  # seeded games per player count with each named variant
# Fewer for games whose every step offers hundreds of actions (a ClipCut Parks game is 50-300 decisions,
# each over all cuts or all placements, at about a second a game; a Cutterland cut is one of up to 12975):
# (default rules, each variant).
GAMES_PER_COUNT = {"clipcut_parks": (25, 5), "cutterland": (25, 5), "swap_clops": (25, 5)}
SAMPLE_RATE = 0.3  # share of the steps on which the expensive checks run
FINGERPRINTED_TRIES = 2  # refused tries per sampled step after which the fingerprint is compared too
KEEP_RATE = 0.1  # share of the steps whose position is kept for the rewind checks at the end

GARBAGE_TEXTS = ("", "   ", "jump over the moon", "walk", "walk Q with penguin x")
WRONG_TYPES: tuple[Any, ...] = (None, 42, {"action": "pass"}, object(), 1.5, b"pass", ["pass"])
NOISE_LETTERS = string.ascii_letters + string.digits + " ,.-!?"
_NUMBER = re.compile(r"-?\d+")


def _cases() -> Iterator[Any]:
    for game, variant in engine.variants():
        spec = engine.spec(game)
        default_games, variant_games = GAMES_PER_COUNT.get(game, (DEFAULT_GAMES, VARIANT_GAMES))
        count = default_games if variant is None else variant_games
        for players in range(spec.min_players, spec.max_players + 1):
            for seed in range(count):
                name = f"{game}-{variant or 'default'}-{players}p-seed{seed}"
                yield pytest.param(game, variant, players, seed, id=name)


def _is_save_step(step: int) -> bool:
    """Steps 0, 1, 2, 4, 8, 16, ..."""
    return step == 0 or step & (step - 1) == 0


# ----- helpers ---------------------------------------------------------------------------------------


def _refused(state: State, before: State, fp: str | None, action: Any, player: Any, what: str, where: str) -> None:
    """`action` by `player` raises IllegalAction (rule and reason filled in) and leaves the state as it was."""
    try:
        state.apply(action, player)
    except IllegalAction as err:
        assert isinstance(err.rule, str) and err.rule, f"{where}: {what}: IllegalAction without a rule"
        assert isinstance(err.reason, str) and err.reason, f"{where}: {what}: IllegalAction without a reason"
        assert err.rule in str(err), f"{where}: {what}: the message {str(err)!r} does not name the rule"
    except Exception as err:  # any other exception is a bug in the engine or the game
        pytest.fail(f"{where}: {what}: {action!r} by {player!r} raised {type(err).__name__}: {err}")
    else:
        pytest.fail(f"{where}: {what}: {action!r} by player {player!r} was accepted")
    assert state == before, f"{where}: {what}: the refused {action!r} by {player!r} changed the state"
    if fp is not None:
        assert state.fingerprint() == fp, f"{where}: {what}: the refused {action!r} changed the fingerprint"


def _accepted(state: State, action: Action, seat: int) -> bool:
    """Whether the game takes `action` from `seat` now (tried on a copy)."""
    try:
        state.clone().apply(action, seat)
    except IllegalAction:
        return False
    return True


def _unlisted(state: State, seat: int, legal: list[Action], rng: random.Random, counts: Counter[str]) -> list[Action]:
    """Actions of a legal action's type that are not legal: a number in its text changed to 99 or -1."""
    found = []
    for action in rng.sample(legal, min(3, len(legal))):
        text = str(action)
        for match in _NUMBER.finditer(text):
            for new in ("99", "-1"):
                changed = text[: match.start()] + new + text[match.end() :]
                counts["tried"] += 1
                try:
                    parsed = state.parse(changed)
                except IllegalAction:
                    counts["unparsed"] += 1
                    continue
                if parsed in legal:
                    counts["still legal"] += 1
                    continue
                counts["refused"] += 1
                assert type(parsed) is type(action), f"{changed!r} parsed as a {type(parsed).__name__}"
                found.append(parsed)
    return found


def _illegal_tries(
    state: State, seat: int, legal: list[Action], rng: random.Random, counts: Counter[str]
) -> list[tuple[str, Any, Any]]:
    """(what, action, player) tries that the rules must refuse now."""
    movers = state.to_move()
    players = state.players
    action = rng.choice(legal)
    tries: list[tuple[str, Any, Any]] = []
    # Wrong players: seats that are not to move, seats that do not exist, things that are not seats.
    idle = [s for s in range(players) if s not in movers]
    for other in rng.sample(idle, min(2, len(idle))):
        tries.append(("a seat not to move", action, other))
    for bad in (-5, -1, players, 99, "0", str(seat), 1.5, True, False, float(seat)):
        tries.append(("a bad seat", action, bad))
    if len(movers) > 1:
        tries.append(("no seat named while several decide", action, None))
    # Actions of a legal type that are not in the legal list.
    for unlisted in _unlisted(state, seat, legal, rng, counts):
        tries.append(("an unlisted action", unlisted, seat))
        tries.append(("an unlisted action as text", str(unlisted), seat))
    # Actions that were legal earlier in the game but are not now (often from another phase).
    listed = set(legal)
    picked = [state.log[rng.randrange(len(state.log))] for _ in range(4)] if state.log else []
    # A game may accept other spellings of a listed action (a cut named from its other end): those are legal.
    earlier = [a for s, a in picked if s != engine.CHANCE and a not in listed and not _accepted(state, a, seat)]
    for old in earlier[:2]:
        tries.append(("an earlier action not legal now", old, seat))
    # Chance events are never a player's to choose.
    chance = [a for s, a in state.log if s == engine.CHANCE]
    if chance:
        tries.append(("a chance event", rng.choice(chance), seat))
    # Wrong types and garbage text.
    for wrong in (*WRONG_TYPES, Hidden(), Action()):
        tries.append(("a wrong type", wrong, seat))
    for text in GARBAGE_TEXTS:
        tries.append(("garbage text", text, seat))
    noise = "".join(rng.choices(NOISE_LETTERS, k=rng.randint(30, 300)))
    tries.append(("random text", noise, seat))
    return tries


def _check_views(state: State, where: str) -> None:
    movers = state.to_move()
    for seat in range(state.players):
        view = state.view(seat)
        assert len(view.log) == len(state.log), f"{where}: view({seat}) has a log of another length"
        for index, ((shown_seat, shown), (real_seat, real)) in enumerate(zip(view.log, state.log, strict=True)):
            assert shown_seat == real_seat, f"{where}: view({seat}).log[{index}] names another seat"
            if isinstance(shown, Hidden):
                assert real_seat != seat, f"{where}: view({seat}) hides its own log[{index}] ({real})"
                assert real.SECRET or real.CHANCE, f"{where}: view({seat}) hides log[{index}] ({real}), not a secret"
            else:
                assert shown == real, f"{where}: view({seat}).log[{index}] is {shown}, the game has {real}"
        assert view.to_move() == movers, f"{where}: view({seat}) has others to move than the game"
        if seat in movers:
            own = state.legal_actions(seat)
            assert view.legal_actions(seat) == own, f"{where}: view({seat}) gives other legal actions"
            attempt: Any = own[0]
        else:
            attempt = state.legal_actions(movers[0])[0] if movers else "pass"
        try:
            view.apply(attempt, seat)
        except IllegalAction:
            pass
        else:
            pytest.fail(f"{where}: view({seat}) accepted {attempt}")
        assert len(view.log) == len(state.log), f"{where}: a refused action changed view({seat})"


def _check_saves(state: State, where: str) -> None:
    text = to_json(state)
    loaded = from_json(text)
    assert loaded == state, f"{where}: from_json(to_json(state)) differs from the state"
    assert loaded.fingerprint() == state.fingerprint(), f"{where}: the loaded game has another fingerprint"
    assert to_json(loaded) == text, f"{where}: the JSON text changed after a second round trip"
    assert replay(state.config, state.log) == state, f"{where}: replaying the log gives another state"
    as_text = [(seat, str(action)) for seat, action in state.log]
    assert replay(state.config, as_text) == state, f"{where}: replaying the log as text gives another state"


def _check_outcome(state: State, where: str) -> None:
    outcome = state.outcome()
    assert outcome is not None, f"{where}: the game is over but has no outcome"
    players = state.players
    assert len(outcome.scores) == players, f"{where}: {len(outcome.scores)} scores for {players} players"
    assert len(outcome.ranks) == players, f"{where}: {len(outcome.ranks)} ranks for {players} players"
    assert all(type(r) is int and 1 <= r <= players for r in outcome.ranks), f"{where}: ranks {outcome.ranks}"
    assert outcome.winners, f"{where}: the game ended without a winner: {outcome}"
    rank_one = tuple(seat for seat, rank in enumerate(outcome.ranks) if rank == 1)
    assert tuple(outcome.winners) == rank_one, f"{where}: winners {outcome.winners} but ranks {outcome.ranks}"
    assert isinstance(outcome.termination, str) and outcome.termination.strip(), f"{where}: no termination"
    best = max(outcome.scores)
    assert all(outcome.scores[w] == best for w in outcome.winners), f"{where}: a winner lacks the top score"
    assert state.clone().outcome() == outcome, f"{where}: a clone has another outcome"


# ----- the test ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "variant", "players", "seed"), list(_cases()))
def test_random_play(game: str, variant: str | None, players: int, seed: int) -> None:
    spec = engine.spec(game)
    rng = random.Random(seed)
    state = engine.new_game(game, players, seed, variant)
    assert state.players == players
    longest = spec.longest(state.config)
    kept = {len(state.log): state.clone()}
    counts: Counter[str] = Counter()
    step = 0
    while True:
        where = f"{game} variant {variant} with {players} players, seed {seed}, step {step}"
        assert len(state.log) <= longest, (
            f"{where}: the game has {len(state.log)} log entries, more than spec.longest = {longest}"
        )
        if _is_save_step(step):
            _check_saves(state, where)
        if state.is_over():
            assert state.to_move() == (), f"{where}: the game is over but {state.to_move()} are to move"
            break
        movers = state.to_move()
        assert movers, f"{where}: the game is not over but nobody is to move"
        assert len(set(movers)) == len(movers), f"{where}: to_move {movers} repeats a seat"
        for s in range(players):
            actions = state.legal_actions(s)
            if s in movers:
                assert actions, f"{where}: seat {s} is to move but has no legal actions"
                assert len(set(actions)) == len(actions), f"{where}: seat {s} has repeated legal actions"
            else:
                assert actions == [], f"{where}: seat {s} is not to move but has legal actions {actions}"
        seat = rng.choice(movers)
        legal = state.legal_actions(seat)
        _check_views(state, where)

        before = state.clone()
        assert before == state, f"{where}: a clone differs from its original"
        assert before.log is not state.log, f"{where}: a clone shares its log with the original"
        tries = _illegal_tries(state, seat, legal, rng, counts)
        if rng.random() < SAMPLE_RATE:
            fp = state.fingerprint()
            assert before.fingerprint() == fp, f"{where}: a clone has another fingerprint"
            # Every try is compared with the clone; the (costlier) fingerprint after a few of them and at the end.
            printed = set(rng.sample(range(len(tries)), min(FINGERPRINTED_TRIES, len(tries))))
            for index, (what, attempt, player) in enumerate(tries):
                _refused(state, before, fp if index in printed else None, attempt, player, what, where)
            assert state.fingerprint() == fp, f"{where}: the refused tries changed the fingerprint"
            for action in legal:
                trial = state.clone()
                try:
                    trial.apply(action, seat)
                except Exception as err:
                    pytest.fail(f"{where}: the legal {action} by seat {seat} raised {type(err).__name__}: {err}")
                assert len(trial.log) > len(state.log), f"{where}: {action} was not logged"
            assert state.fingerprint() == fp, f"{where}: acting on clones changed the original"
            assert state == before, f"{where}: acting on clones changed the original"
        else:
            what, attempt, player = rng.choice(tries)
            _refused(state, before, None, attempt, player, what, where)

        action = rng.choice(legal)
        given: Action | str = str(action) if rng.random() < 0.25 else action
        try:
            returned = state.apply(given, seat)
        except IllegalAction as err:
            pytest.fail(f"{where}: the legal action {given!r} by seat {seat} was refused: {err}")
        assert returned == action, f"{where}: apply({given!r}) returned {returned!r}"
        assert state.log[len(before.log)] == (seat, action), f"{where}: {action} is not logged where it belongs"
        assert len(before.log) < len(state.log), f"{where}: applying to the game changed its clone"
        fast = before.clone()
        fast.apply_fast(action, seat)
        assert fast == state, f"{where}: apply_fast({action}) gives another state than apply"
        undone = state.clone()
        undone.undo()
        assert undone == before, f"{where}: undo() after {action} by seat {seat} does not give the position before"
        step += 1
        if rng.random() < KEEP_RATE or _is_save_step(step):
            kept[len(state.log)] = state.clone()

    where = f"{game} variant {variant} with {players} players, seed {seed}, at the end after {step} steps"
    _check_saves(state, where)
    _check_outcome(state, where)
    assert state.to_move() == (), f"{where}: the game is over but {state.to_move()} are to move"
    for s in range(players):
        assert state.legal_actions(s) == [], f"{where}: the game is over but seat {s} has legal actions"
    _check_views(state, where)
    end = state.clone()
    fp = state.fingerprint()
    played = [(s, a) for s, a in state.log if s != engine.CHANCE]
    for s, a in rng.sample(played, min(3, len(played))):
        _refused(state, end, fp, a, s, "an action after the end", where)
    # Rewind to earlier lengths: the position is the one kept when the game had that many log entries.
    for length in rng.sample(sorted(kept), min(4, len(kept))):
        rewound = state.clone()
        rewound.rewind(length)
        assert rewound == kept[length], f"{where}: rewind({length}) differs from the position kept at that length"
    assert state == end, f"{where}: rewinding clones changed the game"
    if counts["tried"]:
        assert counts["refused"] > 0, f"{where}: no changed action text gave an unlisted action: {dict(counts)}"
