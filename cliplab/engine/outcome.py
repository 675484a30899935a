"""The result of a finished game, as a value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """Scores per seat, ranks (1 is best; tied seats share a rank), the winners, and why the game ended."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    termination: str
    detail: str = ""

    @classmethod
    def ranked(
        cls,
        scores: Sequence[float],
        termination: str,
        detail: str = "",
        tiebreaks: Sequence[Sequence[float]] | None = None,
    ) -> Outcome:
        """Rank by score, higher first, then by each tie-break (higher first); what stays tied is shared."""
        keys = [(score, *(tb[seat] for tb in tiebreaks or ())) for seat, score in enumerate(scores)]
        ranks = tuple(1 + sum(other > key for other in keys) for key in keys)
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        return cls(tuple(scores), ranks, winners, termination, detail)

    def __str__(self) -> str:
        who = " and ".join(f"player {seat}" for seat in self.winners)
        verb = "share the win" if len(self.winners) > 1 else "wins"
        return f"{who} {verb} ({self.termination}); scores {list(self.scores)}"
