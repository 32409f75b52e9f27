/**
 * The Python integration (integrations/python/, docs/python.md): its own
 * unittest suite (run with Debian's python3, which has matplotlib, pandas
 * and IPython: scripts/provision_tests.ts), and `domterm python-path`,
 * which writes the embedded copy of the package.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import { runDomterm } from "../run_domterm.ts";
import { PYTHON_FILES } from "../../server/python/package.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PKG = `${ROOT}integrations/python/domterm`;
/** Debian's Python: the one the provisioned libraries are installed for. */
export const PYTHON = "/usr/bin/python3";

Deno.test("python: the package's unittest suite passes", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "domterm-py-test-" });
  try {
    const out = await new Deno.Command(PYTHON, {
      args: ["-m", "unittest", "discover", "-s", "tests", "-v"],
      cwd: `${ROOT}integrations/python`,
      env: {
        // IPython and matplotlib keep their state here, not in ~.
        IPYTHONDIR: `${tmp}/ipython`,
        MPLCONFIGDIR: `${tmp}/mpl`,
        PYTHONDONTWRITEBYTECODE: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, err);
    const ran = /^Ran (\d+) tests?/m.exec(err);
    assert(ran !== null && Number(ran[1]) >= 28, err);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("python: every module of the package is embedded", async () => {
  const names: string[] = [];
  for await (const e of Deno.readDir(PKG)) {
    if (e.isFile && e.name.endsWith(".py")) names.push(e.name);
  }
  assertEquals(Object.keys(PYTHON_FILES).sort(), names.sort());
  for (const name of names) {
    assertEquals(PYTHON_FILES[name], await Deno.readTextFile(`${PKG}/${name}`));
  }
});

Deno.test("python: domterm python-path writes the package once and prints where", async () => {
  const run = await Deno.makeTempDir({ prefix: "domterm-py-run-" });
  try {
    const env = { DOMTERM_RUNTIME_DIR: run };
    const first = await runDomterm(["python-path"], env);
    assertEquals(first.code, 0, first.stderr);
    const dir = first.stdout.trim();
    assert(dir.startsWith(`${run}/python/`), dir);
    for (const [name, body] of Object.entries(PYTHON_FILES)) {
      assertEquals(await Deno.readTextFile(`${dir}/domterm/${name}`), body);
    }
    const mtime = (await Deno.stat(`${dir}/domterm/__init__.py`)).mtime;
    const second = await runDomterm(["python-path"], env);
    assertEquals(second.stdout.trim(), dir);
    assertEquals((await Deno.stat(`${dir}/domterm/__init__.py`)).mtime, mtime);
    // Usable as it is: Python imports it from there.
    const py = await new Deno.Command(PYTHON, {
      args: ["-c", "import domterm, domterm.repl; print(domterm.__file__)"],
      env: { PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(
      new TextDecoder().decode(py.stdout).trim(),
      `${dir}/domterm/__init__.py`,
      new TextDecoder().decode(py.stderr),
    );
  } finally {
    await Deno.remove(run, { recursive: true });
  }
});
