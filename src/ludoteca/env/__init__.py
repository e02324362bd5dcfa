"""Research adapters: PettingZoo environments and OpenSpiel games for the four games.

Install with ``pip install 'ludoteca[research]'``. :mod:`.actions` defines each game's
fixed action ids and the driver both adapters share, :mod:`.observation` the observation
tensors; :mod:`.pettingzoo` and :mod:`.openspiel` import their frameworks, so importing
this package needs neither.
"""
