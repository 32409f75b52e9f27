/**
 * Frames of the model for a page that falls behind (issue 39), end to end:
 * a real page whose CPU is throttled (CDP `Emulation.setCPUThrottlingRate`)
 * while bash floods it with lines, bells and OSC 52 clipboard writes. The
 * page cannot keep up, so the server feeds it snapshots instead of bytes:
 * it still ends on the right screen, every bell rang once and every
 * clipboard write came once, in order.
 */
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

const PROMPT = "PROMPT$";
const ENV = {
  PS1: `${PROMPT} `,
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
};
const ROUNDS = 12;

Deno.test("e2e frames: a throttled page fed frames ends on the right screen; bells and clipboard writes exactly once", async () => {
  const run = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
    env: ENV,
  });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    await page.evaluate(() => {
      // deno-lint-ignore no-explicit-any
      const g = globalThis as any;
      g.clips = [];
      Object.defineProperty(navigator, "clipboard", {
        value: {
          writeText: (t: string) => {
            g.clips.push(t);
            return Promise.resolve();
          },
        },
      });
    });
    await page.keyboard.type(
      `for i in $(seq 1 ${ROUNDS}); do seq 1 60000; printf '\\a\\e]52;c;%s\\a' $(printf clip-$i | base64); done; echo END-$((6*7))`,
    );
    const cdp = await page.context().newCDPSession(page);
    // The frames the page gets: snapshots and events while it is behind.
    const seen = { snapshot: 0, event: 0 };
    await cdp.send("Network.enable");
    cdp.on("Network.webSocketFrameReceived", (e) => {
      const data = e.response.payloadData;
      if (e.response.opcode !== 1) return;
      if (data.startsWith('{"type":"snapshot"')) seen.snapshot++;
      else if (data.startsWith('{"type":"event"')) seen.event++;
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await page.keyboard.press("Enter");
    await waitForRow(page, "END-42", 180_000);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await waitForRow(page, PROMPT, 30_000);
    // deno-lint-ignore no-explicit-any
    const clips = await page.evaluate(() => (globalThis as any).clips);
    assertEquals(
      clips,
      Array.from({ length: ROUNDS }, (_, i) => `clip-${i + 1}`),
    );
    const bells = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.bellCount
    );
    assertEquals(bells, ROUNDS);
    // It was fed frames (not every byte): resync snapshots, and events.
    assert(seen.snapshot >= 1 && seen.event >= 1, JSON.stringify(seen));
    // The screen: the end of the last round, then the marker and the prompt.
    const rows: string[] = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.screenText()
    );
    const text = rows.map((r) => r.trimEnd()).filter((r) => r !== "");
    const end = text.indexOf("END-42");
    assertEquals(text.slice(end - 3, end), ["59998", "59999", "60000"]);
  } finally {
    await run.close();
  }
});
