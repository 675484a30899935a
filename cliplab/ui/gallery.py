"""The landing page of `cliplab serve`: every registered game that has a dashboard, with a picture."""

from __future__ import annotations

import html
import json
import random
import re
import statistics
from pathlib import Path

from cliplab.engine import CHANCE, State, games, new_game, spec
from cliplab.kit import declaration


def _sample_position(name: str, seed: int = 3) -> State:
    """A third of the way through a random game, so the picture shows play rather than an empty board."""
    state = new_game(name, seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        for seat in state.to_move():
            actions = state.legal_actions(seat)
            state.apply_fast(actions[rng.randrange(len(actions))], seat)
    state.rewind(len(state.log) // 3)
    return state


def _decisions_per_player(name: str, games_played: int = 20) -> float:
    """Median number of decisions each player makes in a random-bot game."""
    counts = []
    for seed in range(games_played):
        state = new_game(name, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in state.to_move():
                actions = state.legal_actions(seat)
                state.apply_fast(actions[rng.randrange(len(actions))], seat)
        decisions = sum(1 for seat, _ in state.log if seat != CHANCE)
        counts.append(decisions / state.players)
    return statistics.median(counts)


_CARD_STYLE = (
    "display:block;width:300px;padding:12px;border:1px solid #ccc;border-radius:8px;text-decoration:none;color:inherit"
)


def _notebook_heading(book: Path) -> tuple[str, str]:
    """The first markdown cell's title line and first paragraph: how a non-game dashboard names itself."""
    for cell in json.loads(book.read_text(encoding="utf-8")).get("cells", []):
        if cell.get("cell_type") == "markdown":
            lines = "".join(cell.get("source", "")).strip().splitlines()
            title = lines[0].lstrip("# ").strip() if lines else book.stem
            body = next((line.strip() for line in lines[1:] if line.strip()), "")
            return title, body
    return book.stem, ""


def _game_card(name: str) -> str:
    game = spec(name)
    picture = declaration(name).svg(_sample_position(name))
    length = _decisions_per_player(name)
    return (
        f"<a class='cl-game' href='{name}.ipynb' data-game='{name}' style='{_CARD_STYLE}'>"
        f"<h3 style='margin:0 0 4px'>{html.escape(game.title)}</h3>"
        f"<div>{game.min_players}-{game.max_players} players</div>"
        # The picture is for the eye: read out, its cells' names would bury the card's title in the link's name.
        f"<div style='width:100%;margin:6px 0' aria-hidden='true'>{picture}</div>"
        f"<p style='margin:4px 0'>{html.escape(game.summary)}</p>"
        f"<p style='margin:4px 0;color:#555'>A random-bot game takes about {length:.0f} decisions per player.</p>"
        "</a>"
    )


def _tool_card(book: Path) -> str:
    title, body = _notebook_heading(book)
    # Markdown emphasis and links would show as raw marks here; the first sentence says enough.
    summary = re.sub(r"[*_`]", "", body).split(". ")[0].rstrip(".") + "." if body else ""
    return (
        f"<a class='cl-tool' href='{book.name}' data-dashboard='{book.stem}' style='{_CARD_STYLE}'>"
        f"<h3 style='margin:0 0 4px'>{html.escape(title)}</h3>"
        f"<p style='margin:4px 0'>{html.escape(summary)}</p>"
        "</a>"
    )


def gallery_html(folder: Path) -> str:
    """HTML cards linking to every dashboard in `folder`: the games (named after them) first, then the lab."""
    books = {book.stem: book for book in folder.glob("*.ipynb") if book.stem != "index"}
    games_shown = [name for name in games() if name in books]
    cards = [_game_card(name) for name in games_shown]
    cards += [_tool_card(books[stem]) for stem in sorted(books) if stem not in games_shown]
    if not cards:
        return "<p>No dashboards yet.</p>"
    return f"<div class='cl-gallery' style='display:flex;flex-wrap:wrap;gap:16px'>{''.join(cards)}</div>"


def show_gallery(folder: str | Path = ".") -> None:
    # An HTML widget, not a rich output: rich outputs open relative links in a new tab.
    import ipywidgets
    from IPython.display import display

    display(ipywidgets.HTML(gallery_html(Path(folder))))
