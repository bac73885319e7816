"""Research interfaces: Canasta for reinforcement learning and game-AI toolkits.

* :mod:`canasta.rl.encoding` — every legal action spelled as ids of one 125-id alphabet
  (standard library only);
* :mod:`canasta.rl.tensor` — a seat's view as a flat tensor of floats (standard library only);

The adapters need the optional ``rl`` extra (``pip install canasta[rl]``); see docs/rl.md.
"""
