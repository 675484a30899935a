"""cliplab: rules engines, a board widget and simulation for paper-and-grid board games."""

__version__ = "0.1.0"
