/**
 * `domterm hash-password`: from a pipe it hashes the first line; on a real
 * terminal (a PTY) it asks twice and echoes nothing of the password.
 */
import { assert, assertEquals, assertMatch } from "../../assert.ts";
import { Pty } from "../../../server/pty/pty.ts";
import {
  parsePasswordHash,
  verifyPassword,
} from "../../../server/remote/password.ts";

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;

async function piped(input: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "hash-password"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(input));
  await w.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

async function verifies(line: string, password: string): Promise<boolean> {
  const h = parsePasswordHash(line);
  assert(typeof h !== "string", `${h}: ${line}`);
  return await verifyPassword(password, h);
}

Deno.test("hash-password from a pipe: the first line's hash", async () => {
  const r = await piped("pipe secret\nsecond line\n");
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /^\$pbkdf2-sha256\$i=600000\$\S+\n$/);
  assert(await verifies(r.stdout, "pipe secret"));
  assert(!(await verifies(r.stdout, "second line")));
});

Deno.test("hash-password refuses an empty password", async () => {
  const r = await piped("\n");
  assertEquals(r.code, 1);
  assertMatch(r.stderr, /the password is empty/);
  assertEquals(r.stdout, "");
});

Deno.test("hash-password on a terminal: asked twice, never echoed", async () => {
  const pty = Pty.spawn({
    command: Deno.execPath(),
    args: ["run", "-A", MAIN, "hash-password"],
    cols: 100,
    rows: 24,
  });
  let text = "";
  const dec = new TextDecoder();
  const until = async (what: string | RegExp) => {
    const deadline = Date.now() + 30_000;
    const found = () =>
      typeof what === "string" ? text.includes(what) : what.test(text);
    while (!found()) {
      if (Date.now() > deadline) {
        throw new Error(`no ${what} in ${JSON.stringify(text)}`);
      }
      const chunk = await pty.read();
      if (chunk === null) {
        throw new Error(`EOF before ${what}: ${JSON.stringify(text)}`);
      }
      text += dec.decode(chunk, { stream: true });
    }
  };
  try {
    await until("Password: ");
    await pty.write("tty secret\r");
    await until("Again: ");
    await pty.write("tty secret\r");
    await until(/\$pbkdf2-sha256\$\S+\r?\n/);
    const line = /\$pbkdf2-sha256\$\S+/.exec(text)![0];
    assert(await verifies(line, "tty secret"));
    assert(!text.includes("tty secret"), `echoed: ${JSON.stringify(text)}`);
  } finally {
    const status = await pty.close();
    assertEquals(status.code, 0, JSON.stringify(text));
  }
});
