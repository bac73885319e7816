# What the type checker and mypyc see of canasta._mypyc: mypyc's own class marker, so that a
# class it decorates stays native and open to subclasses written in plain Python.
from mypy_extensions import mypyc_attr as mypyc_attr
