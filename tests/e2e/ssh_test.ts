/**
 * `domterm user@host` against a real sshd on 127.0.0.1 (tests/sshd.ts):
 * the "remote" and the "local" domterm servers both run on this machine,
 * each with its own runtime directory, and the local one reaches the
 * remote one only through ssh. In a real Chromium: typing into the remote
 * session; killing the ssh client while a counter prints, with sshd down
 * for a while (the window says the link is down), then reconnecting: every
 * line of the counter is there once; `domterm list` shows the host; a
 * missing remote domterm gives a message that says what to install.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { launchChromium } from "./chromium.ts";
import { openPage, spawnServer, waitForRow } from "./domterm.ts";
import { startSshd } from "../sshd.ts";
import { TEST_DENO_DIR } from "../runtime_dir.ts";
import { runDomterm as domterm } from "../run_domterm.ts";
import { request, type SessionInfo, socketPath } from "../../server/control.ts";
import type { Inspected } from "../../client/inspect.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Every line of the page's model (history and screen), trailing blanks trimmed. */
function pageLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const t = (globalThis as unknown as Inspected).domtermInspect.term;
    const out: string[] = [];
    for (let i = 0; i < t.buffer.length; i++) {
      const line = t.buffer.getLine(i);
      let s = "";
      for (let x = 0; x < t.cols; x++) s += line.text(x);
      out.push(s.trimEnd());
    }
    return out;
  });
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test({
  name: "ssh: a remote session over a real sshd",
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const sshd = await startSshd();
  const remoteDir = Deno.makeTempDirSync({ prefix: "domterm-ssh-remote-" });
  const localDir = Deno.makeTempDirSync({ prefix: "domterm-ssh-local-" });
  // sshd gives the remote command a fresh environment: the remote domterm
  // gets its runtime and state directories (journals: not the user's), and
  // this test's Deno cache, here.
  const remoteDomterm =
    `env DOMTERM_RUNTIME_DIR=${remoteDir} DOMTERM_SETTINGS=${remoteDir}/none.toml XDG_STATE_HOME=${remoteDir}/state DENO_DIR=${TEST_DENO_DIR} PS1='$ ' ${Deno.execPath()} run -A ${MAIN}`;
  const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
  const localEnv = {
    DOMTERM_SSH: sshd.ssh.join(" "),
    DOMTERM_RUNTIME_DIR: localDir,
    DOMTERM_SETTINGS: `${localDir}/none.toml`,
  };
  const { child, url } = await spawnServer(
    [
      "--remote-domterm",
      remoteDomterm,
      target,
      "--",
      "bash",
      "--norc",
      "--noprofile",
    ],
    localEnv,
  );
  const browser = await launchChromium();
  const localList = async (): Promise<SessionInfo[]> => {
    const res = await request(socketPath(localDir), { op: "list" });
    assert(res?.ok, `local list: ${res?.error}`);
    return res!.sessions!;
  };
  try {
    const page = await openPage(browser, url);

    await t.step("type into the remote session", async () => {
      await waitForRow(page, "$", 30_000);
      await page.keyboard.type("echo remote-$((6*7))");
      await page.keyboard.press("Enter");
      await waitForRow(page, "remote-42", 30_000);
      // It runs in the remote server, not the local one.
      const remote = await request(socketPath(remoteDir), { op: "list" });
      assertEquals(remote?.sessions?.length, 1);
      assertEquals(remote!.sessions![0].windows, 1);
      assertEquals(remote!.sessions![0].command, [
        "bash",
        "--norc",
        "--noprofile",
      ]);
      const local = await localList();
      assertEquals(local.length, 1);
      assertEquals(local[0].pid, remote!.sessions![0].pid);
    });

    await t.step(
      "domterm list shows the remote session and its host",
      async () => {
        const out = await domterm(["list"], localEnv);
        assertEquals(out.code, 0, out.stderr);
        const [head, row] = out.stdout.trim().split("\n");
        assert(/^#\s+HOST\s+NAME/.test(head), head);
        assert(row.includes(target), row);
        assert(row.includes("attached"), row);
        assert(row.includes("bash --norc --noprofile"), row);
      },
    );

    await t.step(
      "save, input-mode and settings of the remote session go to its host",
      async () => {
        const [info] = await localList();
        const id = String(info.id);
        const file = `${localDir}/saved.html`;
        const saved = await domterm(["save", id, file], localEnv);
        assertEquals(saved.code, 0, saved.stderr);
        const html = Deno.readTextFileSync(file);
        assert(html.includes("remote-42"), "the saved page holds the output");
        const mode = await domterm(["input-mode", "line", id], localEnv);
        assertEquals(mode.code, 0, mode.stderr);
        await waitFor(
          "the window in line mode",
          () =>
            page.evaluate(() =>
              (globalThis as unknown as Inspected).domtermInspect.inputMode ===
                "line"
            ),
        );
        const back = await domterm(["input-mode", "auto", id], localEnv);
        assertEquals(back.code, 0, back.stderr);
        const set = await domterm(
          ["settings", "--session", id, "colors.background=#203040"],
          localEnv,
        );
        assertEquals(set.code, 0, set.stderr);
        const shown = await domterm(["settings", "--session", id], localEnv);
        assertEquals(shown.code, 0, shown.stderr);
        assert(shown.stdout.includes("#203040"), shown.stdout);
      },
    );

    await t.step("a dropped ssh link loses and doubles nothing", async () => {
      const stop = `${remoteDir}/stop-counting`;
      await page.keyboard.type(
        `i=0; while [ ! -e ${stop} ]; do i=$((i+1)); echo n$i; sleep 0.05; done; echo counted-$i`,
      );
      await page.keyboard.press("Enter");
      await waitFor(
        "the counter",
        async () => (await pageLines(page)).includes("n20"),
      );
      // No new links for a while, then the one in use dies.
      await sshd.stop();
      const [info] = await localList();
      assertEquals(info.sshPids?.length, 1);
      Deno.kill(info.sshPids![0], "SIGKILL");
      await page.waitForFunction(
        (want) =>
          document.getElementById("status")?.hidden === false &&
          (document.getElementById("status")?.textContent ?? "").includes(
            want,
          ),
        `ssh link to ${target} down`,
        { timeout: 30_000 },
      );
      // The remote program goes on meanwhile: its output grows past what
      // the window has.
      const pageOffset = await page.evaluate(() =>
        (globalThis as unknown as Inspected).domtermInspect.position().offset
      );
      await waitFor("output during the drop", async () => {
        const snap = await request(socketPath(remoteDir), {
          op: "snapshot",
          session: info.remoteSession!,
        });
        return (snap?.offset ?? 0) > pageOffset + 200;
      });
      assert((await localList())[0].linkDown, "list says the link is down");
      await sshd.restart();
      await page.waitForFunction(
        () => document.getElementById("status")?.hidden === true,
        undefined,
        { timeout: 30_000 },
      );
      Deno.writeTextFileSync(stop, "");
      let lines: string[] = [];
      await waitFor("the end of the counter", async () => {
        lines = await pageLines(page);
        return lines.some((l) => /^counted-\d+$/.test(l));
      });
      const last = Number(
        lines.find((l) => /^counted-\d+$/.test(l))!.slice("counted-".length),
      );
      const counted = lines.filter((l) => /^n\d+$/.test(l)).map((l) =>
        Number(l.slice(1))
      );
      assert(last > 20, `counted to ${last}`);
      assertEquals(counted, Array.from({ length: last }, (_, i) => i + 1));
      // The same shell still answers.
      await page.keyboard.type("echo after-$((2+3))");
      await page.keyboard.press("Enter");
      await waitForRow(page, "after-5", 30_000);
    });

    await t.step("a reload reattaches to the same remote session", async () => {
      const before = (await localList())[0];
      await page.reload();
      await page.waitForFunction(() =>
        "domtermInspect" in globalThis &&
        (globalThis as unknown as Inspected).domtermInspect.connected
      );
      await waitForRow(page, "after-5", 30_000);
      await page.keyboard.type("echo reloaded-$((3+4))");
      await page.keyboard.press("Enter");
      await waitForRow(page, "reloaded-7", 30_000);
      const after = await localList();
      assertEquals(after.length, 1);
      assertEquals(after[0].pid, before.pid);
    });

    await t.step(
      "closing the last window hangs the remote program up",
      async () => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            MAIN,
            "--no-browser",
            "--remote-domterm",
            remoteDomterm,
            target,
            "--",
            "sleep",
            "1000",
          ],
          env: localEnv,
          stdin: "null",
        }).output();
        assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
        const second = new TextDecoder().decode(out.stdout).trim();
        assert(second.includes("&session="), second);
        const remote = await request(socketPath(remoteDir), { op: "list" });
        assertEquals(remote?.sessions?.length, 2);
        const other = await browser.newPage();
        await other.goto(second);
        await other.waitForFunction(() =>
          "domtermInspect" in globalThis &&
          (globalThis as unknown as Inspected).domtermInspect.connected
        );
        await other.close({ runBeforeUnload: true });
        await waitFor("the remote sleep to be hung up", async () => {
          const res = await request(socketPath(remoteDir), { op: "list" });
          return res?.sessions?.length === 1 &&
            res.sessions[0].command[0] === "bash";
        });
        await waitFor(
          "the local server to forget it",
          async () => (await localList()).length === 1,
        );
      },
    );

    await t.step("a missing remote domterm says what to install", async () => {
      const none = Deno.makeTempDirSync({ prefix: "domterm-ssh-none-" });
      const out = await domterm(
        ["--no-browser", "--remote-domterm", "/nonexistent/domterm", target],
        { DOMTERM_SSH: sshd.ssh.join(" "), DOMTERM_RUNTIME_DIR: none },
      );
      Deno.removeSync(none, { recursive: true });
      assertEquals(out.code, 1, out.stdout);
      assert(
        out.stderr.includes(`domterm is not installed on ${target}`),
        out.stderr,
      );
      assert(out.stderr.includes("--remote-domterm PATH"), out.stderr);
    });

    await t.step(
      "domterm kill ends the remote session and the local server",
      async () => {
        const [info] = await localList();
        const out = await domterm(["kill", String(info.id)], localEnv);
        assertEquals(out.code, 0, out.stderr);
        await waitFor("the remote session to end", async () => {
          const res = await request(socketPath(remoteDir), { op: "list" });
          return res === null || res.sessions?.length === 0;
        });
        // Its last session gone, the local server exits by itself.
        const status = await Promise.race([
          child.status,
          new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
        ]);
        assertEquals(status?.code, 0);
      },
    );
  } finally {
    await browser.close();
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    await request(socketPath(remoteDir), { op: "kill-server" });
    await waitFor(
      "the remote server to stop",
      async () =>
        await request(socketPath(remoteDir), { op: "info" }, 500) === null,
    );
    await sshd.close();
    for (const d of [remoteDir, localDir]) {
      await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  }
});
