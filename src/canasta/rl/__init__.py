"""Research interfaces: Canasta for reinforcement learning and game-AI toolkits (docs/rl.md).

Standard library only, the contract every adapter and data pipeline shares:

* :mod:`canasta.rl.encoding` — every legal action spelled as ids of one alphabet (125 ids for
  the classic presets, 142 for Modern American);
* :mod:`canasta.rl.tensor` — a seat's view as a flat tensor of floats;
* :mod:`canasta.rl.table` — hands played id by id (the environments' driver), and each family
  of rules (classic, Modern American) behind one interface.

With the optional ``rl`` extra (``pip install canasta[rl]``):

* :mod:`canasta.rl.openspiel` — the OpenSpiel game ``python_canasta``;
* :mod:`canasta.rl.pettingzoo` — a PettingZoo AEC environment;
* :mod:`canasta.rl.gym` — a Gymnasium environment, one seat against bots;
* :mod:`canasta.rl.openspiel_bot` — OpenSpiel's ISMCTS as the bot ``openspiel-ismcts``.
"""
