"""A terminal for the tests: a real PTY whose slave end stands for a
domterm window (DOMTERM names its tty), read back from the master end by a
thread (so large writes do not block)."""

import os
import pty
import sys
import threading
import time
import tty
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


class PtyCase(unittest.TestCase):
    """setUp opens a PTY (raw, so bytes come back as written) and sets
    DOMTERM to name it; ``self.out`` is its slave end as a text stream."""

    def setUp(self):
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.tty_name = os.ttyname(slave)
        self.out = os.fdopen(slave, "w", encoding="utf-8")
        self.saved_env = os.environ.get("DOMTERM")
        os.environ["DOMTERM"] = (
            "version=test;tty=%s;session#=1;pid=1" % self.tty_name)
        self._chunks = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 1 << 20)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self._chunks.append(data)

    def tearDown(self):
        if self.saved_env is None:
            os.environ.pop("DOMTERM", None)
        else:
            os.environ["DOMTERM"] = self.saved_env
        self.out.close()
        self._reader.join(2)
        os.close(self.master)

    def written(self, settle=0.1):
        """Everything written to the terminal so far (and not taken yet):
        what came until nothing more came for ``settle`` seconds."""
        self.out.flush()
        size = -1
        while True:
            time.sleep(settle)
            with self._lock:
                now = sum(len(c) for c in self._chunks)
                if now == size:
                    data = b"".join(self._chunks)
                    del self._chunks[:]
                    return data
            size = now

    def type_in(self, data):
        """Bytes typed at the terminal: they arrive on the slave's input."""
        os.write(self.master, data)
