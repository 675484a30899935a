"""The protocol every game speaks: a State that players (or bots) act on.

A game subclasses `State` and fills in the hooks (`_setup`, `to_move`, `_legal`, `_apply`, `outcome`, and
where needed `_chance`, `_why_illegal`, `_is_legal`, and for hidden information `_hidden_entries`, `_redact`,
`_sample_hidden`, with `_reveal` called when something turns face up). The base class gives every game the
same checked and fast ways to move, chance drawn from the seed into the log, undo and the table's undo
limit, clone, equality, fingerprints, per-seat and spectator views, and determinized samples of a view.
Game data lives in plain attributes (ints, strings, tuples, frozensets, and lists, dicts and sets of those)
so that copying and comparing stay generic and cheap.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, ClassVar

from .actions import Action, ActionCodec, Hidden, HiddenChance, ListedActions
from .errors import IllegalAction, SaveError
from .game import GameConfig, GameSpec
from .outcome import Outcome

CHANCE = -1
"""The seat number that chance events are logged under."""

LogEntry = tuple[int, Action]
Listed = list[Action] | ListedActions  # what a game lists as legal (State._legal)


class ChanceNode(ABC):
    """A point where chance decides: the engine draws an event from it with the game's seeded generator."""

    @abstractmethod
    def draw(self, rng: random.Random) -> Action: ...

    @abstractmethod
    def allows(self, event: Action) -> bool:
        """Whether `event` is a possible result here (checked when a saved log is replayed)."""


@dataclass(frozen=True, slots=True)
class UniformChoice(ChanceNode):
    """Each of `outcomes` equally likely: a die, a coin, a random start player."""

    outcomes: tuple[Action, ...]

    def draw(self, rng: random.Random) -> Action:
        return self.outcomes[rng.randrange(len(self.outcomes))]

    def allows(self, event: Action) -> bool:
        return event in self.outcomes


_CONTAINERS = frozenset({list, dict, set})
# What a state keeps to go back or to answer faster: left out of equality and fingerprints.
_NOT_THE_POSITION = frozenset({"_checkpoints", "_legal_memo"})


def _plain_copy(value: Any) -> Any:
    """Copy lists, dicts and sets all the way down; everything else in a state is immutable and shared."""
    kind = type(value)
    # A list or dict holding no containers (the usual case) is copied at C speed.
    if kind is list:
        if _CONTAINERS.isdisjoint(map(type, value)):
            return value.copy()
        return [_plain_copy(item) if type(item) in _CONTAINERS else item for item in value]
    if kind is dict:
        if _CONTAINERS.isdisjoint(map(type, value.values())):
            return value.copy()
        return {key: _plain_copy(item) if type(item) in _CONTAINERS else item for key, item in value.items()}
    if kind is set:
        return set(value)
    return value


