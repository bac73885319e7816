// The page's router: #/ lobby, #/table/ID?token=T a seat, #/watch/ID spectators, #/replay/ID.

import { mountLobby, parseTableRef } from "./lobby.js";
import { mountReplay } from "./replay.js";
import { mountRules } from "./rules_page.js";
import { mountTable } from "./table.js";

const app = document.getElementById("app");
let unmount = null;

function route() {
  // Links in other shapes (/?table=ID&token=T, /tables/ID?token=T) become hash routes.
  if (!location.hash || location.hash === "#") {
    const ref = /\/tables?\/[^/]+/.test(location.pathname) || new URLSearchParams(location.search).has("table")
      ? parseTableRef(location.href) : null;
    if (ref) {
      const hash = ref.token ? `#/table/${encodeURIComponent(ref.id)}?token=${encodeURIComponent(ref.token)}` : `#/watch/${encodeURIComponent(ref.id)}`;
      history.replaceState(null, "", `/${hash}`);
    }
  }
  // Links of the former one-family page (#/m/ID?token=T, #/r/ID?token=T) open the table here.
  const old = /^#\/[mr]\/([^?/]+)(\?token=.*)?$/.exec(location.hash);
  if (old) {
    history.replaceState(null, "", `/${old[2] ? `#/table/${old[1]}${old[2]}` : `#/watch/${old[1]}`}`);
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (unmount) { unmount(); unmount = null; }
  window.scrollTo(0, 0);
  document.body.dataset.page = parts[0] || "lobby";
  if (parts[0] === "table" && parts[1]) {
    unmount = mountTable(app, { tableId: parts[1], token: params.get("token") });
  } else if (parts[0] === "watch" && parts[1]) {
    unmount = mountTable(app, { tableId: parts[1], token: null });
  } else if (parts[0] === "replay" && parts[1]) {
    unmount = mountReplay(app, { tableId: parts[1], hand: params.get("hand") });
  } else if (parts[0] === "rules") {
    unmount = mountRules(app, { preset: parts[1] || null, tableId: params.get("table") });
  } else {
    document.body.dataset.page = "lobby";
    document.title = "Canasta";
    unmount = mountLobby(app);
  }
}

window.addEventListener("hashchange", route);
route();
