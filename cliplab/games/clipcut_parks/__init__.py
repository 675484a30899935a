"""ClipCut Parks (seeds/000): content as data, rules for every mode, bots."""

from .rules import SPEC, ClipCutParks, Crumple, Cut, Deal, Keep, Place, Roll, Score, TearSheet

__all__ = ["SPEC", "ClipCutParks", "Crumple", "Cut", "Deal", "Keep", "Place", "Roll", "Score", "TearSheet"]
