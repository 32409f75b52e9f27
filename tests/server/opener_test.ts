/**
 * server/opener.ts: which links open with what (table-driven), a real fake
 * opener process receiving the URL, and the `open` message through a real
 * server, WebSocket and PTY session.
 */
import {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";
import {
  type OpenerOptions,
  openLink,
  planOpen,
  splitWords,
} from "../../server/opener.ts";
import { startServer } from "../../server/http.ts";
import { parseClientMessage } from "../../core/protocol.ts";
import type { OpenMessage } from "../../core/protocol.ts";
import { TestClient } from "./ws_client.ts";

const BASE: OpenerOptions = {
  systemOpener: "/bin/opener --flag",
  cwd: "/home/u/proj",
  log: () => {},
};

const PLANS: {
  name: string;
  msg: OpenMessage;
  options?: Partial<OpenerOptions>;
  want: string[] | "ignored";
}[] = [
  {
    name: "https goes to the system opener",
    msg: { type: "open", url: "https://example.com/a?b=1#c" },
    want: ["/bin/opener", "--flag", "https://example.com/a?b=1#c"],
  },
  {
    name: "http and mailto too",
    msg: { type: "open", url: "mailto:someone@example.com" },
    want: ["/bin/opener", "--flag", "mailto:someone@example.com"],
  },
  {
    name: "javascript: is ignored",
    msg: { type: "open", url: "javascript:alert(1)" },
    want: "ignored",
  },
  {
    name: "ftp and data: are ignored",
    msg: { type: "open", url: "data:text/html,<b>x" },
    want: "ignored",
  },
  {
    name: "not a URL is ignored",
    msg: { type: "open", url: "no scheme here" },
    want: "ignored",
  },
  {
    name: "file URL opens the decoded path with the system opener",
    msg: { type: "open", url: "file:///tmp/a%20b.txt" },
    want: ["/bin/opener", "--flag", "/tmp/a b.txt"],
  },
  {
    name: "file URL naming this machine (ls --hyperlink) opens",
    msg: { type: "open", url: "file://myhost/home/u/a.txt" },
    options: { hostname: "MyHost" },
    want: ["/bin/opener", "--flag", "/home/u/a.txt"],
  },
  {
    name: "file URL on another host is ignored",
    msg: { type: "open", url: "file://server/share/x" },
    options: { hostname: "myhost" },
    want: "ignored",
  },
  {
    name: "relative path with line and column through a template",
    msg: { type: "open", path: "src/main.ts", line: 12, column: 3 },
    options: { fileOpener: "code -g %f:%l:%c" },
    want: ["code", "-g", "/home/u/proj/src/main.ts:12:3"],
  },
  {
    name: "template without %f gets the path appended; %% is a percent",
    msg: { type: "open", path: "/etc/hosts" },
    options: { fileOpener: "'my editor' +%l 100%%" },
    want: ["my editor", "+1", "100%", "/etc/hosts"],
  },
  {
    name: "%u is the file URL",
    msg: { type: "open", path: "/tmp/x y" },
    options: { fileOpener: "open-url %u" },
    want: ["open-url", "file:///tmp/x%20y"],
  },
];

for (const c of PLANS) {
  Deno.test(`opener plan: ${c.name}`, () => {
    const plan = planOpen(c.msg, { ...BASE, ...c.options });
    if (c.want === "ignored") assert("ignored" in plan, JSON.stringify(plan));
    else assertEquals(plan, { argv: c.want });
  });
}

Deno.test("opener: splitWords quoting", () => {
  assertEquals(splitWords(`a "b c" 'd "e"' f\\ g ""`), [
    "a",
    "b c",
    'd "e"',
    "f g",
    "",
  ]);
});

Deno.test("protocol: open messages are validated", () => {
  assertEquals(
    parseClientMessage(JSON.stringify({ type: "open", url: "https://x/" })),
    { type: "open", url: "https://x/" },
  );
  assertEquals(
    parseClientMessage(
      JSON.stringify({ type: "open", path: "a.ts", line: 3, column: 0 }),
    ),
    { type: "open", path: "a.ts", line: 3 },
  );
  for (
    const bad of [
      { type: "open" },
      { type: "open", url: "x", path: "y" },
      { type: "open", url: 5 },
      { type: "open", url: "x".repeat(9000) },
    ]
  ) {
    assertEquals(typeof parseClientMessage(JSON.stringify(bad)), "string");
  }
});

/** A fake opener script that appends its arguments, one per line, to `out`. */
async function fakeOpener(dir: string, out: string): Promise<string> {
  const script = `${dir}/fake-opener`;
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${out}'; done\n`,
  );
  await Deno.chmod(script, 0o755);
  return script;
}

Deno.test("opener: runs the opener process with the URL; logs ignored schemes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/args`;
    const script = await fakeOpener(dir, out);
    const logs: string[] = [];
    const opts = { systemOpener: script, log: (m: string) => logs.push(m) };
    assertEquals(
      await openLink({ type: "open", url: "https://example.org/x" }, opts),
      0,
    );
    assertEquals(await Deno.readTextFile(out), "https://example.org/x\n");
    assertEquals(
      await openLink({ type: "open", url: "vbscript:msgbox" }, opts),
      null,
    );
    assert(logs.some((l) => l.includes("vbscript:")), logs.join("\n"));
    assertEquals(
      await openLink({ type: "open", url: "https://a/" }, {
        systemOpener: `${dir}/missing`,
        log: (m) => logs.push(m),
      }),
      null,
    );
    assert(logs.some((l) => l.includes("cannot run")), logs.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("opener: the open message through a real server and session", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/args`;
  const script = await fakeOpener(dir, out);
  const old = Deno.env.get("DOMTERM_OPENER");
  Deno.env.set("DOMTERM_OPENER", script);
  const server = startServer({
    command: "/bin/sh",
    args: ["-c", "echo ready; sleep 30"],
    assets: {},
    cwd: dir,
    fileOpener: `${script} --line=%l %f`,
    log: () => {},
  });
  const c = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: server.key, cols: 80, rows: 24 });
    await c.until(() => c.text.includes("ready"), "ready");
    c.send({ type: "open", url: "ftp://example.org/" });
    c.send({ type: "open", url: "https://example.org/hello" });
    c.send({ type: "open", path: "notes.txt", line: 7, column: 2 });
    const deadline = Date.now() + 10_000;
    let text = "";
    while (Date.now() < deadline) {
      text = await Deno.readTextFile(out).catch(() => "");
      if (text.split("\n").length >= 4) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const lines = text.trim().split("\n").sort();
    assertEquals(
      lines,
      [
        `${await Deno.realPath(dir)}/notes.txt`,
        "--line=7",
        "https://example.org/hello",
      ].sort(),
    );
    assertEquals(c.messages.filter((m) => m.type === "error"), []);
  } finally {
    c.ws.close();
    await c.closed;
    await server.shutdown();
    if (old === undefined) Deno.env.delete("DOMTERM_OPENER");
    else Deno.env.set("DOMTERM_OPENER", old);
    await Deno.remove(dir, { recursive: true });
  }
});
