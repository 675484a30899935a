"""One package per game; importing this package registers them all."""

from . import click_crack

__all__ = ["click_crack"]
