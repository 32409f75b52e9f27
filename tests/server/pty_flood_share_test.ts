/**
 * A flooding PTY program's session gets a smaller CPU share
 * (server/pty/flood_share.ts): its autogroup's nice goes to FLOOD_NICE
 * while it prints more than FLOOD_BYTES a window, back to 0 when it is
 * given input; a program that only echoes keeps 0. Real PTYs, real
 * programs, the kernel's /proc/PID/autogroup.
 */
import { assert, assertEquals } from "../assert.ts";
import { Pty } from "../../server/pty/pty.ts";
import { FLOOD_NICE, WINDOW_MS } from "../../server/pty/flood_share.ts";

function autogroupNice(pid: number): number | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/autogroup`);
    return Number(/nice (-?\d+)/.exec(text)![1]);
  } catch {
    return null; // no autogroups here
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test({
  name:
    "flood share: a flooding program's session is niced, back to 0 on input; an echoing one stays 0",
  ignore: autogroupNice(Deno.pid) === null,
  fn: async () => {
    const flood = Pty.spawn({ command: "yes", cols: 80, rows: 24 });
    const echo = Pty.spawn({
      command: "/bin/sh",
      args: ["-c", "stty -icanon; exec cat"],
      cols: 80,
      rows: 24,
    });
    const loop = async (p: Pty) => {
      for (;;) if (await p.read() === null) return;
    };
    const loops = [loop(flood), loop(echo)];
    try {
      assertEquals(autogroupNice(flood.pid), 0);
      const end = performance.now() + 20 * WINDOW_MS;
      while (
        autogroupNice(flood.pid) !== FLOOD_NICE && performance.now() < end
      ) {
        await echo.write("k");
        await sleep(50);
      }
      assertEquals(autogroupNice(flood.pid), FLOOD_NICE, "the flood's group");
      assertEquals(autogroupNice(echo.pid), 0, "the echoing program's group");
      // A key (here a Ctrl+S would do; any input) restores it at once.
      await flood.write("\n");
      assertEquals(autogroupNice(flood.pid), 0, "after input");
      // Still flooding: niced again after a window or two.
      const end2 = performance.now() + 20 * WINDOW_MS;
      while (
        autogroupNice(flood.pid) !== FLOOD_NICE && performance.now() < end2
      ) await sleep(50);
      assert(autogroupNice(flood.pid) === FLOOD_NICE, "niced again");
    } finally {
      flood.kill("SIGKILL");
      echo.kill("SIGKILL");
      await Promise.all([flood.close(), echo.close()]);
      await Promise.all(loops);
    }
  },
});
