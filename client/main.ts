/**
 * The page's entry: reads what to attach to (client/launch.ts), lays out
 * its terminals (index.html's `#terminal` is the first; `views=2` adds
 * more side by side), builds the window (client/window.ts) and its
 * inspector for tests (client/inspect.ts).
 *
 * @module
 */
import { installInspector } from "./inspect.ts";
import { readLaunch, viewStorage } from "./launch.ts";
import { DomtermWindow, type ViewSpec } from "./window.ts";

/** The terminals' elements: index.html's for the first, new ones beside it. */
function layout(doc: Document, count: number): ViewSpec["root"][] {
  const first = doc.getElementById("terminal");
  if (!first) throw new Error("index.html lacks #terminal");
  const roots = [first];
  if (count === 1) return roots;
  doc.body.style.display = "flex";
  for (let i = 1; i < count; i++) {
    const root = doc.createElement("div");
    root.setAttribute("role", "application");
    root.setAttribute("aria-label", `Terminal ${i + 1}`);
    root.style.height = "100%";
    root.style.borderLeft =
      "1px solid color-mix(in srgb, currentColor 30%, transparent)";
    roots[roots.length - 1].after(root);
    roots.push(root);
  }
  for (const root of roots) {
    root.style.flex = "1 1 0";
    root.style.minWidth = "0";
  }
  return roots;
}

function start(): void {
  const { key, sessions } = readLaunch();
  const roots = layout(document, sessions.length);
  const specs: ViewSpec[] = roots.map((root, i) => ({
    root,
    session: sessions[i],
    storage: viewStorage(i),
  }));
  // The first terminal keeps the page's own status elements.
  specs[0].status = document.getElementById("status") ?? undefined;
  specs[0].gridNote = document.getElementById("dt-grid-note") ?? undefined;
  installInspector(new DomtermWindow(document, key, specs));
}

start();
