/**
 * Integration tests of server/pty: real pseudo-terminals and real child
 * processes (Linux). Run with `deno test -A tests/server/pty_test.ts`.
 */

import assert from "node:assert/strict";
import { C, libc } from "../../server/pty/libc.ts";
import { poller } from "../../server/pty/poller.ts";
import { reaper } from "../../server/pty/reaper.ts";
import {
  type ExitStatus,
  Pty,
  type SpawnOptions,
} from "../../server/pty/pty.ts";

// Open libc before any test runs: the library handle is a process-lifetime
// resource, and the resource sanitizer would blame whichever test opened it.
libc();

const decoder = new TextDecoder();
const TIMEOUT_MS = 20_000;

function spawn(
  command: string,
  args: string[] = [],
  options: Partial<SpawnOptions> = {},
): Pty {
  return Pty.spawn({ command, args, cols: 80, rows: 24, ...options });
}

/** Rejects if `p` takes longer than `ms` (the timer is always cleared). */
async function withTimeout<T>(
  p: Promise<T>,
  what: string,
  ms = TIMEOUT_MS,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timeout: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** All output up to end of file. */
function readAll(pty: Pty): Promise<Uint8Array> {
  return withTimeout(
    (async () => {
      const chunks: Uint8Array[] = [];
      for (let c = await pty.read(); c; c = await pty.read()) chunks.push(c);
      return concat(chunks);
    })(),
    "readAll",
  );
}

/** Output as text until it contains `marker` (returns everything read). */
function readUntil(pty: Pty, marker: string): Promise<string> {
  return withTimeout(
    (async () => {
      let text = "";
      while (!text.includes(marker)) {
        const c = await pty.read();
        if (!c) {
          throw new Error(
            `EOF before ${JSON.stringify(marker)}: ${JSON.stringify(text)}`,
          );
        }
        text += decoder.decode(c, { stream: true });
      }
      return text;
    })(),
    `waiting for ${JSON.stringify(marker)}`,
  );
}

/** Exactly `n` bytes of output. */
function readBytes(pty: Pty, n: number): Promise<Uint8Array> {
  return withTimeout(
    (async () => {
      const chunks: Uint8Array[] = [];
      let got = 0;
      while (got < n) {
        const c = await pty.read();
        if (!c) throw new Error(`EOF after ${got} of ${n} bytes`);
        chunks.push(c);
        got += c.length;
      }
      return concat(chunks);
    })(),
    `reading ${n} bytes`,
  );
}

/** Runs `command` to completion: its whole output as text, and its exit status. */
async function run(
  command: string,
  args: string[] = [],
  options: Partial<SpawnOptions> = {},
): Promise<{ out: string; status: ExitStatus }> {
  const pty = spawn(command, args, options);
  try {
    const out = decoder.decode(await readAll(pty));
    return { out, status: await withTimeout(pty.exited, "exit") };
  } finally {
    await pty.close();
  }
}

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) {
    crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  }
  return out;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, tty_nr, tpgid, ...]. */
function statFields(text: string): string[] {
  return text.slice(text.lastIndexOf(")") + 2).trim().split(" ");
}

/** Live (non-zombie) processes whose process group is `pgrp`. */
function liveMembersOfGroup(pgrp: number): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const f = statFields(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
      if (Number(f[2]) === pgrp && f[0] !== "Z") found.push(Number(entry.name));
    } catch {
      // the process went away meanwhile
    }
  }
  return found;
}

Deno.test("tty: the child's terminal is the pty slave", async () => {
  const pty = spawn("tty");
  assert.match(pty.ttyName, /^\/dev\/pts\/\d+$/);
  const ttyName = pty.ttyName;
  const out = decoder.decode(await readAll(pty));
  await pty.close();
  assert.equal(out, `${ttyName}\r\n`);
});

