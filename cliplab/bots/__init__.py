"""Game-independent bots."""

from .random_bot import RandomBot, play

__all__ = ["RandomBot", "play"]
