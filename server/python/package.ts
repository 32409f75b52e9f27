/**
 * domterm's Python package (integrations/python/domterm/), embedded as
 * text like the shell integration scripts, so the compiled program and
 * the JSR package carry it; `domterm python-path` writes it out
 * ({@linkcode writePythonPackage}) for PYTHONPATH. docs/python.md.
 *
 * @module
 */
import { join } from "node:path";
import init from "../../integrations/python/domterm/__init__.py" with {
  type: "text",
};
import term from "../../integrations/python/domterm/_term.py" with {
  type: "text",
};
import display from "../../integrations/python/domterm/_display.py" with {
  type: "text",
};
import events from "../../integrations/python/domterm/_events.py" with {
  type: "text",
};
import markdown from "../../integrations/python/domterm/_markdown.py" with {
  type: "text",
};
import repl from "../../integrations/python/domterm/repl.py" with {
  type: "text",
};
import startup from "../../integrations/python/domterm/startup.py" with {
  type: "text",
};
import ipython from "../../integrations/python/domterm/ipython.py" with {
  type: "text",
};
import mpl from "../../integrations/python/domterm/matplotlib_backend.py" with {
  type: "text",
};

/** The package's files: name in the `domterm/` directory, text. */
export const PYTHON_FILES: Readonly<Record<string, string>> = {
  "__init__.py": init,
  "_term.py": term,
  "_display.py": display,
  "_events.py": events,
  "_markdown.py": markdown,
  "repl.py": repl,
  "startup.py": startup,
  "ipython.py": ipython,
  "matplotlib_backend.py": mpl,
};

/** A short hash of the package's files (names and contents). */
export async function packageHash(): Promise<string> {
  const text = Object.entries(PYTHON_FILES).map(([name, body]) =>
    `${name}\0${body}\0`
  ).join("");
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest).subarray(0, 8),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * Write the package to `<base>/python/<hash>/domterm/` unless it is there
 * already, and return `<base>/python/<hash>`: the directory to put on
 * PYTHONPATH. The name changes with the contents, so a directory once
 * written is never rewritten (a running Python may be reading it); it is
 * made under a temporary name and renamed, so it is complete or absent.
 * `base` is private to the user (the runtime directory): a directory on
 * PYTHONPATH must not be writable by anyone else.
 */
export async function writePythonPackage(base: string): Promise<string> {
  const root = join(base, "python");
  const dir = join(root, await packageHash());
  try {
    await Deno.stat(join(dir, "domterm", "__init__.py"));
    return dir;
  } catch {
    // not written yet
  }
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const tmp = await Deno.makeTempDir({ dir: root, prefix: ".tmp-" });
  try {
    await Deno.chmod(tmp, 0o755);
    await Deno.mkdir(join(tmp, "domterm"), { mode: 0o755 });
    for (const [name, body] of Object.entries(PYTHON_FILES)) {
      await Deno.writeTextFile(join(tmp, "domterm", name), body, {
        mode: 0o644,
      });
    }
    try {
      await Deno.rename(tmp, dir);
    } catch (e) {
      // Another `domterm python-path` won the race: its copy is the same.
      if (!(await Deno.stat(dir).then(() => true, () => false))) throw e;
    }
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  return dir;
}
