"""The Swap Clops card game drawn as board descriptions: the table (deck, discard pile, the cards on offer)
and one board per seat (its hand on top, its three sets below).

A card is a cell filled with its colour, its shape as the glyph, its colour's own glyph as the badge (so
colour is never told by fill alone) and its offer value as the text. A face-down card is grey with a "?".
What a board shows is what the state holds: on a view, other seats' hands are face-down already.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cliplab.ui.scene import PALETTE, Board, Cell, Kind, Mark, Scene

from .content import Deck
from .rules import DECK, FACE_DOWN, HAND_SIZE, SLOTS, SwapClopsCards, set_points, set_trait

# Okabe-Ito stand-ins for the printed colours (white is drawn sky blue; its glyph, a wave, tells it apart).
COLOUR_FILLS = {"yellow": "yellow", "blue": "blue", "green": "green", "red": "vermillion", "white": "sky"}
COLOUR_GLYPHS = {colour: PALETTE[fill][1] for colour, fill in COLOUR_FILLS.items()}
TABLE_FIXED = 2  # the table board's first cells: the deck, the discard pile
MIN_WIDTH = 7
# 34-pixel cards: the table and four seats' boards, two to a row, fit 1280x720 beside the table's panel.
SCALE = 0.85


def card_words(name: str, deck: Deck) -> str:
    card = deck.cards[name]
    shape, colour = deck.traits[card.shape], deck.traits[card.colour]
    return (
        f"{card.colour} {card.shape}, offer {card.offer}; {card.shape} ({shape.count} in the deck) scores at "
        f"{'/'.join(map(str, shape.chart))} cards, {card.colour} ({colour.count}) at {'/'.join(map(str, colour.chart))}"
    )


def card_cell(at: tuple[int, int], name: str, deck: Deck, note: str = "") -> Cell:
    if name == FACE_DOWN:
        return Cell(at, fill="empty", glyph="", text="?", label="a face-down card")
    card = deck.cards[name]
    label = card_words(name, deck) + (f"; {note}" if note else "")
    return Cell(
        at,
        fill=COLOUR_FILLS[card.colour],
        glyph=card.shape,
        badge=COLOUR_GLYPHS[card.colour],
        text=str(card.offer),
        label=label,
    )


def table_cards(game: SwapClopsCards) -> list[tuple[str, int]]:
    """The cards on the table board after the deck and the discard pile, as (card, giver): the deck's card
    (giver DECK), then each offer (every copy drawn)."""
    found = [(game.deck_card, DECK)] if game.deck_card else []
    for giver, cards in enumerate(game.offers):
        found += [(card, giver) for card in cards]
    return found


def held_out(game: SwapClopsCards, seat: int) -> tuple[list[str], list[str]]:
    """A seat's hand split into the cards it keeps and the offer it has chosen this turn, which is drawn
    at the end of its hand row, face up and marked: open offers (option offers=in_turn) for everyone, so
    the later offerers and the active player see them before they go on the table; a secret offer only
    on its own seat's screen (other seats' views hold no more than that it was chosen)."""
    hand = list(game.hands[seat])
    offering = game.chosen.get(seat, [])
    if FACE_DOWN in offering:
        return hand, []
    for card in offering:
        hand.remove(card if card in hand else FACE_DOWN)
    return hand, list(offering)


def offer_how(game: SwapClopsCards, seat: int) -> str:
    return "face down" if seat in game.secret_at else "openly"


def offer_words(game: SwapClopsCards, seat: int) -> str:
    """What the board's label says of the seat's hand row: "offered" once the seat has chosen its offer
    (what it offers shows in the row). Both are seven letters: a board is as wide as its label, so the
    boards keep their places on the screen whatever the label says."""
    return "offered" if seat in game.chosen else "top row"


def width_of(game: SwapClopsCards) -> int:
    longest = max((len(cards) for seat_sets in game.sets for cards in seat_sets), default=0)
    return max(MIN_WIDTH, HAND_SIZE, longest + 1, TABLE_FIXED + len(table_cards(game)))


def set_words(game: SwapClopsCards, seat: int, slot: int) -> str:
    cards, lock = game.sets[seat][slot], game.locks[seat][slot]
    if not cards:
        return f"set {slot + 1}: empty"
    trait = set_trait(cards, lock, game.content.cards)
    keeps = f"keeps {trait}" if trait else "trait still open"
    return f"set {slot + 1}: {len(cards)} cards, {keeps}, scores {set_points(cards, lock, game.content)} now"


def describe(
    state: SwapClopsCards,
    marks: Mapping[str, Sequence[Mark]] | None = None,
    clickable: Mapping[str, tuple[Kind, ...]] | None = None,
    status: str = "",
) -> Scene:
    """The table and every seat's board; `marks` and `clickable` by board id ("table", "seat0", ...)."""
    game = state
    deck = game.content
    marks = marks or {}
    clickable = clickable or {}
    width = width_of(game)
    table = [
        Cell(
            (0, 0),
            fill="empty",
            glyph="",
            text=str(len(game.deck)),
            label=f"the deck: {len(game.deck)} cards, run out {game.run_outs} times",
        ),
        Cell(
            (0, 1),
            fill="paper",
            glyph="",
            text=str(len(game.discard)),
            label=f"the discard pile: {len(game.discard)} cards",
        ),
    ]
    for col, (card, giver) in enumerate(table_cards(game), TABLE_FIXED):
        note = "turned up from the deck" if giver == DECK else f"offered by player {giver}"
        table.append(card_cell((0, col), card, deck, note))
    # Under each card on the table, where it came from: taking the deck's card pays nobody, an offer pays
    # its offerer, and a newcomer should see that without hovering.
    captions = [("deck", "the deck"), ("pile", "the discard pile")]
    captions += [("top", "the deck's top card") if giver == DECK else (f"P{giver}", f"from player {giver}")
                 for _, giver in table_cards(game)]  # fmt: skip
    table += [
        Cell((1, col), fill="paper", glyph="", text=text, label=words) for col, (text, words) in enumerate(captions)
    ]
    boards = [
        Board(
            "table",
            "The table: deck, discard pile, cards on offer",
            2,
            width,
            tuple(table),
            marks=tuple(marks.get("table", ())),
            clickable=clickable.get("table", ()),
        )
    ]
    for seat in range(game.players):
        board_id = f"seat{seat}"
        hand, offering = held_out(game, seat)
        note = f"offered {offer_how(game, seat)} to player {game.active}; on the table when every offer is in"
        cells = [card_cell((0, col), card, deck, "in hand") for col, card in enumerate(hand)]
        cells += [card_cell((0, col), card, deck, note) for col, card in enumerate(offering, len(hand))]
        seat_marks = list(marks.get(board_id, ()))
        seat_marks += [Mark("cell", (0, col), style="last") for col in range(len(hand), len(hand) + len(offering))]
        for slot in range(SLOTS):
            cards = game.sets[seat][slot]
            words = set_words(game, seat, slot)
            cells += [card_cell((slot + 1, col), card, deck, words) for col, card in enumerate(cards)]
            cells += [Cell((slot + 1, col), fill="paper", glyph="", label=words) for col in range(len(cards), width)]
        boards.append(
            Board(
                board_id,
                f"Player {seat}: hand ({offer_words(game, seat)}) and sets 1-3",
                1 + SLOTS,
                width,
                tuple(cells),
                marks=tuple(seat_marks),
                clickable=clickable.get(board_id, ()),
            )
        )
    # Short enough for four players' scores and the last-turn warning to fit the boards' width at their scale.
    scores = ", ".join(str(game.score_of(seat)) for seat in range(game.players))
    deck_words = f"Deck: {len(game.deck)} cards, run out {game.run_outs} of {game.players - 1} times."
    last = " Last turn." if game.final and game.phase != "over" else ""
    return Scene(
        tuple(boards),
        title="Swap Clops: the card game",
        status=status or f"{deck_words} Scores by seat: {scores}.{last}",
        wrap=max(24, width * 2 + 2),
        zoom=SCALE,
    )
