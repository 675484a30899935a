"""A game-independent search bot: determinized Monte Carlo tree search on samples of its own view.

`MCTSBot.choose(view, player)` plans only on `view.determinize(rng)`: complete games in which everything
hidden from `player` (secret choices, face-down cards) is a sample and the chance still to come is drawn
from a fresh seed, a new sample each iteration. It never sees the real game or its seed, so it cannot use
what its player cannot.

The search is single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012) from `player`'s
side, for any number of seats:

- One tree for all determinizations. Statistics sit on edges keyed by (seat, action); an action is
  counted as *available* each time its seat is to move at the node and it is legal in that sample, and
  UCB1 uses that count in place of the parent's visits.
- Several seats to move at once (secret choices) choose independently at the same node, each by UCB1
  over its own edges (decoupled UCT), so none of them sees the others' choices; the actions are then
  applied in turn. The child node is keyed by what the observer sees of the joint action: another
  seat's secret action is recorded as `Hidden()`, so the tree below does not depend on it.
- Rewards are one value per seat in [0, 1] (win share by default: 1 for a win, 1/k for a k-way shared
  win; or rank-based), and each seat maximises its own (max^n).
- Playouts use a pluggable policy (default: uniform random). With an `evaluate` function, a playout
  stops after `rollout_depth` actions and takes the evaluation's values instead of the outcome.
- With an `opponent_model` (a policy like the playout policy), the other seats play by it in the tree
  as well, keeping no statistics: the tree then only branches on what they did, which with small
  budgets gives them far more plausible moves than UCB's first tries would.
- An optional `root_prior` (values of the root player's actions computed from the view) orders the
  first tries and adds a progressive bias `prior_weight * p / (1 + visits)`; `root_width` keeps only the
  best few actions by prior.

Budget: `iterations` and/or `seconds` (whichever ends first). The bot's random numbers come from its seed
and the view's fingerprint, so with an iteration budget the same seed and view always give the same
choice; a time budget makes the number of iterations, and so possibly the choice, depend on the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from cliplab.engine import Action, Hidden, Outcome, State

RolloutPolicy = Callable[[State, int, random.Random], Action]
Evaluator = Callable[[State], Sequence[float]]
Prior = Callable[[State, int, Sequence[Action]], Sequence[float]]
Rewards = Callable[[Outcome, int], Sequence[float]]

DEFAULT_ITERATIONS = 1000  # when neither iterations nor seconds are given
EXPLORATION = 0.7  # UCB1 constant for rewards in [0, 1]


def random_policy(state: State, seat: int, rng: random.Random) -> Action:
    """The default playout policy: a uniformly random legal action."""
    actions = state.legal_actions(seat)
    return actions[rng.randrange(len(actions))]


def win_shares(outcome: Outcome, players: int) -> list[float]:
    """1 for the sole winner, 1/k for each of k winners sharing, 0 for the rest."""
    return [1.0 / len(outcome.winners) if seat in outcome.winners else 0.0 for seat in range(players)]


def rank_rewards(outcome: Outcome, players: int) -> list[float]:
    """1 for first place down to 0 for last, in equal steps (tied seats share a rank)."""
    if players == 1:
        return [1.0]
    return [(players - rank) / (players - 1) for rank in outcome.ranks]


class _Edge:
    __slots__ = ("available", "prior", "total", "visits")

    def __init__(self, prior: float = 0.0) -> None:
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.prior = prior


class _Node:
    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Action], _Edge] = {}
        self.children: dict[tuple[tuple[int, Action], ...], _Node] = {}


class MCTSBot:
    """Determinized (single-observer information-set) MCTS; see the module docstring."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        rollout_policy: RolloutPolicy = random_policy,
        evaluate: Evaluator | None = None,
        rollout_depth: int | None = None,
        rewards: Rewards = win_shares,
        root_prior: Prior | None = None,
        prior_weight: float = 0.5,
        root_width: int | None = None,
        opponent_model: RolloutPolicy | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_policy = rollout_policy
        self.evaluate = evaluate
        self.rollout_depth = rollout_depth
        self.rewards = rewards
        self.root_prior = root_prior
        self.prior_weight = prior_weight
        self.root_width = root_width
        self.opponent_model = opponent_model
        self.last_iterations = 0  # how many iterations the last search ran

    def choose(self, view: State, player: int) -> Action:
        actions = view.legal_actions(player)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        rng = random.Random(f"{self.seed}/{player}/{view.fingerprint()}")
        root = _Node()
        allowed = self._seed_root(root, view, player, actions)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            state = view.determinize(rng)
            self._iterate(root, state, player, rng, allowed)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return self._best(root, player, actions)

    # ----- the root ---------------------------------------------------------------------------------------

    def _seed_root(self, root: _Node, view: State, player: int, actions: Sequence[Action]) -> set[Action] | None:
        """Put the prior on the root player's edges; the actions kept at the root (None: all of them)."""
        if self.root_prior is None:
            return None
        values = list(self.root_prior(view, player, actions))
        low, high = min(values), max(values)
        spread = high - low
        ranked = sorted(zip(values, range(len(actions)), strict=True), reverse=True)
        keep = ranked if self.root_width is None else ranked[: self.root_width]
        for value, index in keep:
            root.edges[player, actions[index]] = _Edge((value - low) / spread if spread > 0 else 1.0)
        return {actions[index] for _, index in keep}

    def _best(self, root: _Node, player: int, actions: Sequence[Action]) -> Action:
        """The most visited action of the root player (ties: the higher mean, then the legal-list order)."""
        best, key = actions[0], (-1, -math.inf)
        for action in actions:
            edge = root.edges.get((player, action))
            if edge is None:
                continue
            mean = edge.total / edge.visits if edge.visits else -math.inf
            if (edge.visits, mean) > key:
                best, key = action, (edge.visits, mean)
        return best

    # ----- one iteration ----------------------------------------------------------------------------------

    def _iterate(self, root: _Node, state: State, player: int, rng: random.Random, allowed: set[Action] | None) -> None:
        node = root
        path: list[tuple[_Edge, int]] = []
        at_root = True
        while state.outcome() is None:
            movers = state.to_move()
            joint: list[tuple[int, Action]] = []
            for seat in movers:
                if seat != player and self.opponent_model is not None:
                    joint.append((seat, self.opponent_model(state, seat, rng)))
                    continue
                actions = state.legal_actions(seat)
                if at_root and seat == player and allowed is not None:
                    actions = [action for action in actions if action in allowed] or actions
                action, edge = self._select(node, seat, actions, rng)
                joint.append((seat, action))
                path.append((edge, seat))
            for seat, action in joint:
                state.apply_fast(action, seat)
            key = tuple((seat, Hidden() if action.SECRET and seat != player else action) for seat, action in joint)
            child = node.children.get(key)
            at_root = False
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        values = self._playout(state, rng)
        for edge, seat in path:
            edge.visits += 1
            edge.total += values[seat]

    def _select(self, node: _Node, seat: int, actions: Sequence[Action], rng: random.Random) -> tuple[Action, _Edge]:
        """UCB1 with availability counts (and the prior's bias); an untried action first, if any."""
        edges = node.edges
        untried: list[tuple[Action, _Edge]] = []
        choices: list[tuple[Action, _Edge]] = []
        for action in actions:
            edge = edges.get((seat, action))
            if edge is None:
                edge = edges[seat, action] = _Edge()
            edge.available += 1
            (choices if edge.visits else untried).append((action, edge))
        if untried:
            top = max(edge.prior for _, edge in untried)
            best = [pair for pair in untried if pair[1].prior == top]
            return best[rng.randrange(len(best))]
        c, weight = self.exploration, self.prior_weight
        best_value, best_pairs = -math.inf, choices[:1]
        for pair in choices:
            edge = pair[1]
            value = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if edge.prior:
                value += weight * edge.prior / (1 + edge.visits)
            if value > best_value:
                best_value, best_pairs = value, [pair]
            elif value == best_value:
                best_pairs.append(pair)
        return best_pairs[rng.randrange(len(best_pairs))]

    def _playout(self, state: State, rng: random.Random) -> Sequence[float]:
        policy, evaluate, depth = self.rollout_policy, self.evaluate, 0
        limit = self.rollout_depth if evaluate is not None else None
        while True:
            outcome = state.outcome()
            if outcome is not None:
                return self.rewards(outcome, state.players)
            if evaluate is not None and limit is not None and depth >= limit:
                return evaluate(state)
            # Seats deciding at once all decide on the same position, as in a real game.
            choices = [(seat, policy(state, seat, rng)) for seat in state.to_move()]
            for seat, action in choices:
                state.apply_fast(action, seat)
            depth += len(choices)
