/**
 * What a restored session runs (server/journal/restore.ts): a command that
 * is not a shell is shown and runs only on Enter (`restore.commands =
 * "ask"`, the default), or never (the shell starts instead, and the
 * divider names the command); the journal's own command stays the old one.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { journaledRegistry, until } from "./journal_helpers.ts";
import { restoreAtStart } from "../../server/journal/restore.ts";
import { SessionRegistry } from "../../server/session_registry.ts";
import { SettingsStore } from "../../server/settings/file.ts";
import { Terminal } from "../../core/emulator/terminal.ts";
import type { Session } from "../../server/session.ts";
import type { TerminalSnapshot } from "../../core/emulator/terminal.ts";

const COMMAND = ["/bin/sh", "-c", "echo ran-$((40+2)); exec cat"];

async function text(s: Session): Promise<string> {
  const snap = await s.snapshot();
  const t = Terminal.restore(JSON.parse(snap!.json) as TerminalSnapshot);
  const out: string[] = [];
  for (let i = 0; i < t.normalBuffer.length; i++) {
    out.push(t.normalBuffer.getLine(i).toString(true));
  }
  return out.join("\n");
}

/** A journal of COMMAND kept by a server that stopped; its root. */
async function stoppedJournal(): Promise<string> {
  const { registry, root } = journaledRegistry();
  const s = registry.create(COMMAND);
  await until(async () => (await text(s)).includes("ran-42"), 5000, "output");
  await new Promise((r) => setTimeout(r, 1200));
  await registry.closeAll("stop", {
    reason: "the server was stopped (SIGTERM)",
    auto: true,
  });
  return root;
}

function registryAt(root: string, commands: "ask" | "never"): SessionRegistry {
  const store = new SettingsStore(
    null,
    { "restore.commands": commands },
    () => {},
  );
  store.load();
  return new SessionRegistry({
    command: "/bin/sh",
    args: [],
    shellIntegration: false,
    journalRoot: root,
  }, store);
}

Deno.test("journal restore: another command is shown and runs on Enter", async () => {
  const root = await stoppedJournal();
  const reg = registryAt(root, "ask");
  const [s] = await restoreAtStart(reg, root, () => {});
  try {
    await until(
      async () => (await text(s)).includes("Press Enter to run:"),
      5000,
      "the prompt",
    );
    let t = await text(s);
    assertMatch(
      t,
      /── session restored: the server was stopped \(SIGTERM\) at \d\d:\d\d:\d\d ──/,
    );
    assert(
      t.includes(
        `Press Enter to run: /bin/sh -c 'echo ran-$((40+2)); exec cat'`,
      ),
      t,
    );
    assertEquals(t.match(/^ran-42$/gm)?.length, 1, "not run yet");
    // The restored session's journal records the old command, not the prompt's.
    assertEquals(reg.journal(s.id)!.meta.command, COMMAND);
    await s.input(new TextEncoder().encode("\n"));
    await until(
      async () => ((await text(s)).match(/^ran-42$/gm)?.length ?? 0) === 2,
      5000,
      "the command",
    );
    t = await text(s);
    assert(t.indexOf("── session restored") < t.lastIndexOf("ran-42"), t);
  } finally {
    await reg.closeAll();
  }
});

Deno.test("journal restore: restore.commands = never starts the shell instead", async () => {
  const root = await stoppedJournal();
  const reg = registryAt(root, "never");
  const [s] = await restoreAtStart(reg, root, () => {});
  try {
    assertEquals(s.command, ["/bin/sh"]);
    // (The divider is longer than the 80 columns: it wraps.)
    const t = (await text(s)).replace(/\n/g, "");
    assert(
      t.includes(`(not run again: /bin/sh -c 'echo ran-$((40+2)); exec cat')`),
      t,
    );
    await s.input(new TextEncoder().encode("echo shell-$((6*7))\n"));
    await until(
      async () => (await text(s)).includes("shell-42"),
      5000,
      "the shell",
    );
  } finally {
    await reg.closeAll();
  }
});