Deno.test("session leader with the pty as controlling terminal, in the foreground", async () => {
  const pty = spawn("cat", ["/proc/self/stat"]);
  const { pid, ttyName } = pty;
  const out = decoder.decode(await readAll(pty));
  await pty.close();
  const [, , pgrp, session, ttyNr, tpgid] = statFields(out).map(Number);
  assert.equal(session, pid, "setsid: the child leads a new session");
  assert.equal(pgrp, pid, "and a new process group");
  assert.equal(tpgid, pid, "which is the terminal's foreground group");
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  assert.ok(major >= 136 && major <= 143, `a Unix98 pty (major ${major})`);
  assert.equal(`/dev/pts/${minor + (major - 136) * 256}`, ttyName);
});

Deno.test("the master fd does not leak into the child; fds 0-2 are the slave", async () => {
  // A read that waits opens the poller's wake-up pipe (close-on-exec too).
  await run("sleep", ["0.2"]);
  const { out } = await run("sh", ["-c", "ls -l /proc/$$/fd"]);
  assert.doesNotMatch(out, /ptmx/);
  const ours = poller().pipe.map((fd) =>
    Deno.readLinkSync(`/proc/self/fd/${fd}`)
  );
  assert.match(ours[0], /^pipe:/);
  for (const pipe of ours) assert.ok(!out.includes(pipe), `${pipe} leaked`);
  for (const fd of [0, 1, 2]) {
    assert.match(out, new RegExp(` ${fd} -> /dev/pts/\\d+`));
  }
});

Deno.test("the child starts with no blocked and no ignored signals (SIGPIPE is default)", async () => {
  const { out } = await run("cat", ["/proc/self/status"]);
  const mask = (name: string) =>
    BigInt("0x" + out.match(new RegExp(`${name}:\\s*([0-9a-f]+)`))![1]);
  // Only the 31 classic signals: glibc's posix_spawn leaves its two internal
  // real-time signals (32, 33) ignored, exactly as for Deno.Command.
  assert.equal(mask("SigBlk") & 0x7fffffffn, 0n);
  assert.equal(mask("SigIgn") & 0x7fffffffn, 0n);
});

Deno.test("stty size shows the initial size and follows resize()", async () => {
  assert.equal(
    (await run("stty", ["size"], { cols: 132, rows: 43 })).out,
    "43 132\r\n",
  );

  const pty = spawn("sh", ["-c", "stty size; read x; stty size"]);
  try {
    assert.match(await readUntil(pty, "\n"), /^24 80\r\n$/);
    pty.resize(100, 40);
    await pty.write("\n");
    assert.match(await readUntil(pty, "40 100"), /40 100/);
  } finally {
    await pty.close();
  }
});

Deno.test("resize() delivers SIGWINCH to the foreground process group", async () => {
  const pty = spawn("sh", [
    "-c",
    "trap 'stty size; echo WINCH' WINCH; echo READY; while :; do sleep 0.05; done",
  ]);
  try {
    await readUntil(pty, "READY");
    pty.resize(100, 40, 800, 640);
    assert.match(await readUntil(pty, "WINCH"), /40 100\r\nWINCH/);
    assert.throws(() => pty.resize(0, 10), RangeError);
  } finally {
    await pty.close();
  }
});

