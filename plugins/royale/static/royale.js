// 大逃杀's action page: shows the player's side (api/view) and sends night actions (api/act).
"use strict";
(() => {
  const { el, call, left, fmt } = Web;
  let view = null;
  let busy = false;
  const $ = id => document.getElementById(id);

  async function act(word, rest) {
    if (busy) return;
    busy = true;
    document.body.classList.add("busy");
    const r = await call("POST", "api/act", { word, rest: rest || "" });
    busy = false;
    document.body.classList.remove("busy");
    Web.answer(r.replies || [r.error || "没有回应。"], !!r.ok);
    if (r.view) show(r.view);
  }

  function running() { return view && view.status === "running" && view.page && view.page.me && view.page.me.alive; }

  function show(v) {
    view = v;
    Web.setClock(v.now);
    Web.header(v);
    Web.recent(v);
    const pg = v.page;
    if (!pg) return;
    $("weather").textContent = pg.weather;
    $("night").textContent = pg.night;
    $("closing").textContent = pg.closing.length ? pg.closing.join("、") : "无";
    const pick = $("place-pick");
    const keep = pick.value;
    pick.replaceChildren(...pg.places.map(p => el("option", { value: p, text: p })));
    if (pg.places.includes(keep)) pick.value = keep;
    const me = pg.me;
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
    const found = me.search;
    $("found").textContent = !found ? "上次搜索没有发现可拾取或可攻击的目标。"
      : found.kind === "item" ? `上次搜索发现了道具「${found.name}」。` : "上次搜索发现了一个人。";
    $("btn-attack").disabled = !running() || !found || found.kind !== "someone";
    $("btn-pickup").disabled = !running() || !found || found.kind !== "item";
    const bag = $("bag");
    bag.replaceChildren(...me.items.map(it => el("li", { "data-item": it.name },
      el("span", { class: "name", text: it.label }, it.slot ? el("span", { class: "tag on", text: "手上" }) : null),
      it.slot ? null : el("button", { class: "light", onclick: () => act("装备", it.name), text: "装备" }),
      ["weapon", "armour"].includes(it.kind) ? null
        : el("button", { onclick: () => act("使用", (it.name + " " + $("use-target").value).trim()), text: "使用" }),
      it.sellable ? el("button", { class: "light", onclick: () => act("出售", it.name), text: "出售" }) : null,
      el("button", { class: "light", onclick: () => act("丢弃", it.name), text: "丢弃" }))));
    if (!me.items.length) bag.append(el("li", { class: "muted", text: "背包是空的。" }));
    const scouts = me.items.filter(it => it.scout);
    $("scout").replaceChildren(...scouts.map(it => el("li", {},
      el("span", { class: "name", text: it.label }),
      el("button", { onclick: () => act("使用", (it.name + " " + $("use-target").value).trim()), text: "侦查（使用）" }))));
    if (!scouts.length) $("scout").append(el("li", { class: "muted", text: "没有侦查道具（雷达、定位器可在商店或搜索获得）。" }));
    $("shop").replaceChildren(...pg.shop.map(s => el("li", {},
      el("span", { class: "name", text: `${s.name}：${s.price} 货币（剩 ${s.left}）` }),
      el("button", { onclick: () => act("购买", s.name), text: "购买", disabled: s.left <= 0 || !running() }))));
    $("claims").textContent = me.claims ? "可领取：" + me.claims : "现在没有可领取的奖励。";
    for (const b of document.querySelectorAll("main button")) {
      if (!["btn-attack", "btn-pickup"].includes(b.id) && !b.closest("#shop")) b.disabled = !running();
    }
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
    $("search-wait").textContent = wait > 0 ? `还要等 ${wait} 秒才能再次搜索（两次搜索至少间隔 ${view.page.search_interval} 秒）` : "";
    btn.disabled = !running() || wait > 0;
    btn.textContent = wait > 0 ? `搜索（${wait}）` : "搜索";
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
