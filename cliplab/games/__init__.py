"""One package per game; importing this package registers them all."""

from . import click_crack, clipcut_parks

__all__ = ["click_crack", "clipcut_parks"]
