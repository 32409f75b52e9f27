"""For ``PYTHONSTARTUP``: install domterm's REPL display hook.

``export PYTHONSTARTUP=$(domterm python-path)/domterm/startup.py`` makes the
plain ``python3`` REPL show tables and images; it needs no PYTHONPATH (this
file finds its package). Outside domterm it does nothing.
"""

import os as _os
import sys as _sys

if _os.environ.get("DOMTERM") is not None:
    _dir = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    if _dir not in _sys.path:
        _sys.path.append(_dir)
    import domterm.repl  # noqa: F401  (installs the hook)
    del _dir
del _os, _sys
