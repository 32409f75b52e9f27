"""Events from interactive elements (docs/python.md, docs/escapes.md).

``enable_events()`` turns domterm's event mode on (``CSI ? 7101 h``). While
it is on, a click, toggle or change on an element printed with
``data-dt-event="NAME"`` arrives on standard input as one line:
``ESC ] 7101 ; JSON BEL LF``. ``events()`` reads them with the terminal in
cbreak mode without echo, and yields each JSON object as a dict.
"""

import atexit
import codecs
import json
import os
import sys

from . import _term

ENABLE = b"\x1b[?7101h"
DISABLE = b"\x1b[?7101l"
PREFIX = b"\x1b]7101;"
#: An event's JSON is at most 4096 bytes; anything longer is not one.
MAX_EVENT = 4096 + 64

#: None: never enabled; then whether the mode is on (as far as we know).
_enabled = None


def enable_events(file=None):
    """Ask domterm to send events from the elements printed from now on.
    Returns False (and writes nothing) outside domterm. The mode is turned
    off again at exit."""
    global _enabled
    out = sys.stdout if file is None else file
    if not _term.is_domterm(out):
        return False
    _term.write(ENABLE, out)
    if _enabled is None:
        atexit.register(_disable_at_exit, out)
    _enabled = True
    return True


def _disable_at_exit(out):
    if _enabled:
        disable_events(out)


def disable_events(file=None):
    """Turn the event mode off: the elements printed so far go inert."""
    global _enabled
    out = sys.stdout if file is None else file
    if not _term.is_domterm(out):
        return False
    if _enabled:
        _enabled = False
    try:
        _term.write(DISABLE, out)
    except (OSError, ValueError):  # closed at exit
        return False
    return True


def parse_event(payload):
    """The dict of an event's JSON (bytes or str), or None if it is not an
    object with a name and an event type."""
    try:
        if isinstance(payload, bytes):
            payload = payload.decode("utf-8")
        value = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    if not isinstance(value.get("name"), str):
        return None
    if not isinstance(value.get("event"), str):
        return None
    return value


def parse_event_line(line):
    """The event in one line read in canonical mode (``input()``,
    ``sys.stdin.readline()``), or None when the line is not one."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogateescape")
    line = line.rstrip(b"\r\n")
    if not line.startswith(PREFIX) or not line.endswith(b"\x07"):
        return None
    return parse_event(line[len(PREFIX):-1])


class EventParser(object):
    """Splits what comes from the terminal into events and other input.

    ``feed(bytes)`` returns a list of ``("event", dict)`` and
    ``("input", bytes)``, in order. An event may come in pieces; the line
    feed after it is dropped, even when it comes in the next piece.
    """

    def __init__(self):
        self._buf = b""
        self._skip_lf = False

    def feed(self, data):
        buf = self._buf + bytes(data)
        self._buf = b""
        out = []

        def other(chunk):
            if chunk:
                out.append(("input", chunk))

        while buf:
            if self._skip_lf:
                self._skip_lf = False
                if buf[:1] == b"\n":
                    buf = buf[1:]
                    continue
            start = buf.find(PREFIX)
            if start < 0:
                keep = _partial_prefix(buf)
                other(buf[:len(buf) - keep])
                self._buf = buf[len(buf) - keep:]
                break
            other(buf[:start])
            end = buf.find(b"\x07", start + len(PREFIX))
            if end < 0:
                if len(buf) - start > MAX_EVENT:  # not an event: let it through
                    other(buf[start:start + len(PREFIX)])
                    buf = buf[start + len(PREFIX):]
                    continue
                self._buf = buf[start:]
                break
            event = parse_event(buf[start + len(PREFIX):end])
            if event is not None:
                out.append(("event", event))
            buf = buf[end + 1:]
            self._skip_lf = True
        return out


def _partial_prefix(buf):
    """How many bytes at the end of ``buf`` could start an event."""
    for n in range(min(len(PREFIX) - 1, len(buf)), 0, -1):
        if buf.endswith(PREFIX[:n]):
            return n
    return 0


def events(keys=False, file=None):
    """Yield the events that come on ``file`` (default ``sys.stdin``), a
    terminal put in cbreak mode without echo until the generator ends (its
    settings are restored then). With ``keys=True`` other input is yielded
    too, as ``{"event": "key", "value": text}``. Ctrl+C still interrupts.
    Outside a terminal nothing is yielded."""
    import termios
    stdin = sys.stdin if file is None else file
    try:
        fd = stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (AttributeError, OSError, ValueError, termios.error):
        return
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ICANON | termios.ECHO)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    parser = EventParser()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    try:
        while True:
            data = os.read(fd, 65536)
            if not data:
                return
            for kind, value in parser.feed(data):
                if kind == "event":
                    yield value
                elif keys:
                    text = decoder.decode(value)
                    if text:
                        yield {"event": "key", "value": text}
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