Deno.test("all 256 byte values and 1 MiB of random bytes round-trip byte-exact (raw mode)", async () => {
  const pty = spawn("sh", ["-c", "stty raw -echo; printf READY; exec cat"]);
  try {
    await readUntil(pty, "READY");
    const t = pty.getTermios();
    assert.deepEqual([t.canonical, t.echo], [false, false]);

    const every = new Uint8Array(256 * 8).map((_, i) => i & 0xff);
    const [, back] = await Promise.all([
      pty.write(every),
      readBytes(pty, every.length),
    ]);
    assert.deepEqual(back, every);

    // 1 MiB in three concurrent write() calls: they must neither interleave nor reorder.
    const block = randomBytes(1 << 20);
    const parts = [
      block.subarray(0, 300_000),
      block.subarray(300_000, 700_001),
      block.subarray(700_001),
    ];
    const reading = readBytes(pty, block.length);
    await Promise.all(parts.map((p) => pty.write(p)));
    const echoed = await reading;
    assert.equal(echoed.length, block.length);
    assert.ok(echoed.every((b, i) => b === block[i]), "1 MiB identical");

    // Strings are written as UTF-8.
    const [, text] = await Promise.all([
      pty.write("héllo ✓"),
      readBytes(pty, 10),
    ]);
    assert.equal(decoder.decode(text), "héllo ✓");
  } finally {
    await pty.close();
  }
});

Deno.test("exit code, terminating signal and EOF", async () => {
  const exit7 = await run("sh", ["-c", "echo bye; exit 7"]);
  assert.equal(exit7.out, "bye\r\n");
  assert.deepEqual(exit7.status, { code: 7, signal: null });

  const term = await run("sh", ["-c", "kill -TERM $$"]);
  assert.deepEqual(term.status, { code: null, signal: 15 });

  const pty = spawn("true");
  assert.equal(await withTimeout(pty.read(), "EOF"), null);
  assert.equal(await pty.read(), null, "EOF stays EOF");
  // Nobody holds the slave any more: a big write must not hang.
  await withTimeout(
    pty.write(new Uint8Array(1 << 20)),
    "write to a closed slave",
  );
  assert.deepEqual(await pty.close(), { code: 0, signal: null });
  assert.deepEqual(
    await pty.close(),
    { code: 0, signal: null },
    "close() twice",
  );
});

Deno.test("spawn errors are readable", () => {
  assert.throws(
    () => spawn("does-not-exist"),
    { message: "cannot run 'does-not-exist': No such file or directory" },
  );
  const notExecutable = Deno.makeTempFileSync({ prefix: "pty_test_" });
  try {
    Deno.chmodSync(notExecutable, 0o644);
    assert.throws(
      () => spawn(notExecutable),
      { message: `cannot run '${notExecutable}': Permission denied` },
    );
  } finally {
    Deno.removeSync(notExecutable);
  }
  assert.throws(
    () => spawn("pwd", [], { cwd: "/does/not/exist" }),
    /cannot change directory to '\/does\/not\/exist': No such file or directory/,
  );
  assert.throws(() => spawn("echo", ["a\0b"]), /NUL/);
  assert.throws(() => spawn("true", [], { cols: 0 }), RangeError);
});

Deno.test("arguments, cwd and exactly the given environment reach the child", async () => {
  assert.equal((await run("printf", ["%s|", "a b", "ü", ""])).out, "a b|ü||");
  assert.equal((await run("pwd", [], { cwd: "/tmp" })).out, "/tmp\r\n");
  assert.equal(
    (await run("env", [], { env: { FOO: "bar" } })).out,
    "FOO=bar\r\n",
  );
  const inherited = await run("sh", ["-c", 'echo "$PTY_TEST_VAR"'], {
    env: { ...Deno.env.toObject(), PTY_TEST_VAR: "x y" },
  });
  assert.equal(inherited.out, "x y\r\n");
});

Deno.test("getTermios: canonical+echo for a fresh terminal, neither after stty raw -echo", async () => {
  const plain = spawn("sh", ["-c", "echo READY; exec sleep 100"]);
  try {
    await readUntil(plain, "READY");
    const t = plain.getTermios();
    assert.deepEqual([t.canonical, t.echo], [true, true]);
    assert.deepEqual(t.cc, {
      intr: "\x03",
      quit: "\x1c",
      erase: "\x7f",
      kill: "\x15",
      eof: "\x04",
      susp: "\x1a",
    });
  } finally {
    await plain.close();
  }
  assert.throws(() => plain.getTermios(), /after close/);

  const raw = spawn("sh", ["-c", "stty raw -echo; echo READY; exec sleep 100"]);
  try {
    await readUntil(raw, "READY");
    const t = raw.getTermios();
    assert.deepEqual([t.canonical, t.echo], [false, false]);
  } finally {
    await raw.close();
  }
});

