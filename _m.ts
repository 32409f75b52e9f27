const rss = () => {
  const t = Deno.readTextFileSync("/proc/self/smaps_rollup");
  const kb = (n: string) => Number(new RegExp(`^${n}:\\s+(\\d+) kB`, "m").exec(t)![1]);
  return `rss ${(kb("Rss")/1024).toFixed(1)} MiB pss ${(kb("Pss")/1024).toFixed(1)} anon ${(kb("Anonymous")/1024).toFixed(1)}`;
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mode = Deno.args[0];
if (mode === "serve" || mode === "import+serve") Deno.serve({ port: 0, onListen() {} }, () => new Response("x"));
if (mode === "import" || mode === "import+serve") await import("./main.ts");
if (mode === "assets") await import("./static/gen/assets.ts");
if (mode === "a2") await import("./_a2.ts");
if (mode === "a3") await import("./_a3.ts");
await wait(2500);
const mu = Deno.memoryUsage(); console.log(mode.padEnd(14), rss(), "heapTotal", (mu.heapTotal/1048576).toFixed(1), "used", (mu.heapUsed/1048576).toFixed(1), "ext", (mu.external/1048576).toFixed(1));
Deno.exit(0);
