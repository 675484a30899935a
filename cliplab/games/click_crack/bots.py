"""Click & Crack bots that decide from their own player's view only, and the game knowledge a search bot uses.

`ClickCrackBot`, the heuristic bot, looks one decision ahead on a copy of its view, lets the rest of the
round play out greedily with the tiles already revealed (`settle_round`), and judges where that ends with
`win_chances`: a softmax over every seat's `material` (the real win shares once the game is over). Material
counts points, penguins on the floe (and having one at all), penguins at the edge, the best profitable
one-crack break-off a seat can make next round (shared among the seats that can reach that crack, from
where their penguins stand or one step away), the break-offs a penguin can make alone with two break tiles
from where it stands, and the threat to penguins that another seat could strand with a crack that pays it.
Setting tiles (the secret phase), it values each of the 36 settings by the best way it could carry out both
tiles, in either order and with either penguin, in the current position (`setting_values`); it never looks
at other players' settings (they are not in its view then). Placing, it takes the point of best material.
The weights are the constants below.

`search_bot` is the game-independent `cliplab.bots.mcts.MCTSBot` with this knowledge: the heuristic's
values as the root prior (only the best SEARCH_ROOT_WIDTH actions are searched), the heuristic as the model
of the other players inside the tree (`heuristic_model`, cached, with a random move now and then; tile
settings of later rounds by `rollout_policy`),
`rollout_policy` for fast playouts (greedy break-offs, random otherwise), cut off after
SEARCH_ROLLOUT_DEPTH actions and judged by `evaluate` (the round finished greedily, then `win_chances`).

Everything runs on the rules' own floe model (`rules.Floe`: penguins, floe tiles, cracks, scores, and where
each tile leads), the functions the game itself applies; the bots add only judgement.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cliplab.bots.mcts import MCTSBot
from cliplab.engine import Action, State
from cliplab.grid import Cell, Point, Segment

from .rules import (
    ALL_SETTINGS,
    AROUND,
    CACHE_KEPT,
    DIRS,
    EDGES,
    KINDS,
    POINTS,
    TOPPLE_SIZE,
    ClickCrack,
    Floe,
    Gone,
    Perform,
    Place,
    SetTiles,
    gone_options,
    splitting,
    stranded_points,
)

# ----- weights ---------------------------------------------------------------------------------------
# Material is counted in points: a tile broken off is worth 1.

PENGUIN_VALUE = 1.0
"""Each own penguin on the floe: it carries out tiles, and losing it can end the game."""
LAST_PENGUIN_VALUE = 2.0
"""Extra for still having a penguin at all: a seat without one sits out and can no longer score."""
EDGE_RISK = 0.15
"""Per floe tile missing around a penguin's intersection: edge penguins are the ones that get stranded."""
OPPORTUNITY = 0.6
"""Share of the net gain of a profitable one-crack break-off credited to a seat that can make it next round,
divided among the seats that can."""
FAR_OPPORTUNITY = 0.3
"""The same for a crack a penguin can reach only after walking one step first."""
PAIR_OPPORTUNITY = 0.35
"""Share of the net gain of a break-off a penguin can make alone with two break tiles from where it stands."""
THREAT = 0.5
"""Share of a penguin's value lost when another seat can strand it next round with a profitable crack."""
TEMPERATURE = 1.5
"""Points of material per e-fold in the softmax that turns every seat's material into win chances."""
PLACE_NOISE = 0.02
"""Random jitter among near-equal placements, so that seeded bots don't all play the same opening."""
ROLLOUT_EPSILON = 0.15
"""Share of the rollout policy's choices made uniformly at random."""

# The search bot's defaults (see `search_bot` and bench/bots.py for the timings behind them).
SEARCH_ITERATIONS = 120
"""Iterations per decision: a median move of about 0.15 s, 95% under 0.75 s (bench/bots.py, one free core).
The declared bot has no time cap, so its choice depends on its seed and view alone (the kit's contract)."""
SEARCH_ROLLOUT_DEPTH = 12
"""Actions a playout runs (about a round) before `evaluate` judges it."""
SEARCH_ROOT_WIDTH = 6
"""The root player's actions searched: the heuristic's best few (all of them when performing, mostly)."""