Deno.test("getTermios: special characters as stty sets them; foregroundGroup", async () => {
  const pty = spawn("sh", [
    "-c",
    "stty intr ^X eof ^B kill ^K; echo READY; exec sleep 100",
  ]);
  try {
    await readUntil(pty, "READY");
    const t = pty.getTermios();
    assert.equal(t.cc.intr, "\x18");
    assert.equal(t.cc.eof, "\x02");
    assert.equal(t.cc.kill, "\x0b");
    assert.equal(pty.foregroundGroup(), pty.pid);
  } finally {
    await pty.close();
  }
});

Deno.test("kill() sends signals by name or number; default SIGHUP", async () => {
  const a = spawn("sleep", ["100"]);
  a.kill("SIGTERM");
  assert.deepEqual(await withTimeout(a.exited, "exit"), {
    code: null,
    signal: 15,
  });
  a.kill(); // already reaped: a no-op, never a stray signal
  assert.deepEqual(await a.close(), { code: null, signal: 15 });

  const b = spawn("sleep", ["100"]);
  b.kill(9);
  assert.deepEqual(await b.close(), { code: null, signal: 9 });

  const c = spawn("sleep", ["100"]);
  c.kill();
  assert.deepEqual(await c.close(), { code: null, signal: 1 });
});

Deno.test("close() reaps the child: no zombie, waitpid says ECHILD", async () => {
  const pty = spawn("sleep", ["100"]);
  const pending = pty.read(); // a read in flight when close() comes
  assert.ok(exists(`/proc/${pty.pid}`));
  assert.deepEqual(await pty.close(), { code: null, signal: 1 });
  assert.equal(await pending, null, "a pending read() ends with null");
  assert.equal(await pty.read(), null);
  await pty.write("ignored after close");
  pty.resize(90, 30); // no-op after close

  assert.ok(!exists(`/proc/${pty.pid}`), "no zombie left");
  assert.equal(poller().waiting, 0, "the poller waits for nothing");
  assert.equal(reaper().watching, 0, "the reaper watches no child");
  const L = libc();
  assert.equal(L.symbols.waitpid(pty.pid, new Int32Array(1), C.WNOHANG), -1);
  assert.equal(L.errno(), C.ECHILD);
});

Deno.test("close() SIGKILLs a child that ignores SIGHUP, with its process group, after ~2 s", async () => {
  const pty = spawn("sh", [
    "-c",
    "trap '' HUP; echo READY; sleep 100; echo survived",
  ]);
  await readUntil(pty, "READY");
  const pending = pty.read(); // its poll() must end before the fd is closed
  const started = performance.now();
  const status = await pty.close();
  assert.equal(await pending, null);
  const elapsed = performance.now() - started;
  assert.deepEqual(status, { code: null, signal: 9 });
  assert.ok(
    elapsed >= 1900 && elapsed < 2500,
    `killed after ${elapsed.toFixed(0)} ms`,
  );
  // The `sleep` inherited the ignored SIGHUP; it must be gone too.
  for (let i = 0; i < 50 && liveMembersOfGroup(pty.pid).length > 0; i++) {
    await new Promise((ok) => setTimeout(ok, 20));
  }
  assert.deepEqual(liveMembersOfGroup(pty.pid), []);
});

