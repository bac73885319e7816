"""Research interfaces: Canasta for reinforcement learning and game-AI toolkits (docs/rl.md).

Standard library only, the contract every adapter and data pipeline shares:

* :mod:`canasta.rl.encoding` — every legal action spelled as ids of one alphabet (the classic
  family's 125 ids, which other families' alphabets extend);
* :mod:`canasta.rl.tensor` — a seat's view as a flat tensor of floats (the classic family's);
* :mod:`canasta.rl.research` — what each family of rules gives the adapters (its alphabet, its
  tensor, their bounds), found through the family's ``research_module`` so that no adapter
  names a family (:mod:`canasta.rl.classic` is the classic family's);
* :mod:`canasta.rl.table` — hands of any family played id by id (the environments' driver),
  and the returns every adapter shares.

With the optional ``rl`` extra (``pip install canasta[rl]``):

* :mod:`canasta.rl.openspiel` — the OpenSpiel game ``python_canasta``;
* :mod:`canasta.rl.pettingzoo` — a PettingZoo AEC environment;
* :mod:`canasta.rl.gym` — a Gymnasium environment, one seat against bots;
* :mod:`canasta.rl.openspiel_bot` — OpenSpiel's ISMCTS as the bot ``openspiel-ismcts``.
"""
