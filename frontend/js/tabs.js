// The small-screen table: board, then the action bar, then one panel at a time behind tabs
// (heroes, log, dice, chat). On a large screen the tab bar is hidden and every panel shows;
// css/app.css does the layout, this only says which panel a small screen shows.
import { h } from "./ui.js";

/**
 * @param {HTMLElement} page the element whose `data-tab` the stylesheet reads
 * @param {{id: string, label: string, el: HTMLElement}[]} tabs
 */
export function tabBar(page, tabs) {
  const buttons = tabs.map((tab, i) =>
    h(
      "button.tab",
      {
        type: "button",
        role: "tab",
        id: `tab-${tab.id}`,
        "aria-controls": tab.el.id || null,
        "aria-selected": i === 0 ? "true" : "false",
        dataset: { tab: tab.id },
        onclick: () => show(tab.id),
      },
      tab.label,
    ),
  );
  const bar = h("div#phone-tabs.phone-tabs", { role: "tablist", "aria-label": "Table panels" }, buttons);
  const show = (id) => {
    page.dataset.tab = id;
    for (const b of buttons) b.setAttribute("aria-selected", b.dataset.tab === id ? "true" : "false");
  };
  for (const tab of tabs) tab.el.dataset.tabPanel = tab.id;
  show(tabs[0].id);
  return { bar, show };
}
