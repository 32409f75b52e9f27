/**
 * Events from printed elements (docs/interactive.md): one delegated set of
 * listeners per terminal turns a click, toggle or change of an element
 * that a program printed with `data-dt-event` into an `element-event`
 * message for the server, which writes the program one line.
 *
 * An element is live when the fragment it is in (`.dt-embed`, whose
 * `data-dt-events` the painter sets from the model: client/embeds.ts) was
 * printed in the emulator's current events generation while the mode
 * ?7101 is on (core/emulator/element_events.ts), and the window is not
 * read-only. Everything else is inert: no message, and a stylesheet rule
 * of this terminal's (the only thing that changes when the mode or the
 * generation does: no element is visited) gives only the live ones the
 * pointer cursor.
 *
 * - `button`, `a`: click (an `a` never navigates; Ctrl+click still opens
 *   its href through client/links.ts);
 * - `details`: a click on its summary (mouse or keyboard) is a toggle,
 *   "open" or "closed": what the click makes of it. Opening by other
 *   means (a redraw, `open` set by an OSC 721 answer) sends nothing;
 * - `input` checkbox and radio: change, `checked`; `input` text: change,
 *   on Enter or when it loses focus, once per value; `select`: change.
 *
 * @module
 */
import type { ElementEventMessage } from "../core/protocol.ts";

/** What the listener reads of the page's emulator. */
export interface EventsTerm {
  readonly modes: { readonly elementEvents: boolean };
  readonly eventsGeneration: number;
}

/** Longest value sent (the server cuts the program's line to 4 KiB anyway). */
const MAX_VALUE = 8192;

/** Class of every terminal root that has the listener, numbered per root. */
let nextId = 1;

/** The delegated listener of one terminal. */
export class ElementEvents {
  #root: HTMLElement;
  #term: EventsTerm;
  #send: (msg: ElementEventMessage) => void;
  #readOnly = false;
  #style: HTMLStyleElement;
  #scope: string;
  /** The rule last written (to skip rewriting the same one). */
  #rule = "";
  /** Text inputs' values last sent. */
  #sent = new WeakMap<HTMLInputElement, string>();

  constructor(
    root: HTMLElement,
    term: EventsTerm,
    send: (msg: ElementEventMessage) => void,
  ) {
    this.#root = root;
    this.#term = term;
    this.#send = send;
    this.#scope = `dt-events-${nextId++}`;
    root.classList.add(this.#scope);
    this.#style = root.ownerDocument.createElement("style");
    root.ownerDocument.head.append(this.#style);
    // Capturing: client/links.ts stops a click on an embedded link there.
    root.addEventListener("click", this.#onClick, true);
    root.addEventListener("change", this.#onChange);
    root.addEventListener("keydown", this.#onKeyDown, true);
    this.update();
  }

  /** The window is a read-only share's: nothing is live. */
  setReadOnly(on: boolean): void {
    this.#readOnly = on;
    this.update();
  }

  /** The generation whose fragments are live now, or null. */
  #liveGeneration(): number | null {
    const t = this.#term;
    return t.modes.elementEvents && !this.#readOnly ? t.eventsGeneration : null;
  }

  /**
   * The mode or the generation may have changed: the pointer cursor goes
   * to the live elements only.
   */
  update(): void {
    const gen = this.#liveGeneration();
    const rule = gen === null
      ? ""
      : `.${this.#scope} .dt-embed[data-dt-events="${gen}"] ` +
        `:is(button, a, summary, input, select)[data-dt-event], ` +
        `.${this.#scope} .dt-embed[data-dt-events="${gen}"] ` +
        `details[data-dt-event] > summary { cursor: pointer; }`;
    if (rule !== this.#rule) this.#style.textContent = this.#rule = rule;
  }

  /** The fragment box of `el` if it is live, with its generation; else null. */
  #live(el: Element): number | null {
    const gen = this.#liveGeneration();
    const box = el.closest(".dt-embed") as HTMLElement | null;
    if (gen === null || box === null || !this.#root.contains(box)) return null;
    return box.dataset.dtEvents === String(gen) ? gen : null;
  }

  /** Send `event` of `el` (which carries data-dt-event) if it is live; true if sent. */
  #emit(
    el: Element,
    event: ElementEventMessage["event"],
    value: ElementEventMessage["value"],
  ): boolean {
    const generation = this.#live(el);
    const name = el.getAttribute("data-dt-event");
    if (generation === null || name === null) return false;
    const keyed = el.closest("[replace-key]");
    this.#send({
      type: "element-event",
      generation,
      name,
      key: keyed?.getAttribute("replace-key") ?? null,
      event,
      value: typeof value === "string" ? value.slice(0, MAX_VALUE) : value,
    });
    return true;
  }

  #onClick = (e: MouseEvent): void => {
    const target = e.target as Element | null;
    const hit = target?.closest?.("[data-dt-event], summary");
    if (!hit || !hit.closest(".dt-embed")) return;
    const tag = hit.localName;
    if (tag === "summary") {
      const details = hit.parentElement;
      if (
        details?.localName !== "details" ||
        !details.hasAttribute("data-dt-event") ||
        details.querySelector(":scope > summary") !== hit
      ) return;
      // The click toggles it after this listener: say what it becomes.
      const open = (details as HTMLDetailsElement).open;
      this.#emit(details, "toggle", open ? "closed" : "open");
    } else if (tag === "a") {
      e.preventDefault(); // never navigates the terminal page
      this.#emit(hit, "click", null);
    } else if (tag === "button") {
      this.#emit(hit, "click", null);
    }
  };

  #onChange = (e: Event): void => {
    const el = e.target as Element | null;
    if (!el?.hasAttribute?.("data-dt-event")) return;
    if (el instanceof HTMLSelectElement) {
      this.#emit(el, "change", el.value);
    } else if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox" || el.type === "radio") {
        this.#emit(el, "change", el.checked);
      } else if (el.type === "text") this.#text(el);
    }
  };

  #onKeyDown = (e: KeyboardEvent): void => {
    const el = e.target;
    if (
      e.key === "Enter" && el instanceof HTMLInputElement &&
      el.type === "text" && el.hasAttribute("data-dt-event")
    ) this.#text(el);
  };

  /** A text input's value, once per value (Enter, then its change event). */
  #text(el: HTMLInputElement): void {
    if (this.#sent.get(el) === el.value) return;
    if (this.#emit(el, "change", el.value)) this.#sent.set(el, el.value);
  }
}
