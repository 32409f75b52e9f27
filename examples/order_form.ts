/**
 * A small form in the terminal (docs/interactive.md): pick a drink with
 * buttons, set options with a checkbox, a select and a text input, then
 * Order. Each click or change comes to this program as an event line
 * (`@x/domterm/rich`'s `events()`); it answers by replacing the summary
 * (`replace`) and, on Order, prints the order and ends. `q` quits.
 *
 * Run it inside domterm: `deno run examples/order_form.ts`.
 *
 * @module
 */
import {
  disableEvents,
  display,
  enableEvents,
  escapeHtml,
  events,
  isDomterm,
  replace,
  setRawInput,
} from "../rich/mod.ts";

const order = { drink: "", sugar: false, size: "medium", name: "" };

/** The summary line, as HTML. */
function summary(): string {
  const what = order.drink === ""
    ? "nothing yet"
    : `${order.size} ${order.drink}` +
      (order.sugar ? " with sugar" : "");
  return `Your order: <b>${escapeHtml(what)}</b>` +
    (order.name ? ` for <i>${escapeHtml(order.name)}</i>` : "");
}

if (!isDomterm()) {
  console.error("order_form: run me inside domterm");
  Deno.exit(1);
}
enableEvents();
display(
  `<div class="order"><p>` +
    ["coffee", "tea", "water"].map((d) =>
      `<button data-dt-event="drink:${d}">${d}</button> `
    ).join("") +
    `</p><p><label><input type="checkbox" data-dt-event="sugar"> sugar</label> ` +
    `<select data-dt-event="size"><option>small</option>` +
    `<option selected>medium</option><option>large</option></select> ` +
    `name: <input type="text" data-dt-event="name" placeholder="and Enter"></p>` +
    `<p class="can-replace-children" replace-key="summary">${summary()}</p>` +
    `<p><button data-dt-event="order">Order</button></p></div>`,
);
console.log("q quits");
setRawInput(true);
try {
  for await (const e of events()) {
    if (e.event === "input") {
      // deno-lint-ignore no-control-regex
      if (/[qQ\x03\x04]/.test(e.text)) break;
      continue;
    }
    if (e.name.startsWith("drink:")) order.drink = e.name.slice(6);
    else if (e.name === "sugar") order.sugar = e.value === true;
    else if (e.name === "size") order.size = String(e.value);
    else if (e.name === "name") order.name = String(e.value);
    else if (e.name === "order" && order.drink !== "") {
      display(`<p>Ordered: ${summary().replace("Your order: ", "")}</p>`);
      break;
    }
    replace("summary", summary());
  }
} finally {
  setRawInput(false);
  disableEvents();
}
