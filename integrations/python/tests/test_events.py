import json
import os
import termios
import threading
import time
import unittest

from ptycase import PtyCase

import domterm
from domterm import EventParser

EVENT = {"name": "ok", "key": None, "event": "click", "value": None}


def wire(event):
    return (b"\x1b]7101;" + json.dumps(event, separators=(",", ":")).encode()
            + b"\x07\n")


class ParserTest(unittest.TestCase):
    def test_one_event(self):
        self.assertEqual(EventParser().feed(wire(EVENT)), [("event", EVENT)])

    def test_byte_by_byte_with_input_around(self):
        data = b"ab" + wire(EVENT) + b"\x1b[A" + wire(
            {"name": "t", "key": "k", "event": "change", "value": "\u00e9\u2603"})
        parser = EventParser()
        got = []
        for i in range(len(data)):
            got.extend(parser.feed(data[i:i + 1]))
        events = [v for k, v in got if k == "event"]
        other = b"".join(v for k, v in got if k == "input")
        self.assertEqual(events, [EVENT, {"name": "t", "key": "k",
                                          "event": "change",
                                          "value": "\u00e9\u2603"}])
        self.assertEqual(other, b"ab\x1b[A")

    def test_line_feed_in_the_next_piece_is_dropped(self):
        parser = EventParser()
        self.assertEqual(parser.feed(wire(EVENT)[:-1]), [("event", EVENT)])
        self.assertEqual(parser.feed(b"\nx\n"), [("input", b"x\n")])

    def test_not_events(self):
        parser = EventParser()
        self.assertEqual(parser.feed(b"\x1b]7101;not json\x07\n"), [])
        self.assertEqual(parser.feed(b"\x1b]7101;[1]\x07\n"), [])
        self.assertEqual(parser.feed(b'\x1b]7101;{"name":1}\x07\n'), [])
        self.assertEqual(parser.feed(b"\x1b]7"), [])
        self.assertEqual(parser.feed(b"2;x\x07"), [("input", b"\x1b]72;x\x07")])
        # An unterminated prefix longer than any event is let through.
        junk = b"\x1b]7101;" + b"x" * 5000
        got = parser.feed(junk)
        self.assertEqual(b"".join(v for _, v in got), junk)

    def test_parse_event_line(self):
        line = wire(EVENT).decode()
        self.assertEqual(domterm.parse_event_line(line), EVENT)
        self.assertEqual(domterm.parse_event_line("hello\n"), None)


class EventsTest(PtyCase):
    def test_enable_and_disable_write_the_mode(self):
        self.assertTrue(domterm.enable_events(self.out))
        self.assertEqual(self.written(), b"\x1b[?7101h")
        self.assertTrue(domterm.disable_events(self.out))
        self.assertEqual(self.written(), b"\x1b[?7101l")

    def test_the_mode_goes_off_at_exit_once(self):
        import subprocess
        import sys
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, PYTHONPATH=root)
        for code, want in (
            ("import domterm; domterm.enable_events()",
             b"\x1b[?7101h\x1b[?7101l"),
            ("import domterm; domterm.enable_events(); "
             "domterm.disable_events(); print('x')",
             b"\x1b[?7101h\x1b[?7101lx\n"),
        ):
            subprocess.run([sys.executable, "-c", code], env=env,
                           stdout=self.out, check=True)
            self.assertEqual(self.written(), want)

    def test_events_reads_the_terminal_and_restores_it(self):
        slave = self.out.fileno()
        attrs = termios.tcgetattr(slave)
        attrs[3] |= termios.ICANON | termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        toggle = {"name": "tree", "key": "n1", "event": "toggle",
                  "value": "open"}
        got = []
        modes = []

        def consume():
            gen = domterm.events(keys=True, file=self.out)
            for ev in gen:
                modes.append(termios.tcgetattr(slave)[3])
                got.append(ev)
                if len(got) == 3:
                    break
            gen.close()

        thread = threading.Thread(target=consume)
        thread.start()
        for _ in range(500):  # until events() has set the terminal's mode
            if not termios.tcgetattr(slave)[3] & termios.ICANON:
                break
            time.sleep(0.01)
        # Typed while events() runs: in canonical mode none of this would
        # arrive before a line feed, and with echo it would come back.
        self.type_in(wire(EVENT))
        self.type_in(b"q")
        self.type_in(wire(toggle)[:9])
        self.type_in(wire(toggle)[9:])
        thread.join(5)
        self.assertFalse(thread.is_alive())
        self.assertEqual(got, [EVENT, {"event": "key", "value": "q"}, toggle])
        self.assertEqual(modes[0] & (termios.ICANON | termios.ECHO), 0)
        self.assertEqual(termios.tcgetattr(slave)[3], attrs[3])
        self.assertEqual(self.written(), b"")  # nothing echoed


if __name__ == "__main__":
    unittest.main()
