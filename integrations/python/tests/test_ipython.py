import sys
import unittest

from ptycase import PtyCase

from IPython.terminal.interactiveshell import TerminalInteractiveShell


class Table(object):
    def _repr_html_(self):
        return "<table><tr><td>1</td></tr></table>"

    def __repr__(self):
        return "Table()"


class IPythonExtensionTest(PtyCase):
    def setUp(self):
        PtyCase.setUp(self)
        self.stdout = sys.stdout
        sys.stdout = self.out
        self.shell = TerminalInteractiveShell.instance(
            colors="NoColor", simple_prompt=True)
        self.shell.user_ns["Table"] = Table

    def tearDown(self):
        self.shell.run_line_magic("unload_ext", "domterm.ipython")
        sys.stdout = self.stdout
        PtyCase.tearDown(self)

    def test_results_and_display_data_inline(self):
        self.shell.run_line_magic("load_ext", "domterm.ipython")
        self.written()
        self.shell.run_cell("Table()", store_history=True)
        out = self.written()
        self.assertIn(
            b'\x1b]72;<div class="domterm-display"><table><tr><td>1</td>'
            b"</tr></table></div>\x07", out)
        self.assertNotIn(b"Table()", out)
        self.shell.run_cell(
            "from IPython.display import display, SVG, Markdown\n"
            "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\"/>'))\n"
            "display(Markdown('*hi*'))\n"
            "display(12)\n")
        out = self.written()
        self.assertIn(b"\x1b]1337;File=name=aW1hZ2Uuc3Zn;inline=1;", out)
        self.assertIn(
            b'\x1b]72;<div class="domterm-display"><p><em>hi</em></p></div>'
            b"\x07", out)
        self.assertTrue(out.endswith(b"\x0712\n"), out)

    def test_unloaded_it_prints_text(self):
        self.shell.run_line_magic("load_ext", "domterm.ipython")
        self.shell.run_line_magic("unload_ext", "domterm.ipython")
        self.written()
        self.shell.run_cell("Table()", store_history=True)
        out = self.written()
        self.assertIn(b"Table()", out)
        self.assertNotIn(b"\x1b]72", out)


if __name__ == "__main__":
    unittest.main()
