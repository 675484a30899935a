"""The result of a finished game, as a value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """Scores per seat, ranks (1 is best; tied seats share a rank), the winners, and why the game ended.

    `decided_by` says what set the winners apart: "score", the name of the tie-break that did, "tied" when
    the win is shared after every tie-break, or "" in a one-player game.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    termination: str
    detail: str = ""
    decided_by: str = ""

    @classmethod
    def ranked(
        cls,
        scores: Sequence[float],
        termination: str,
        detail: str = "",
        tiebreaks: Sequence[Sequence[float]] | None = None,
        tiebreak_names: Sequence[str] = (),
    ) -> Outcome:
        """Rank by score, higher first, then by each tie-break (higher first); what stays tied is shared.

        `tiebreak_names` name the tie-breaks in words ("fewer crumpled sections"), for `decided_by`.
        """
        keys = [(score, *(tb[seat] for tb in tiebreaks or ())) for seat, score in enumerate(scores)]
        ranks = tuple(1 + sum(other > key for other in keys) for key in keys)
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        unnamed = (f"tie-break {k + 1}" for k in range(len(tiebreak_names), len(tiebreaks or ())))
        names = ["score", *tiebreak_names[: len(tiebreaks or ())], *unnamed]
        decided_by = ""
        if len(scores) > 1:
            leaders = list(range(len(scores)))
            decided_by = "tied"
            for place, name in enumerate(names):
                best = max(keys[seat][place] for seat in leaders)
                leaders = [seat for seat in leaders if keys[seat][place] == best]
                if len(leaders) == 1:
                    decided_by = name
                    break
        return cls(tuple(scores), ranks, winners, termination, detail, decided_by)

    def __str__(self) -> str:
        who = " and ".join(f"player {seat}" for seat in self.winners)
        verb = "share the win" if len(self.winners) > 1 else "wins"
        return f"{who} {verb} ({self.termination}); scores {list(self.scores)}"