Deno.test("output flood arrives completely, then read() returns null", async () => {
  const total = 20_000_000;
  const pty = spawn("sh", ["-c", `stty -opost; yes | head -c ${total}`]);
  let count = 0;
  let bad = -1;
  try {
    await withTimeout(
      (async () => {
        for (let c = await pty.read(); c; c = await pty.read()) {
          for (let i = 0; i < c.length && bad < 0; i++) {
            if (c[i] !== ((count + i) % 2 === 0 ? 0x79 : 0x0a)) bad = count + i;
          }
          count += c.length;
        }
      })(),
      "flood",
      60_000,
    );
  } finally {
    await pty.close();
  }
  assert.equal(count, total);
  assert.equal(bad, -1, `unexpected byte at ${bad}`);
  assert.deepEqual(await pty.exited, { code: 0, signal: null });
});

Deno.test("back-pressure: an unread pty blocks the child, and no data is lost", async () => {
  const total = 3_000_000;
  const pty = spawn("sh", [
    "-c",
    `stty -opost; yes | head -c ${total}; echo END`,
  ]);
  try {
    let exited = false;
    pty.exited.then(() => exited = true);
    await new Promise((ok) => setTimeout(ok, 700));
    assert.equal(exited, false, "the writer is blocked while nobody reads");
    const out = await readAll(pty);
    assert.equal(out.length, total + 4);
    assert.equal(decoder.decode(out.subarray(total)), "END\n");
    assert.deepEqual(await pty.exited, { code: 0, signal: null });
  } finally {
    await pty.close();
  }
});

Deno.test("a reader slower than the program still gives the event loop a turn every 256 KiB or so", async () => {
  // `yes` stays ahead of a reader that works 20 ms on each chunk (3 MB/s at
  // most), so a read always finds output waiting; timers must still run.
  const pty = spawn("sh", ["-c", "stty -opost; yes | head -c 6000000"]);
  let lastTick = performance.now();
  let maxGap = 0;
  let ticks = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    ticks++;
    maxGap = Math.max(maxGap, now - lastTick);
    lastTick = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  let total = 0;
  try {
    await withTimeout(
      (async () => {
        for (let c = await pty.read(); c; c = await pty.read()) {
          total += c.length;
          const until = performance.now() + 20;
          while (performance.now() < until) { /* work on the chunk */ }
        }
      })(),
      "flood",
      120_000,
    );
  } finally {
    ticking = false;
    await pty.close();
  }
  const elapsed = performance.now() - started;
  maxGap = Math.max(maxGap, performance.now() - lastTick);
  assert.equal(total, 6_000_000);
  assert.ok(elapsed > 1500, `the flood took ${elapsed.toFixed(0)} ms`);
  // About 4 chunks of 64 KiB (80 ms) between two turns; a third of the
  // flood leaves room for a loaded machine (1 s of 8 s seen). Without the
  // share: timers ran only while the program was still behind, then not
  // until the flood's end (a gap of 96-98% of it).
  assert.ok(
    maxGap < elapsed / 3,
    `timers waited up to ${maxGap.toFixed(0)} ms in a ${
      elapsed.toFixed(0)
    } ms flood (${ticks} ticks)`,
  );
});

Deno.test("60 PTYs read and exit at once: every output, exit code and signal arrives (SIGCHLDs that coalesce, one poller)", async () => {
  const n = 60;
  const ptys = Array.from({ length: n }, (_, i) =>
    spawn("sh", [
      "-c",
      i % 3 === 2 ? `echo out-${i}; kill -TERM $$` : `echo out-${i}; exit ${i}`,
    ]));
  try {
    const outs = await Promise.all(ptys.map((p) => readAll(p)));
    const statuses = await withTimeout(
      Promise.all(ptys.map((p) => p.exited)),
      "exits",
    );
    for (let i = 0; i < n; i++) {
      assert.equal(decoder.decode(outs[i]).trim(), `out-${i}`);
      assert.deepEqual(
        statuses[i],
        i % 3 === 2 ? { code: null, signal: 15 } : { code: i, signal: null },
        `pty ${i}`,
      );
    }
  } finally {
    await Promise.all(ptys.map((p) => p.close()));
  }
});
