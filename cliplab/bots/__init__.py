"""Game-independent bots."""

from .mcts import MCTSBot as MCTSBot
from .random_bot import RandomBot, play

__all__ = ["RandomBot", "play"]
