"""One package per game. Games are found through the "cliplab.games" entry points (cliplab.engine.registry),
never by importing this package, so importing one game imports no other."""
