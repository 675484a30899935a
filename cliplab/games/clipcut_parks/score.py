"""ClipCut Parks scores for the kit: each seat's score in lines, the score during play, design metrics.

Solo play has a score, tallied in the rulebook's lines (`ClipCutParks.solo_breakdown`). With two or more
players there are no points: the most completed cards wins, then fewer crumpled sections, then the larger
single section on a card; the breakdown gives those three numbers, the score (cards completed) first.
"""

from __future__ import annotations

from cliplab.engine import State

from .rules import ClipCutParks, card_of


def _game(state: State) -> ClipCutParks:
    if not isinstance(state, ClipCutParks):
        raise TypeError(f"ClipCut Parks scores a ClipCut Parks game, not {type(state).__name__}")
    return state


def breakdown(state: State) -> dict[int, list[tuple[str, float]]]:
    """Each seat's score as (words, points) lines: the solo tally, or the cards and the two tie-breaks."""
    game = _game(state)
    if game.solo:
        return {0: [(words, float(points)) for words, points in game.solo_breakdown().items()]}
    return {
        seat: [
            (f"cards completed (of {game.dealt[seat]} dealt)", float(len(game.completed[seat]))),
            ("crumpled sections (first tie-break: fewer wins)", float(len(game.crumpled[seat]))),
            ("largest section on a card (second tie-break: larger wins)", float(game.largest_section(seat))),
        ]
        for seat in range(game.players)
    }


def live_scores(state: State) -> list[float]:
    """The solo score if the game ended now; with more players, the cards each has completed."""
    game = _game(state)
    if game.solo:
        return [float(sum(game.solo_breakdown().values()))]
    return [float(len(done)) for done in game.completed]


def metrics(state: State) -> dict[str, float]:
    """Per player (the mean over seats): park cards and grand parks completed, sections crumpled, tokens
    earned (card bonuses other than the bonus cut) and spent, the largest section on a card; the rounds
    played; solo, each line of the score as well."""
    game = _game(state)
    seats = range(game.players)

    def per_player(values: list[int]) -> float:
        return sum(values) / game.players

    earned = [sum(card_of(ref).bonus != "cut" for ref in game.completed[seat]) for seat in seats]
    held = [sum(game.tokens[seat].values()) for seat in seats]
    found = {
        "cards_completed": per_player([sum(ref[0] == "park" for ref in game.completed[seat]) for seat in seats]),
        "grand_parks_completed": per_player([sum(ref[0] == "grand" for ref in game.completed[seat]) for seat in seats]),
        "sections_crumpled": per_player([len(game.crumpled[seat]) for seat in seats]),
        "tokens_earned": per_player(earned),
        "tokens_spent": per_player([earned[seat] - held[seat] for seat in seats]),
        "largest_section": per_player([game.largest_section(seat) for seat in seats]),
        "rounds": float(game.round),
    }
    if game.solo:
        found.update((f"score line: {words}", points) for words, points in breakdown(game)[0])
    return found