_Singles = tuple[tuple[Segment, Gone], ...]
_SINGLES: dict[tuple[frozenset[Cell], frozenset[Segment], Point], _Singles] = {}
_PAIRS: dict[tuple[frozenset[Cell], frozenset[Segment], Point], tuple[Gone, ...]] = {}


def crack_options(main: frozenset[Cell], cracks: frozenset[Segment], at: Point) -> _Singles:
    """The cracks a penguin at `at` could make, each with what would break off (see `gone_options`). Cached."""
    key = (main, cracks, at)
    found = _SINGLES.get(key)
    if found is None:
        table = splitting(main, cracks)
        singles = []
        for direction in DIRS:
            edge = EDGES.get((at, direction))
            if edge is not None:
                seg = edge[1]
                if seg[0] in main and seg[1] in main and seg not in cracks:
                    singles.append((seg, table.get(seg, ())))
        if len(_SINGLES) >= CACHE_KEPT:
            _SINGLES.clear()
        found = _SINGLES[key] = tuple(singles)
    return found


def pair_options(main: frozenset[Cell], cracks: frozenset[Segment], at: Point) -> tuple[Gone, ...]:
    """What could break off when a penguin at `at` makes two cracks that alone break nothing. Cached."""
    key = (main, cracks, at)
    found = _PAIRS.get(key)
    if found is None:
        holding = [seg for seg, options in crack_options(main, cracks, at) if not options]
        pairs = []
        for a, b in combinations(holding, 2):
            options = gone_options(main, cracks | {a}, b)
            if options:
                pairs.append(options)
        if len(_PAIRS) >= CACHE_KEPT:
            _PAIRS.clear()
        found = _PAIRS[key] = tuple(pairs)
    return found


# ----- judging a position ----------------------------------------------------------------------------


def _break_value(floe: Floe, seat: int, actor: int, actor_at: Point, gone: frozenset[Cell]) -> tuple[float, list[int]]:
    """Net material a break-off of `gone` brings `seat` (cracked by `actor` from `actor_at`), and the other
    seats' penguins it strands."""
    lost = stranded_points(floe.main, gone)
    value = float(len(gone))
    victims = []
    actor_lost = len(gone) >= TOPPLE_SIZE
    for penguin, at in enumerate(floe.pos):
        if penguin == actor:
            at = actor_at
        if at is None or at not in lost:
            continue
        value -= 1
        if penguin // 2 == seat:
            if penguin == actor:
                actor_lost = True
            else:
                value -= PENGUIN_VALUE
        else:
            victims.append(penguin)
    if actor_lost:
        value -= PENGUIN_VALUE
    return value, victims


_Summary = tuple[int, tuple[tuple[Segment, Gone], ...], tuple[Gone, ...], tuple[tuple[Point, Segment, Gone], ...]]
_SUMMARIES: dict[tuple[frozenset[Cell], frozenset[Segment], Point], _Summary] = {}


def point_summary(main: frozenset[Cell], cracks: frozenset[Segment], at: Point) -> _Summary:
    """What a penguin at `at` has to do with break-offs: floe tiles missing around it; the cracks it could
    make that break something off (with `gone_options`); what two cracks of its own could break off; and
    the cracks that break something off that it could make after one step (where to, which, what). Cached."""
    key = (main, cracks, at)
    found = _SUMMARIES.get(key)
    if found is None:
        missing = sum(cell not in main for cell in AROUND[at])
        near = crack_options(main, cracks, at)
        splitting = tuple((seg, options) for seg, options in near if options)
        reachable = []
        close = {seg for seg, _ in near}
        for walk in DIRS:
            edge = EDGES.get((at, walk))
            if edge is None or (edge[1][0] not in main and edge[1][1] not in main):
                continue
            there = edge[0]
            for seg, options in crack_options(main, cracks, there):
                if options and seg not in close:
                    reachable.append((there, seg, options))
        found = (missing, splitting, pair_options(main, cracks, at), tuple(reachable))
        if len(_SUMMARIES) >= CACHE_KEPT:
            _SUMMARIES.clear()
        _SUMMARIES[key] = found
    return found