def _canonical(value: Any) -> Any:
    """A JSON-ready form in which equal states give equal text (sets sorted, actions as text)."""
    if isinstance(value, dict):
        return {str(key): _canonical(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((_canonical(item) for item in value), key=repr)
    if isinstance(value, Action):
        return f"{type(value).__name__}:{value}"
    if isinstance(value, GameConfig):
        return [_canonical(getattr(value, field.name)) for field in fields(value)]
    return value


@lru_cache(maxsize=256)
def _seedless(config: GameConfig) -> GameConfig:
    """A view's configuration: the game's, without the seed (made once per game, not on every view)."""
    return replace(config, seed=None)


class State(ABC):
    """One game in progress. Mutable: `apply` changes it in place, `clone` gives an independent copy.

    Hidden information. `view(seat)` is what one seat may see; `view(None)` is the spectator's view, what
    everyone at the table sees (hand-over and reveal screens are built from it). A view holds no seed
    (`config.seed` is None), no face-down card or its order, no other seat's secret: its log shows each
    entry the viewer may not see as `Hidden()` (a secret action) or `HiddenChance()` (a face-down chance
    result) until the game reveals it to that seat. A view answers questions but refuses actions, undo and
    saving. `determinize(rng)` turns a view into a complete game: every hidden thing sampled consistently
    with what the viewer has seen, and a fresh seed for the chance still to come; search bots plan on such
    samples only. `undo_limit(people)` is the table's undo policy: the log length below which undo must not
    go when `people` are the seats played by persons (never back past a chance result or a revealed secret
    that a person has seen).
    """

    CODEC: ClassVar[ActionCodec]
    # Snapshots kept every this many log entries make undo and rewind cheap.
    CHECKPOINT_EVERY: ClassVar[int] = 16
    # What a game keeps only to answer faster, worked out from its other fields: no part of the position
    # (equality, fingerprints).
    DERIVED: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, config: GameConfig, settle: bool = True) -> None:
        """A game at its start; `settle=False` leaves the opening chance events to a log being replayed."""
        # An ordinary dict from the start. CPython 3.11 keeps a new object's attributes inline until vars()
        # reads them (the first checkpoint does), then moves them into a split dict that its attribute
        # caches cannot serve: every `self.x` of the rest of the game would take the slow generic lookup.
        self.__dict__ = {}
        self.config = config
        self.log: list[LogEntry] = []
        self.is_view = False
        self.viewer: int | None = None  # the seat a view belongs to (None: the game itself, or a spectator)
        # (log index, seats) of each entry that turned something face up; seats None means every seat.
        self.reveals: list[tuple[int, tuple[int, ...] | None]] = []
        # (seat, its legal actions) for the position as it is: the checked path lists them, then checks the
        # chosen one against them; search lists them again on clones. Cleared whenever the position changes.
        self._legal_memo: tuple[int, Listed] | None = None
        self._setup()
        # No snapshot of the start: a rewind that goes back before the first snapshot remakes the start from
        # the config.
        self._checkpoints: list[State] = []
        if settle:
            self._settle()

    # ----- hooks a game fills in -------------------------------------------------------------------

    @abstractmethod
    def _setup(self) -> None:
        """Set the starting position from self.config (no chance here: ask for it through _chance)."""

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """The seats that must decide now: one, several at once (secret choices), or none at the end."""

    @abstractmethod
    def _legal(self, player: int) -> Listed:
        """Legal actions of a seat that is to move (never empty while the game runs): a list, or for lists
        that run to thousands, or that are found many at once, a `ListedActions` of the game's own."""

    @abstractmethod
    def _apply(self, player: int, action: Action) -> None:
        """Carry out an action known to be legal; player is CHANCE for chance events."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def _chance(self) -> ChanceNode | None:
        """Where chance must decide before anyone can act, else None."""
        return None

    def _normalize(self, player: int, action: Action) -> Action:
        """The canonical form of an action that can be said in several ways (checked path only)."""
        return action

    def _is_legal(self, player: int, action: Action) -> bool:
        """Whether a canonical action is one of `_legal(player)`; a game with long lists of actions may
        answer without building the list."""
        return action in self._listed_legal(player)

    def _why_illegal(self, player: int, action: Action) -> tuple[str, str]:
        """The rule and the reason an action that is not legal now is refused."""
        return "actions", "that is not one of the actions possible now"

    def _hidden_entries(self, seat: int | None) -> Iterable[int]:
        """Indices of log entries that `seat` (None: a spectator) may not see now."""
        return ()

    def _redact(self, seat: int | None) -> None:
        """Remove from this copy what `seat` (None: a spectator) may not see (called on a view, never on
        the game). Whatever a hidden thing was is replaced by a stand-in that shows only what is public
        (a face-down card by a marker, so that counts stay)."""
        return None

    def _sample_hidden(self, rng: random.Random) -> None:
        """Fill this copy of a view with a sample of everything it hides, consistent with what it shows:
        every redacted field and every hidden log entry, so that the log still describes the state.

        Called by `determinize` (the config already holds a fresh seed). This default replays the log from
        the start, each hidden entry replaced by a uniformly random legal action of its seat, or a draw of
        the chance node, at that point: right for games whose hidden information is players' secret
        actions. A game that hides chance results later revealed (cards) overrides it.
        """
        fresh = type(self)(self.config, settle=False)
        for seat, action in self.log:
            if isinstance(action, Hidden):
                node = fresh._chance()
                if seat == CHANCE and node is not None:
                    action = node.draw(rng)
                else:
                    options = fresh._legal(seat)
                    action = options[rng.randrange(len(options))]
            fresh._step(seat, action)
        self._restore(fresh)
        self._checkpoints = fresh._checkpoints

    def _reveal(self, seats: Iterable[int] | None = None) -> None:
        """Called by a game inside `_apply` when the entry being applied turns something face up: to
        `seats`, or to everyone (None). Undo at a table never takes such an entry back (`undo_limit`)."""
        self.reveals.append((len(self.log), None if seats is None else tuple(sorted(set(seats)))))

    # ----- asking -------------------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        from .registry import spec

        return spec(self.config.game)

    @property
    def players(self) -> int:
        return self.config.players

    def option(self, name: str) -> Any:
        return self.config.option(name)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def current_player(self) -> int:
        """The one seat to move; ValueError when several decide at once or the game is over."""
        movers = self.to_move()
        if len(movers) != 1:
            raise ValueError(f"{len(movers)} players decide now, not one: {list(movers)}")
        return movers[0]

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        """What `player` (default: the one seat to move) may do now, in the game's order; empty if it is not
        their turn. Index it, count it, walk through it; to change it, make a list of it: it is a fresh
        list, or a read-only `ListedActions` the game keeps."""
        if player is None:
            player = self.current_player()
        if player not in self.to_move():
            return []
        listed = self._listed_legal(player)
        return list(listed) if isinstance(listed, list) else listed

    def _listed_legal(self, player: int) -> Listed:
        """`_legal(player)`, worked out once per position (the list is shared: never change it)."""
        memo = self._legal_memo
        if memo is None or memo[0] != player:
            memo = self._legal_memo = (player, self._legal(player))
        return memo[1]

    def _is_listed(self, player: int, action: Action) -> bool:
        """Whether `action` is one of the objects listed as `player`'s legal actions in this position: found
        in a list by identity, or asked of the game's own `ListedActions` (unless it is the one that object
        last handed out by index). An action taken from legal_actions usually is one: it is then legal and in
        its canonical form, with no dataclass __eq__ call and no game rule to ask."""
        memo = self._legal_memo
        if memo is None or memo[0] != player:
            return False
        listed = memo[1]
        if isinstance(listed, list):
            # Most lists are a few actions long: a plain loop costs less than any() over a generator or a map.
            for listed_action in listed:  # noqa: SIM110
                if listed_action is action:
                    return True
            return False
        return getattr(listed, "handed", None) is action or listed.holds(action)

    def parse(self, text: str) -> Action:
        return self.CODEC.parse(text)

    # ----- moving -------------------------------------------------------------------------------

    def apply(self, action: Action | str, player: int | None = None) -> Action:
        """Check and carry out an action (an Action or its text). On IllegalAction nothing has changed.

        Returns the parsed action. `player` may be left out when exactly one seat is to move.
        """
        # An action that legal_actions handed this seat in this very position passes every check of _check:
        # the usual case, a player acting on the list it was given, asks only that.
        if isinstance(action, Action) and type(player) is int and not self.is_view and self._is_listed(player, action):
            parsed = action
        else:
            player, parsed = self._check(action, player)
        length = len(self.log)
        try:
            self._step(player, parsed)
            self._settle()
        except BaseException:
            # Only a bug in a game gets here; rebuilding from the log puts everything back as it was.
            self.rewind(length)
            raise
        return parsed

    def apply_fast(self, action: Action, player: int) -> None:
        """Carry out an action known to be legal, with no checks: the path for simulation."""
        self._step(player, action)
        self._settle()

    def _check(self, action: Any, player: Any) -> tuple[int, Action]:
        if self.is_view:
            raise IllegalAction("views", action, f"this is {self._whose()} view; act on the game itself")
        if isinstance(action, str):
            action = self.CODEC.parse(action)
        elif not isinstance(action, Action):
            raise IllegalAction("actions", action, f"an action is text or an Action, not {type(action).__name__}")
        if action.CHANCE:
            raise IllegalAction("chance", action, "chance events come from the game's seed; nobody chooses them")
        movers = self.to_move()
        # Nobody is to move only at the end (chance has settled): the outcome is asked for only then.
        if not movers and self.is_over():
            raise IllegalAction("game over", action, "the game has ended")
        if player is None:
            if len(movers) != 1:
                raise IllegalAction("turn order", action, f"players {list(movers)} decide now: say who acts")
            player = movers[0]
            if self._is_listed(player, action):  # apply asked this only for a seat given
                return player, action
        if type(player) is not int:
            raise IllegalAction("seats", action, f"a player is a seat number, not {player!r}")
        if player not in movers:  # a seat to move is a seat of the game: the range is asked about only here
            if not 0 <= player < self.players:
                raise IllegalAction("seats", action, f"there is no player {player} in a {self.players}-player game")
            waiting = " and ".join(f"player {seat}" for seat in movers)
            raise IllegalAction("turn order", action, f"it is not your turn; waiting for {waiting}", player)
        self.CODEC.check(action)
        action = self._normalize(player, action)
        if not self._is_legal(player, action):
            rule, reason = self._why_illegal(player, action)
            raise IllegalAction(rule, action, reason, player)
        return player, action

    def _step(self, player: int, action: Action) -> None:
        self._legal_memo = None
        self._apply(player, action)
        self._record(player, action)

    def _record(self, player: int, action: Action) -> None:
        self.log.append((player, action))
        if len(self.log) % self.CHECKPOINT_EVERY == 0:
            self._checkpoints.append(self._snapshot())

    def _settle(self) -> None:
        """Let chance act until a player must decide; each draw depends only on the seed and the step."""
        node = self._chance()
        while node is not None:
            event = self._draw(node)
            self._step(CHANCE, event)
            node = self._chance()

    def _draw(self, node: ChanceNode) -> Action:
        """Chance's result here: it depends only on the seed and the step, so a log replays exactly."""
        if self.config.seed is None:
            raise ValueError(f"{self._whose()} view holds no seed to draw chance from; determinize it first")
        return node.draw(random.Random(f"{self.config.seed}/{len(self.log)}"))

    def replay_entry(self, player: int, action: Action | str) -> None:
        """Apply one entry of a recorded log, checked; chance entries must be possible where they stand."""
        if player != CHANCE:
            if self._chance() is not None:
                raise IllegalAction("chance", action, "the log has a player's action where chance must act")
            player, parsed = self._check(action, player)
        else:
            parsed = self.CODEC.parse(action) if isinstance(action, str) else action
            node = self._chance()
            if node is None or not parsed.CHANCE or not node.allows(parsed):
                raise IllegalAction("chance", parsed, "this chance event is not possible at this point")
            if parsed != self._draw(node):
                raise IllegalAction("chance", parsed, "the game's seed draws something else here")
        self._step(player, parsed)

    # ----- going back -----------------------------------------------------------------------------

    def rewind(self, length: int) -> None:
        """Go back to the position after the first `length` log entries (chance then settles as before)."""
        self._not_a_view()
        if not 0 <= length <= len(self.log):
            raise ValueError(f"this game's log has {len(self.log)} entries; cannot go back to {length}")
        entries = self.log[:length]
        checkpoints = [cp for cp in self._checkpoints if len(cp.log) <= length]
        # Before the first snapshot (and in a determinized sample, which keeps none), the log is replayed
        # from the start.
        start = checkpoints[-1] if checkpoints else type(self)(self.config, settle=False)
        self._restore(start)
        self._checkpoints = checkpoints or start._checkpoints
        for player, action in entries[len(self.log) :]:
            self._step(player, action)
        self._settle()

    def _not_a_view(self) -> None:
        if self.is_view:
            raise ValueError(f"{self._whose()} view does not go back in time; undo on the game itself")

    def undo(self, decisions: int = 1) -> None:
        """Take back the last `decisions` player actions and the chance events that followed them."""
        self._not_a_view()
        made = [i for i, (player, _) in enumerate(self.log) if player != CHANCE]
        if not 1 <= decisions <= len(made):
            raise ValueError(f"{len(made)} decisions have been made; cannot undo {decisions}")
        self.rewind(made[-decisions])

    def undo_limit(self, people: Collection[int]) -> int:
        """The log length below which undo must not go at a table where the seats in `people` are persons.

        Board Game Arena's rule: never back past a chance result (a roll, a card turned up) or a revealed
        secret that any of those persons has seen, so nobody gets another roll or a second go with more
        knowledge. Face-down chance results nobody has seen yet do not hold undo back.
        """
        people = set(people)
        for seat in people:
            self._check_seat(seat)
        if not people:
            return 0
        limit = max(
            (index + 1 for index, seats in self.reveals if seats is None or people.intersection(seats)), default=0
        )
        unseen = set.intersection(*(set(self._hidden_entries(seat)) for seat in people))
        for index in range(len(self.log) - 1, limit - 1, -1):
            if self.log[index][0] == CHANCE and index not in unseen:
                return index + 1
        return limit

    # ----- copies, equality, views ------------------------------------------------------------------

    def _data(self) -> dict[str, Any]:
        derived = self.DERIVED
        return {key: value for key, value in vars(self).items() if key not in _NOT_THE_POSITION and key not in derived}

    def _snapshot(self) -> State:
        """A copy without checkpoints. The log's entries are immutable: its list is copied at C speed."""
        copy = object.__new__(type(self))
        data = copy.__dict__
        for key, value in vars(self).items():
            if key == "log":
                data[key] = value.copy()
            elif key != "_checkpoints":
                data[key] = _plain_copy(value)
        copy._checkpoints = []
        return copy

    def _restore(self, other: State) -> None:
        """Become a copy of `other`, keeping this state's own checkpoints."""
        checkpoints = self._checkpoints
        self.__dict__.clear()
        self.__dict__.update(other._snapshot().__dict__)
        self._checkpoints = checkpoints

    def clone(self) -> State:
        copy = self._snapshot()
        copy._checkpoints = list(self._checkpoints)
        return copy

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._data() == other._data()

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def fingerprint(self) -> str:
        """A short digest of everything in the state: equal states give equal fingerprints."""
        text = json.dumps(_canonical(self._data()), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def _check_seat(self, seat: Any) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"there is no player {seat!r} in a {self.players}-player game")

    def _whose(self) -> str:
        return "the spectator's" if self.viewer is None else f"player {self.viewer}'s"

    def view(self, seat: int | None) -> State:
        """A copy holding only what `seat` may see (None: the spectator, what everyone at the table sees).

        It answers questions but takes no actions; see the class docstring for what it hides.
        """
        if seat is not None:
            self._check_seat(seat)
        copy = self._snapshot()
        copy.is_view = True
        copy.viewer = seat
        copy.config = _seedless(self.config)
        copy._legal_memo = None  # worked out from what the view is about to hide
        hidden = list(self._hidden_entries(seat))
        if hidden:
            log = copy.log
            for index in hidden:
                who = log[index][0]
                log[index] = (who, HiddenChance() if who == CHANCE else Hidden())
        copy._redact(seat)
        return copy

    def determinize(self, rng: random.Random) -> State:
        """A complete game consistent with this view: everything hidden sampled, and a fresh seed from `rng`.

        Search bots plan on such games (one per sample) instead of on the real one, so they never use
        what their player cannot see nor the real seed's future chance. On a game that is not a view
        nothing is hidden, and only the chance still to come is resampled.
        """
        sample = self._snapshot()
        sample.config = replace(self.config, seed=rng.getrandbits(63))
        sample._legal_memo = None  # a sample's hidden things are not the view's
        if self.is_view:
            sample.is_view = False
            sample.viewer = None
            sample._sample_hidden(rng)
        return sample

    def __repr__(self) -> str:
        status = "over" if self.is_over() else f"to move: {list(self.to_move())}"
        whose = f"{self._whose()} view" if self.is_view else f"seed {self.config.seed}"
        return f"<{self.spec.title}: {self.players} players, {whose}, {len(self.log)} log entries, {status}>"


def replay(config: GameConfig, entries: Sequence[tuple[int, Action | str]]) -> State:
    """A game rebuilt from its configuration and log alone, every entry checked (SaveError names the entry)."""
    from .registry import spec

    state = spec(config.game).state_class(config, settle=False)
    for index, (player, action) in enumerate(entries):
        try:
            state.replay_entry(player, action)
        except IllegalAction as err:
            raise SaveError(f"log[{index}]", f"seat {player}, {str(action)!r}: {err.reason} ({err.rule})") from None
    state._settle()
    return state
