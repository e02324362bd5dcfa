"""Chat in every game: a players' channel and a spectators' channel."""
