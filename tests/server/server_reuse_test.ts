/**
 * One server per user, as real processes: the first `domterm` serves, later
 * ones ask it (a new session, list, attach, kill, kill-server), a stale
 * socket is replaced, and a directory that is not private is refused.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { runtimeDir, socketPath } from "../../server/control.ts";
import { formatList } from "../../server/commands/sessions.ts";
import { type DomtermOutput, runDomterm } from "../run_domterm.ts";
import { startServerProcess } from "./server_process.ts";

function run(dir: string, args: string[]): Promise<DomtermOutput> {
  return runDomterm(args, env(dir));
}

function env(dir: string): Record<string, string> {
  // Its journals too (server/journal/): never among the user's.
  return {
    DOMTERM_RUNTIME_DIR: dir,
    DOMTERM_SOCKET: "",
    XDG_STATE_HOME: `${dir}/state`,
  };
}

async function stop(child: Deno.ChildProcess) {
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  await child.status;
  await child.stdout.cancel().catch(() => {});
  await child.stderr.cancel().catch(() => {});
}

Deno.test("one server per user: a second domterm asks the first; list, attach, kill and kill-server talk to it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-reuse-" });
  const first = await startServerProcess(dir, ["/bin/sh"], env(dir));
  try {
    const port = new URL(first.url).port;
    // A second domterm starts no server: it gets a session of the first.
    const second = await run(dir, [
      "--no-browser",
      "--",
      "/bin/sh",
      "-c",
      "sleep 60",
    ]);
    assertEquals(second.code, 0, second.stderr);
    const url = new URL(second.stdout.trim());
    assertEquals(url.port, port, "the same server");
    assertMatch(url.hash, /^#key=[\w-]+&session=(\d+)$/);
    const id = Number(/session=(\d+)/.exec(url.hash)![1]);

    const list = await run(dir, ["list", "--json"]);
    assertEquals(list.code, 0, list.stderr);
    const sessions = JSON.parse(list.stdout);
    assertEquals(sessions.length, 1);
    assertEquals(sessions[0].id, id);
    assertEquals(sessions[0].state, "detached");
    assertEquals(sessions[0].command, ["/bin/sh", "-c", "sleep 60"]);
    const table = await run(dir, ["list"]);
    assertMatch(table.stdout, /^#\s+NAME\s+PID\s+SIZE\s+WINDOWS\s+STATE/);
    assertMatch(table.stdout, /detached \d+s\s+\/bin\/sh -c sleep 60/);

    const attach = await run(dir, ["attach", String(id), "--no-browser"]);
    assertEquals(attach.code, 0, attach.stderr);
    assertEquals(attach.stdout.trim(), second.stdout.trim());
    const missing = await run(dir, ["attach", "99", "--no-browser"]);
    assertEquals(missing.code, 1);
    assertMatch(missing.stderr, /no session 99/);

    // Named sessions.
    const named = await run(dir, [
      "new",
      "--name",
      "work",
      "--no-browser",
      "--",
      "/bin/sh",
      "-c",
      "sleep 60",
    ]);
    assertEquals(named.code, 0, named.stderr);
    const byName = await run(dir, ["attach", "work", "--no-browser"]);
    assertEquals(byName.stdout.trim(), named.stdout.trim());
    // A browser that cannot open a window (no display...) is said, and the
    // session made for it does not stay behind; an attached one stays.
    const before = JSON.parse((await run(dir, ["list", "--json"])).stdout);
    const failing = await run(dir, ["new", "--browser", "/bin/false"]);
    assertEquals(failing.code, 1, failing.stderr);
    assertMatch(
      failing.stderr,
      /\/bin\/false exited with status 1 before a window connected/,
    );
    assertMatch(failing.stderr, /session \d+ was ended \(it had no window\)/);
    assertEquals(
      JSON.parse((await run(dir, ["list", "--json"])).stdout).length,
      before.length,
    );
    // A plain second `domterm` too.
    const plain = await run(dir, ["--browser", "/bin/false", "--", "/bin/sh"]);
    assertEquals(plain.code, 1, plain.stderr);
    assertMatch(plain.stderr, /session \d+ was ended \(it had no window\)/);
    assertEquals(
      JSON.parse((await run(dir, ["list", "--json"])).stdout).length,
      before.length,
    );
    const failingAttach = await run(dir, [
      "attach",
      "work",
      "--browser",
      "/bin/false",
    ]);
    assertEquals(failingAttach.code, 1, failingAttach.stderr);
    assertMatch(failingAttach.stderr, /session \d+ is unchanged/);
    assertEquals(
      JSON.parse((await run(dir, ["list", "--json"])).stdout).length,
      before.length,
    );
    // The server's refusal is said once, with the command's name once.
    const badName = await run(dir, [
      "new",
      "--name",
      "bad name!",
      "--no-browser",
    ]);
    assertEquals(badName.code, 1);
    assertEquals(
      badName.stderr.trim(),
      "domterm new: a name is 1-64 letters, digits, '_', '.' or '-'",
    );

    const kill = await run(dir, ["kill", String(id)]);
    assertEquals(kill.code, 0, kill.stderr);
    for (let i = 0; i < 50; i++) {
      const l = JSON.parse((await run(dir, ["list", "--json"])).stdout);
      if (l.length === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(
      JSON.parse((await run(dir, ["list", "--json"])).stdout).map((
        s: { name: string },
      ) => s.name),
      ["work"],
    );

    const ks = await run(dir, ["kill-server"]);
    assertEquals(ks.code, 0, ks.stderr);
    const status = await first.child.status;
    assertEquals(status.code, 0);
    const after = await run(dir, ["list"]);
    assertEquals(after.code, 1);
    assertMatch(after.stderr, /no domterm server is running/);
  } finally {
    await stop(first.child);
  }
});

Deno.test("one server per user: a socket left by a dead server is replaced", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-stale-" });
  const first = await startServerProcess(dir, ["/bin/sh"], env(dir));
  first.child.kill("SIGKILL");
  await first.child.status;
  await first.child.stdout.cancel().catch(() => {});
  await first.child.stderr.cancel().catch(() => {});
  Deno.statSync(socketPath(dir)); // still there
  const second = await startServerProcess(dir, ["/bin/sh"], env(dir));
  try {
    assert(second.url !== first.url, "a new server, not the dead one");
    const list = await run(dir, ["list", "--json"]);
    assertEquals(list.code, 0, list.stderr);
  } finally {
    await stop(second.child);
  }
});

Deno.test("one server per user: a runtime directory of another user is refused, one open to others is closed", async () => {
  const base = Deno.makeTempDirSync({ prefix: "domterm-perm-" });
  const open = `${base}/open`;
  Deno.mkdirSync(open, { mode: 0o777 });
  Deno.chmodSync(open, 0o777);
  runtimeDir((k) => k === "DOMTERM_RUNTIME_DIR" ? open : undefined);
  assertEquals(Deno.statSync(open).mode! & 0o777, 0o700);
  if (Deno.uid() === 0) {
    const other = `${base}/other`;
    Deno.mkdirSync(other, { mode: 0o700 });
    Deno.chownSync(other, 12345, 12345);
    let err = "";
    try {
      runtimeDir((k) => k === "DOMTERM_RUNTIME_DIR" ? other : undefined);
    } catch (e) {
      err = (e as Error).message;
    }
    assertMatch(err, /belongs to another user/);
    // The session commands say so in one line, not with a stack trace.
    const list = await run(other, ["list"]);
    assertEquals(list.code, 1);
    assertEquals(
      list.stderr.trim(),
      `domterm: the runtime directory ${other} belongs to another user (uid 12345); set DOMTERM_RUNTIME_DIR to a directory of your own`,
    );
  }
  // A file where the directory should be: one line too.
  const file = `${base}/file`;
  Deno.writeTextFileSync(file, "");
  for (const args of [["list"], ["attach", "1"], ["kill-server"]]) {
    const r = await run(file, args);
    assertEquals(r.code, 1, args.join(" "));
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertMatch(
      r.stderr,
      /^domterm: the runtime directory .* is not a directory/,
    );
  }
  // The default: $XDG_RUNTIME_DIR/domterm.
  const xdg = `${base}/xdg`;
  Deno.mkdirSync(xdg);
  assertEquals(
    runtimeDir((k) => k === "XDG_RUNTIME_DIR" ? xdg : undefined),
    `${xdg}/domterm`,
  );
});

Deno.test("domterm list: the table", () => {
  const now = 1_000_000;
  assertEquals(formatList([], now), "no sessions");
  const t = formatList([
    {
      id: 1,
      name: null,
      command: ["bash"],
      pid: 42,
      windows: 2,
      cols: 80,
      rows: 24,
      state: "attached",
      detachedSince: null,
    },
    {
      id: 12,
      name: "work",
      command: ["vim", "x"],
      pid: 4242,
      windows: 0,
      cols: 100,
      rows: 30,
      state: "detached",
      detachedSince: now - 125_000,
    },
  ], now);
  assertEquals(
    t,
    [
      "#   NAME  PID   SIZE    WINDOWS  STATE        COMMAND",
      "1   -     42    80x24   2        attached     bash",
      "12  work  4242  100x30  0        detached 2m  vim x",
    ].join("\n"),
  );
});

Deno.test("domterm save N FILE writes the session as standalone HTML from the server's model", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-save-" });
  const first = await startServerProcess(dir, ["/bin/sh"], env(dir));
  try {
    const made = await run(dir, [
      "new",
      "--no-browser",
      "--",
      "/bin/sh",
      "-c",
      "printf 'plain \\033[31mRED\\033[0m\\n'; printf '\\033]72;<b>bold</b><script>x()</script>\\a\\n'; sleep 60",
    ]);
    assertEquals(made.code, 0, made.stderr);
    const id = /session=(\d+)/.exec(made.stdout)![1];
    await new Promise((r) => setTimeout(r, 500));
    const file = `${dir}/saved.html`;
    const saved = await run(dir, ["save", id, file]);
    assertEquals(saved.code, 0, saved.stderr);
    assertMatch(saved.stderr, /saved session \d+/);
    const html = Deno.readTextFileSync(file);
    // The whole scrollback: the user's only, as the session is.
    assertEquals(Deno.statSync(file).mode! & 0o777, 0o600);
    assertMatch(html, /^<!DOCTYPE html>/i);
    assertMatch(html, /plain/);
    assertMatch(html, /RED/);
    // Program HTML is kept as escaped source: no live script element.
    assert(!/<script>x\(\)/.test(html), "no live script from the output");
    assertMatch(html, /&lt;script&gt;/);
    const bad = await run(dir, ["save", "99", file]);
    assertEquals(bad.code, 1);
    assertMatch(bad.stderr, /no session 99/);
  } finally {
    await stop(first.child);
  }
});

Deno.test("inside a session, 'domterm' on PATH is this same program", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-path-" });
  const first = await startServerProcess(dir, ["/bin/sh"], env(dir));
  try {
    const out = `${dir}/version.txt`;
    const made = await run(dir, [
      "new",
      "--no-browser",
      "--",
      "/bin/sh",
      "-c",
      `command -v domterm > ${out}; domterm --version >> ${out} 2>&1; sleep 30`,
    ]);
    assertEquals(made.code, 0, made.stderr);
    let text = "";
    for (let i = 0; i < 200 && !/domterm \d/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        text = Deno.readTextFileSync(out);
      } catch { /* not yet */ }
    }
    const [path, version] = text.trim().split("\n");
    assertEquals(path, `${dir}/bin/domterm`);
    const mine = await run(dir, ["--version"]);
    assertEquals(version, mine.stdout.trim());
  } finally {
    await stop(first.child);
  }
});

Deno.test("the launcher runs the compiled executable itself, else deno run of the main module", async () => {
  const { selfCommand } = await import("../../server/self_launcher.ts");
  assertEquals(selfCommand("/usr/local/bin/domterm", "file:///x/main.ts"), [
    "/usr/local/bin/domterm",
  ]);
  assertEquals(selfCommand("/usr/bin/deno", "file:///src/dt/main.ts"), [
    "/usr/bin/deno",
    "run",
    "-A",
    "/src/dt/main.ts",
  ]);
  assertEquals(
    selfCommand("/usr/bin/deno", "https://jsr.io/@x/domterm/0.1.0/main.ts"),
    ["/usr/bin/deno", "run", "-A", "https://jsr.io/@x/domterm/0.1.0/main.ts"],
  );
});
