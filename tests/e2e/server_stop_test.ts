/**
 * A server stopped by a signal says so in every window: the exit notice
 * names the server's stop, not the signal the program died of.
 */
import { startDomterm, waitForRow } from "./domterm.ts";

Deno.test("e2e server stop: SIGTERM to the server is said in the window", async () => {
  const t = await startDomterm(["sh", "-c", "echo STOP-READY; exec sleep 60"]);
  try {
    await waitForRow(t.page, "STOP-READY");
    t.child.kill("SIGTERM");
    await t.page.waitForFunction(
      () =>
        document.body.innerText.includes(
          "Process ended: the domterm server was stopped (SIGTERM)",
        ),
      undefined,
      { timeout: 15_000 },
    );
  } finally {
    await t.close();
  }
});

Deno.test("e2e server stop: after SIGKILL of the server the window says it is gone, not 'reconnecting' forever", async () => {
  const t = await startDomterm(["sh", "-c", "echo KILL-READY; exec sleep 60"]);
  try {
    await waitForRow(t.page, "KILL-READY");
    t.child.kill("SIGKILL");
    await t.child.status;
    // Three refused sockets in a row (about 2 s of back-off).
    await t.page.waitForFunction(
      () => {
        const s = document.querySelector(".dt-status:not([hidden])");
        return s?.textContent?.startsWith("The domterm server is gone") &&
          s.textContent.includes("Run `domterm` to start it again");
      },
      undefined,
      { timeout: 15_000 },
    );
  } finally {
    await t.close();
  }
});
