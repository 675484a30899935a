"""Click & Crack (seeds/002): rules and a random bot."""

from .rules import SPEC, BreakOff, ClickCrack, Pass, Perform, Place, PushAside, SetTiles

__all__ = ["SPEC", "BreakOff", "ClickCrack", "Pass", "Perform", "Place", "PushAside", "SetTiles"]
