// 囚犯游戏's interrogation room: live lines by server-sent events (api/live), a line sent as the relay's.
"use strict";
(() => {
  const { el, call, left, fmt } = Web;
  const $ = id => document.getElementById(id);
  let view = null;

  function lines(list) {
    const chat = $("chat");
    const atEnd = chat.scrollTop + chat.clientHeight >= chat.scrollHeight - 20;
    chat.replaceChildren(...list.map(l => el("li", { class: l.mine ? "mine" : "" },
      el("span", { class: "head" }, el("span", { class: "who", text: l.who + (l.mine ? "（我）" : "") }),
        el("time", { class: "at", datetime: l.at, title: l.when, text: l.time })),
      l.text)));
    if (!list.length) chat.append(el("li", { class: "empty", text: "还没有人说话。" }));
    if (atEnd) chat.scrollTop = chat.scrollHeight;
  }

  function show(v) {
    view = v;
    Web.setClock(v.now);
    Web.header(v);
    Web.recent(v);
    const pg = v.page;
    if (!pg) return;
    $("identity").textContent = pg.identity;
    $("room-title").textContent = pg.night ? `第${pg.night}夜审讯室` + (pg.me ? `（我是${pg.me}）` : "") : "审讯室";
    $("room-state").textContent = pg.state;
    $("say").disabled = $("send").disabled = !pg.open;
    $("say").placeholder = pg.placeholder;
    $("say-form").classList.toggle("closed", !pg.open);
    lines(pg.lines);
  }

  $("say-form").addEventListener("submit", async e => {
    e.preventDefault();
    const text = $("say").value.trim();
    if (!text) return;
    $("send").disabled = true;
    const r = await call("POST", "api/act", { word: "", rest: text });
    $("send").disabled = false;
    if (r.ok) { $("say").value = ""; $("answer").textContent = ""; } else Web.answer(r.replies || [r.error], false);
    if (r.view) show(r.view);
  });

  async function load() {
    const r = await call("GET", "api/view");
    if (r.ok === false) { Web.answer([r.error], false); return; }
    show(r);
  }
  load().then(() => {
    const es = new EventSource("api/live");
    es.onmessage = ev => {
      const d = JSON.parse(ev.data);
      lines(d.lines);
      if (view && (d.status !== view.status || d.phase !== view.phase)) load();
    };
  });
  setInterval(() => { if (view) $("deadline").textContent = view.deadline ? fmt(left(view.deadline)) : "—"; }, 1000);
  setInterval(load, 20000);
})();
