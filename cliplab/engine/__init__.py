"""The game protocol shared by every cliplab game."""

from .actions import Action, ActionCodec, ActionsInParts, Hidden, HiddenChance, ListedActions
from .content import read_toml
from .errors import CliplabError, ContentError, IllegalAction, OptionError, PositionError, SaveError
from .game import GameConfig, GameSpec, Option, OptionValue, round_limit
from .outcome import Outcome
from .registry import games, new_game, register, spec, variants
from .save import from_json, load, save, to_json
from .state import CHANCE, ChanceNode, State, UniformChoice, replay

__all__ = [
    "CHANCE",
    "Action",
    "ActionCodec",
    "ActionsInParts",
    "ChanceNode",
    "CliplabError",
    "ContentError",
    "GameConfig",
    "GameSpec",
    "Hidden",
    "HiddenChance",
    "IllegalAction",
    "ListedActions",
    "Option",
    "OptionError",
    "OptionValue",
    "Outcome",
    "PositionError",
    "SaveError",
    "State",
    "UniformChoice",
    "from_json",
    "games",
    "load",
    "new_game",
    "read_toml",
    "register",
    "replay",
    "round_limit",
    "save",
    "spec",
    "to_json",
    "variants",
]
