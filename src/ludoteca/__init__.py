"""ludoteca: exact rules engines, computer opponents, a command line and a web club
for Comune, Comino, Kuniumi and Hexagone."""

__version__ = "0.1.0"