def material(floe: Floe, players: int) -> list[float]:
    """Every seat's material in points: score, penguins, edge risk, break-off chances and threats next round."""
    main, cracks, pos = floe.main, floe.cracks, floe.pos
    values = [float(score) for score in floe.scores]
    counts = [0] * players
    occupied = {at for at in pos if at is not None}
    # seg -> seat -> (gain, reach weight, victims): the best claim of each seat on each crack.
    claims: dict[Segment, dict[int, tuple[float, float, list[int]]]] = {}
    pair = [0.0] * players
    far = FAR_OPPORTUNITY / OPPORTUNITY
    for penguin, at in enumerate(pos):
        if at is None:
            continue
        seat = penguin // 2
        counts[seat] += 1
        missing, splitting, pairs, reachable = point_summary(main, cracks, at)
        values[seat] -= EDGE_RISK * missing
        for seg, options in splitting:
            gain, victims = max((_break_value(floe, seat, penguin, at, gone) for gone in options), key=_first)
            _claim(claims, seg, seat, gain, 1.0, victims)
        for options in pairs:
            gain = max(_break_value(floe, seat, penguin, at, gone)[0] for gone in options)
            pair[seat] = max(pair[seat], gain)
        for there, seg, options in reachable:
            if there not in occupied:
                gain, victims = max((_break_value(floe, seat, penguin, there, gone) for gone in options), key=_first)
                _claim(claims, seg, seat, gain, far, victims)
    for seat in range(players):
        if counts[seat]:
            values[seat] += PENGUIN_VALUE * counts[seat] + LAST_PENGUIN_VALUE + PAIR_OPPORTUNITY * max(0.0, pair[seat])
    if claims:
        best = [0.0] * players
        threatened: dict[int, float] = {}
        for by_seat in claims.values():
            takers = [(seat, claim) for seat, claim in by_seat.items() if claim[0] > 0]
            for seat, (gain, reach, victims) in takers:
                share = reach / len(takers)
                best[seat] = max(best[seat], gain * share)
                for victim in victims:
                    threatened[victim] = max(threatened.get(victim, 0.0), share)
        for seat in range(players):
            values[seat] += OPPORTUNITY * best[seat]
        for victim, share in threatened.items():
            values[victim // 2] -= THREAT * PENGUIN_VALUE * share
    return values


def _first(item: tuple[float, list[int]]) -> float:
    return item[0]


def _claim(
    claims: dict[Segment, dict[int, tuple[float, float, list[int]]]],
    seg: Segment,
    seat: int,
    gain: float,
    reach: float,
    victims: list[int],
) -> None:
    by_seat = claims.setdefault(seg, {})
    old = by_seat.get(seat)
    if old is None or gain * reach > old[0] * old[1]:
        by_seat[seat] = (gain, reach, victims)


def shares(scores: Sequence[float]) -> list[float]:
    """Win shares of a finished game: 1 to the top score, split evenly among tied top scores."""
    top = max(scores)
    winners = sum(score == top for score in scores)
    return [1.0 / winners if score == top else 0.0 for score in scores]


_JUDGED: dict[tuple[Any, ...], list[float]] = {}


def win_chances(floe: Floe, players: int) -> list[float]:
    """Each seat's share of the win: the real shares once the game is over, else a softmax of material.
    Cached by position (the list returned is shared: don't change it)."""
    key = (tuple(floe.pos), floe.main, floe.cracks, tuple(floe.scores))
    found = _JUDGED.get(key)
    if found is not None:
        return found
    if floe.over():
        found = shares(floe.scores)
    else:
        values = material(floe, players)
        top = max(values)
        weights = [math.exp((value - top) / TEMPERATURE) for value in values]
        total = sum(weights)
        found = [weight / total for weight in weights]
    if len(_JUDGED) >= CACHE_KEPT:
        _JUDGED.clear()
    _JUDGED[key] = found
    return found


# ----- the rest of a round ----------------------------------------------------------------------------


def round_order(state: ClickCrack) -> list[int]:
    """The seats still to act this round, in order, starting with the one to act now (perform phase)."""
    if state.phase != "perform":
        return []
    n = state.players
    offsets = list(range(state.actor_offset, n))
    if not state.second_pass:
        offsets += list(range(n))
    return [(state.start + offset) % n for offset in offsets]


def _myopic(before: Floe, after: Floe, seat: int) -> float:
    """What a tile brought `seat` right away: points, less the value of its own penguins lost."""
    lost = len(before.penguins_of(seat)) - len(after.penguins_of(seat))
    return after.scores[seat] - before.scores[seat] - PENGUIN_VALUE * lost


def _options(floe: Floe, seat: int, tiles: Sequence[tuple[str, str]], used: Sequence[bool]) -> list[tuple[int, Floe]]:
    """(index of the tile used, resulting position) for every tile `seat` can carry out now."""
    found = []
    seen = set()
    for index, tile in enumerate(tiles):
        if used[index] or tile in seen:
            continue
        seen.add(tile)
        for penguin in floe.penguins_of(seat):
            for after in floe.perform(seat, tile[0], tile[1], penguin):
                found.append((index, after))
    return found


def finish_round(
    floe: Floe,
    order: Sequence[int],
    tiles: Sequence[Sequence[tuple[str, str]]],
    used: Sequence[Sequence[bool]],
    players: int,
    me: int | None = None,
) -> Floe:
    """Play the seats in `order` greedily with their revealed tiles: each takes the tile with the best
    immediate result for itself (`me`, if given, judges by its win chances instead)."""
    used_now = [list(flags) for flags in used]
    for seat in order:
        if floe.over():
            break
        if not floe.penguins_of(seat):
            continue
        options = _options(floe, seat, tiles[seat], used_now[seat])
        if not options:
            continue
        if seat == me:
            index, after = max(options, key=lambda option: win_chances(option[1], players)[seat])
        else:
            index, after = max(options, key=lambda option: _myopic(floe, option[1], seat))
        used_now[seat][index] = True
        floe = after
    return floe


def settle_round(state: ClickCrack, me: int | None = None) -> Floe:
    """The position at the end of the round in progress, played out greedily (`finish_round`)."""
    return finish_round(Floe.of(state), round_order(state), state.tiles, state.used, state.players, me)


def evaluate(state: State) -> list[float]:
    """Every seat's value in [0, 1] for a search cut off at `state`: win shares if the game is over, else
    the win chances after the round in progress is played out greedily."""
    assert isinstance(state, ClickCrack)
    outcome = state.outcome()
    if outcome is not None:
        return shares(outcome.scores)
    if state.phase in ("push", "break"):
        return win_chances(Floe.of(state), state.players)
    return win_chances(settle_round(state), state.players)


# ----- the heuristic bot -----------------------------------------------------------------------------


class ClickCrackBot:
    """Heuristic Click & Crack play from the player's own view (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: State, player: int) -> Action:
        actions = view.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        values = action_values(view, player, actions, self.seed)
        return actions[values.index(max(values))]


def action_values(view: State, player: int, actions: Sequence[Action], seed: int = 0) -> list[float]:
    """The heuristic's value (about a win chance) of each of `actions` for `player`, judged from the view.

    Placing: the material of the position with the penguin there (plus a seeded jitter). Setting tiles:
    `setting_values`. Otherwise each action is carried out on a copy of the view (nothing is hidden then),
    choices within it are made as well as possible, the round is finished greedily (`settle_round`) and
    the end position is judged by `win_chances`.
    """
    assert isinstance(view, ClickCrack)
    if view.phase == "place":
        rng = random.Random(f"{seed}/{player}/{len(view.log)}")
        floe = Floe.of(view)
        penguin = 2 * player + (view.placed >= view.players)
        values = []
        for action in actions:
            assert isinstance(action, Place)
            trial = floe.placed(penguin, (action.row, action.col))
            values.append(material(trial, view.players)[player] + PLACE_NOISE * rng.random())
        return values
    if view.phase == "program":
        table = setting_values(view, player)
        return [table[action] for action in actions if isinstance(action, SetTiles)]
    return [_value_after(view, player, action) for action in actions]


def _value_after(state: ClickCrack, player: int, action: Action) -> float:
    """The value for `player` of carrying out `action` (and choosing well within it) on a copy."""
    after = state.clone()
    after.apply_fast(action, player)
    assert isinstance(after, ClickCrack)
    if after.outcome() is not None:
        return win_chances(Floe.of(after), after.players)[player]
    if after.phase in ("push", "break"):
        return max(_value_after(after, player, choice) for choice in after.legal_actions(player))
    return win_chances(settle_round(after, player), after.players)[player]


def setting_values(view: ClickCrack, player: int) -> dict[SetTiles, float]:
    """Each of the 36 settings valued by the best way of carrying out both its tiles in the current position
    (in either order, with either penguin; a tile that cannot be carried out is left aside). Uses the view
    alone: the position and the player's own penguins, never the other players' tiles."""
    floe = Floe.of(view)
    players = view.players
    tiles = [(kind, direction) for kind in KINDS for direction in DIRS]
    first = {
        tile: [after for penguin in floe.penguins_of(player) for after in floe.perform(player, *tile, penguin)]
        for tile in tiles
    }
    cache: dict[tuple[tuple[str, str], int, tuple[str, str]], float] = {}

    def then(tile: tuple[str, str], index: int, other: tuple[str, str]) -> float:
        """The value of carrying out `other` (if possible) after `tile` led to first[tile][index]."""
        key = (tile, index, other)
        if key not in cache:
            after = first[tile][index]
            nexts = (
                []
                if after.over()
                else [last for penguin in after.penguins_of(player) for last in after.perform(player, *other, penguin)]
            )
            # Must act: when the second tile can be carried out, it is.
            cache[key] = max(
                (win_chances(last, players)[player] for last in nexts), default=win_chances(after, players)[player]
            )
        return cache[key]

    still = win_chances(floe, players)[player]
    values: dict[SetTiles, float] = {}
    for setting in ALL_SETTINGS:
        a, b = setting.tiles
        found = [then(one, index, other) for one, other in ((a, b), (b, a)) for index in range(len(first[one]))]
        # Neither tile can be carried out: the round passes by.
        values[setting] = max(found) if found else still
    return values


# ----- the fast policy for search playouts --------------------------------------------------------------


def rollout_policy(state: State, seat: int, rng: random.Random) -> Action:
    """A quick, mostly greedy move for playouts: break-offs that pay, otherwise anything legal."""
    assert isinstance(state, ClickCrack)
    actions = state.legal_actions(seat)
    if len(actions) == 1 or rng.random() < ROLLOUT_EPSILON:
        return actions[rng.randrange(len(actions))]
    phase = state.phase
    if phase == "program":
        return _quick_setting(state, seat, rng)
    if phase == "place":
        inner = [a for a in actions if isinstance(a, Place) and 0 < a.row < POINTS - 1 and 0 < a.col < POINTS - 1]
        pool = inner or actions
        return pool[rng.randrange(len(pool))]
    if phase != "perform":
        return actions[rng.randrange(len(actions))]
    floe = Floe.of(state)
    best: list[Action] = []
    top = -math.inf
    for action in actions:
        if not isinstance(action, Perform) or action.kind == "walk":
            value = 0.0
        else:
            results = floe.crack(seat, action.penguin, action.direction)
            value = max(_myopic(floe, after, seat) for after in results)
        if value > top:
            top, best = value, [action]
        elif value == top:
            best.append(action)
    return best[rng.randrange(len(best))]


def _quick_setting(state: ClickCrack, seat: int, rng: random.Random) -> Action:
    """Break tiles toward break-offs that pay for one of the seat's penguins, walks to fill up."""
    floe = Floe.of(state)
    scored: list[tuple[float, tuple[str, str]]] = []
    for direction in DIRS:
        value = -0.5 - rng.random()
        for penguin in floe.penguins_of(seat):
            results = floe.crack(seat, penguin, direction)
            if results:
                value = max(value, max(_myopic(floe, after, seat) for after in results) - 0.3 * rng.random())
        scored.append((value, ("break", direction)))
        scored.append((rng.random() - 0.5, ("walk", direction)))
    scored.sort(reverse=True)
    (k1, d1), (k2, d2) = scored[0][1], scored[1][1]
    return SetTiles(k1, d1, k2, d2)


_MODELLED: dict[tuple[Any, ...], Action] = {}
_MODELLED_KEPT = 20_000


def heuristic_model(state: State, seat: int, rng: random.Random) -> Action:
    """What the heuristic bot would do (with `rng` only for the random share of moves, ROLLOUT_EPSILON):
    the search bot's model of the other players inside its tree. Only what `seat` would see is used:
    the position, and the tiles once they are revealed. Cached by that information."""
    assert isinstance(state, ClickCrack)
    actions = state.legal_actions(seat)
    # Placing is modelled as random, so it is never cached: a cached draw would make the search's choice
    # depend on earlier searches instead of its seed and view alone.
    if len(actions) == 1 or state.phase == "place" or rng.random() < ROLLOUT_EPSILON:
        return actions[rng.randrange(len(actions))]
    revealed = (
        ()
        if state.phase == "program"
        else (tuple(state.tiles), tuple(map(tuple, state.used)), state.start, state.actor_offset, state.second_pass)
    )
    key = (seat, state.phase, tuple(state.pos), state.main, state.cracks, tuple(state.scores), revealed)
    found = _MODELLED.get(key)
    if found is None or found not in actions:
        values = action_values(state, seat, actions)
        found = actions[values.index(max(values))]
        if len(_MODELLED) >= _MODELLED_KEPT:
            _MODELLED.clear()
        _MODELLED[key] = found
    return found


# ----- the search bot -------------------------------------------------------------------------------------


class _Model:
    """The search bot's model of the other players: `heuristic_model` in the round of the decision being
    searched, the cheap `rollout_policy` when setting tiles in later rounds (where the heuristic's 36-setting
    valuation would cost more than it brings)."""

    def __init__(self) -> None:
        self.round = 0

    def prior(self, view: State, player: int, actions: Sequence[Action]) -> list[float]:
        """The root prior (`action_values`); it also tells the model which round the search is in."""
        assert isinstance(view, ClickCrack)
        self.round = view.round
        return action_values(view, player, actions)

    def __call__(self, state: State, seat: int, rng: random.Random) -> Action:
        assert isinstance(state, ClickCrack)
        if state.phase == "program" and state.round > self.round:
            return rollout_policy(state, seat, rng)
        return heuristic_model(state, seat, rng)


def search_bot(
    seed: int = 0,
    iterations: int | None = SEARCH_ITERATIONS,
    seconds: float | None = None,
    rollout_depth: int = SEARCH_ROLLOUT_DEPTH,
    **options: Any,
) -> MCTSBot:
    """Determinized MCTS with Click & Crack's knowledge (see the module docstring); `options` go to MCTSBot.

    The default budget, SEARCH_ITERATIONS without a time cap (`seconds`), keeps a median move near 0.15 s
    and the choice a function of seed and view (bench/bots.py); the ladder (bench/click_crack_ladder.py)
    plays with 30 iterations."""
    model = _Model()
    settings: dict[str, Any] = {
        "rollout_policy": rollout_policy,
        "evaluate": evaluate,
        "rollout_depth": rollout_depth,
        "root_prior": model.prior,
        "root_width": SEARCH_ROOT_WIDTH,
        "opponent_model": model,
    }
    settings.update(options)
    return MCTSBot(seed=seed, iterations=iterations, seconds=seconds, **settings)


__all__ = [
    "ClickCrackBot",
    "action_values",
    "evaluate",
    "heuristic_model",
    "material",
    "rollout_policy",
    "search_bot",
    "setting_values",
    "win_chances",
]
