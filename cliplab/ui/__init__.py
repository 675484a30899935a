"""Drawing and interaction: board descriptions, static SVG, and the grid widget."""

from .intents import BadMessage, Intent, parse_intent
from .scene import Board, Cell, Edge, Mark, Piece, Preview, Scene, Token
from .svg import render

__all__ = [
    "BadMessage",
    "Board",
    "Cell",
    "Edge",
    "Intent",
    "Mark",
    "Piece",
    "Preview",
    "Scene",
    "Token",
    "parse_intent",
    "render",
]
