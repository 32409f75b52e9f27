import builtins
import sys
import unittest

from ptycase import PtyCase

import domterm.repl


class Table(object):
    def _repr_html_(self):
        return "<table><tr><td>1</td></tr></table>"


class ReplHookTest(PtyCase):
    def setUp(self):
        PtyCase.setUp(self)
        self.saved = (sys.stdout, sys.displayhook)
        sys.stdout = self.out

    def tearDown(self):
        domterm.repl.uninstall()
        sys.stdout, sys.displayhook = self.saved
        PtyCase.tearDown(self)

    def test_rich_results_and_plain_ones(self):
        self.assertTrue(domterm.repl.install())
        table = Table()
        sys.displayhook(table)
        self.assertIs(builtins._, table)
        self.assertEqual(
            self.written(),
            b'\x1b]72;<div class="domterm-display"><table><tr><td>1</td>'
            b"</tr></table></div>\x07")
        sys.displayhook(42)
        self.assertEqual(builtins._, 42)
        sys.displayhook("<b>s</b>")
        sys.displayhook(None)
        self.assertEqual(self.written(), b"42\n'<b>s</b>'\n")

    def test_not_installed_outside_domterm(self):
        import os
        del os.environ["DOMTERM"]
        hook = sys.displayhook
        self.assertFalse(domterm.repl.install())
        self.assertIs(sys.displayhook, hook)


if __name__ == "__main__":
    unittest.main()
