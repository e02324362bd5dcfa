"""Quick pairing: the lobby's grid of games and time controls, the seeks it makes and the
pool that pairs them (:mod:`.controls`, :mod:`.models`, :mod:`.matching`, :mod:`.pool`,
:mod:`.socket`)."""
