// 大逃杀's action page: shows the player's side (api/view) and sends night actions (api/act).
// What it offers follows the view's "can" flags (the bot's own checks); answers name the buttons.
"use strict";
(() => {
  const { el, call, left, fmt } = Web;
  let view = null;
  let busy = false;
  const $ = id => document.getElementById(id);

  // the bot's answers speak of chat commands: name the page's buttons instead (texts.py WEB_HINTS)
  function hint(text) {
    const hints = (view && view.page && view.page.hints) || [];
    for (const [pattern, name] of hints) text = text.replace(new RegExp(pattern, "g"), name);
    return text;
  }

  async function act(word, rest) {
    if (busy) return;
    busy = true;
    document.body.classList.add("busy");
    const r = await call("POST", "api/act", { word, rest: rest || "" });
    busy = false;
    document.body.classList.remove("busy");
    Web.answer((r.replies || [r.error || "没有回应。"]).map(hint), !!r.ok);
    if (r.view) show(r.view);
  }

  function running() { return view && view.status === "running" && view.page && view.page.me && view.page.me.alive; }
  function can(what) { return !!(running() && view.page.me.can[what]); }

  function button(text, word, rest, open, light) {
    return el("button", { class: light ? "light" : null, onclick: () => act(word, rest()), text, disabled: !open });
  }

  function show(v) {
    view = v;
    Web.setClock(v.now);
    Web.header(v);
    if (v.phase && v.phase === v.status_label) $("phase").textContent = v.status_label;  // "已结束" once
    Web.recent(v);
    const pg = v.page;
    if (!pg) return;
    $("weather").textContent = pg.weather;
    $("night").textContent = pg.night;
    $("closing-part").hidden = pg.over;
    $("closing").textContent = pg.closing.length ? pg.closing.join("、") : "无";
    const pick = $("place-pick");
    const keep = pick.value;
    pick.replaceChildren(...pg.places.map(p => el("option", { value: p, text: p })));
    if (pg.places.includes(keep)) pick.value = keep;
    const me = pg.me;
    for (const b of document.querySelectorAll("main button")) b.disabled = true;
    if (!me) return;
    $("hp").textContent = `${me.hp}/${pg.max_hp}`;
    $("st").textContent = `${me.st}/${pg.max_st}`;
    $("money").textContent = me.money;
    $("place").textContent = me.place || "未出生";
    const flags = [];
    if (!me.alive) flags.push("已出局");
    if (me.bleed) flags.push(`流血 ${me.bleed}/夜`);
    if (me.rest) flags.push("今晚静养");
    $("flags").replaceChildren(...flags.map(f => el("span", { class: "tag", text: f })));
    $("found").textContent = me.found;
    $("btn-birth").disabled = !can("birth");
    $("btn-move").disabled = !can("move");
    $("btn-rest").disabled = !can("rest");
    $("btn-rest-here").disabled = !can("rest");
    $("btn-attack").disabled = !can("attack");
    $("btn-pickup").disabled = !can("pickup");
    $("btn-claim").disabled = !can("claim");
    const target = () => $("use-target").value;
    const bag = $("bag");
    bag.replaceChildren(...me.items.map(it => el("li", { "data-item": it.name },
      el("span", { class: "name", text: it.label }, it.slot ? el("span", { class: "tag on", text: "手上" }) : null),
      it.slot ? null : button("装备", "装备", () => it.name, can("items"), true),
      it.usable ? button("使用", "使用", () => (it.name + " " + target()).trim(), can("items")) : null,
      it.sellable ? button("出售", "出售", () => it.name, can("sell"), true) : null,
      button("丢弃", "丢弃", () => it.name, can("items"), true))));
    if (!me.items.length) bag.append(el("li", { class: "muted", text: "背包是空的。" }));
    const scouts = me.items.filter(it => it.scout);
    $("scout").replaceChildren(...scouts.map(it => el("li", {},
      el("span", { class: "name", text: it.label }),
      it.usable ? button("侦查（使用）", "使用", () => (it.name + " " + target()).trim(), can("items"))
        : el("span", { class: "muted", text: "先在背包里点「装备」拿到手上" }))));
    if (!scouts.length) $("scout").append(el("li", { class: "muted", text: "没有侦查道具（雷达、定位器可在商店或搜索获得）。" }));
    $("shop").replaceChildren(...pg.shop.map(s => el("li", {},
      el("span", { class: "name", text: `${s.name}：${s.price} 货币（剩 ${s.left}）` }),
      button("购买", "购买", () => s.name, can("items") && !s.why),
      el("span", { class: "muted why", text: s.why }))));
    $("claims").textContent = hint(me.claims);
    tick();
  }

  function tick() {
    if (!view) return;
    $("deadline").textContent = view.deadline ? fmt(left(view.deadline)) : "—";
    const me = view.page && view.page.me;
    const btn = $("btn-search");
    if (!me) return;
    let wait = 0;
    if (me.search_at) {
      const until = new Date(new Date(me.search_at).getTime() + view.page.search_interval * 1000).toISOString();
      wait = left(until);
    }
    $("search-wait").textContent = wait > 0 && can("search") ? `还要等 ${wait} 秒才能再次搜索（两次搜索至少间隔 ${view.page.search_interval} 秒）` : "";
    btn.disabled = !can("search") || wait > 0;
    btn.textContent = wait > 0 && can("search") ? `搜索（${wait}）` : "搜索";
  }

  $("btn-birth").addEventListener("click", () => act("出生", $("place-pick").value));
  $("btn-move").addEventListener("click", () => act("移动", $("place-pick").value));
  $("btn-rest").addEventListener("click", () => act("静养", $("place-pick").value));
  $("btn-rest-here").addEventListener("click", () => act("静养", ""));
  $("btn-search").addEventListener("click", () => act("搜索", ""));
  $("btn-attack").addEventListener("click", () => act("攻击", ""));
  $("btn-pickup").addEventListener("click", () => act("拾取", ""));
  $("btn-claim").addEventListener("click", () => act("领取", $("claim-text").value));

  async function load() {
    const r = await call("GET", "api/view");
    if (r.ok === false) { Web.answer([r.error], false); return; }
    show(r);
  }
  load();
  setInterval(tick, 1000);
  setInterval(() => { if (!busy) load(); }, 15000);
})();
