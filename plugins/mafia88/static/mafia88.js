// 88人场's post desk: the editor with the figures /完成 checks, the own posts, the hosts' desk.
"use strict";
(() => {
  const { el, call, left, fmt } = Web;
  const $ = id => document.getElementById(id);
  let view = null;
  let timer = null;

  async function act(word, rest, host) {
    const r = await call("POST", "api/act", { word, rest: rest || "", host: !!host });
    Web.answer(r.replies || [r.error || "没有回应。"], !!r.ok);
    if (r.view) show(r.view);
    return r;
  }

  function mode() { return $("rewrite").value.trim() ? "rewrite" : "new"; }

  async function measure() {
    const r = await call("POST", "api/x/measure", { text: $("text").value, mode: mode() });
    if (!r.ok) return;
    $("figures").textContent = r.line;
    $("problems").replaceChildren(...r.problems.map(p => el("li", { text: p })));
    if (!r.problems.length) $("figures").append(el("span", { class: "ok-line", text: "　可以交贴" }));
  }

  function show(v) {
    view = v;
    Web.setClock(v.now);
    Web.header(v);
    Web.recent(v);
    const pg = v.page;
    if (!pg) return;
    $("round").textContent = `第${pg.round}轮：每人 ${pg.votes} 票，票出 ${pg.out} 人，贴杀 ${pg.quota}。`;
    $("dues").replaceChildren(
      el("li", { text: `交贴截止：${pg.due.posts}` }), el("li", { text: `公布杀帖：${pg.due.publish}` }),
      el("li", { text: `投票截止：${pg.due.close}` }), el("li", { text: `白条 / 重写截止：${pg.due.white}` }));
    const sel = $("target");
    const keep = sel.value;
    sel.replaceChildren(...pg.players.map(p => el("option", { value: String(p.seat), text: p.name })));
    if (keep) sel.value = keep;
    const me = pg.me;
    $("editor-box").hidden = $("mine-box").hidden = $("role-box").hidden = !me;
    if (me) {
      $("role").textContent = me.role;
      $("duty").textContent = me.duty;
      $("draft").textContent = me.draft ? `草稿：→ ${me.draft.target}，已收 ${me.draft.chars} 字（交贴或撤稿）` : "";
      $("mine").replaceChildren(...me.posts.map(p => el("li", { "data-post": p.id },
        el("b", { text: `#${p.id} 第${p.round}轮 → ${p.target}：${p.status_name}` }),
        p.reason ? el("div", { class: "error", text: `退回理由：${p.reason}` }) : null,
        el("div", { class: "muted", text: p.figures }))));
      if (!me.posts.length) $("mine").append(el("li", { class: "muted", text: "你还没有交过杀帖。" }));
    }
    $("desk-box").hidden = !pg.desk;
    if (pg.desk) {
      $("desk").replaceChildren(...pg.desk.map(p => {
        const reason = el("input", { type: "text", maxlength: "200", placeholder: "退回理由" });
        return el("li", { "data-post": p.id },
          el("b", { text: `#${p.id} ${p.code}（${p.author}）→ ${p.target}｜${p.status_name}` }),
          el("div", { class: "muted", text: p.figures }),
          p.problems.length ? el("div", { class: "error", text: "不合要求：" + p.problems.join("；") }) : null,
          p.text ? el("details", {}, el("summary", { text: "正文" }), el("div", { class: "post-text", text: p.text })) : null,
          p.status === "pending" || p.status === "approved" ? el("div", { class: "row" },
            p.status === "pending" ? el("button", { class: "approve", onclick: () => act("通过", String(p.id), true), text: "通过" }) : null,
            reason, el("button", { class: "light reject", onclick: () => act("退回", `${p.id} ${reason.value}`.trim(), true), text: "退回" })) : null);
      }));
      if (!pg.desk.length) $("desk").append(el("li", { class: "muted", text: "本轮还没有杀帖。" }));
    }
  }

  $("text").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(measure, 300); });
  $("rewrite").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(measure, 300); });
  $("btn-submit").addEventListener("click", async () => {
    const text = $("text").value;
    if (!view || !view.page || !view.page.me) return;
    if (!view.page.me.draft) {
      const id = $("rewrite").value.trim();
      const first = id ? await act("重写", `${id} ${text}`) : await act("出贴", `${$("code").value.trim()} ${$("target").value} ${text}`);
      if (!first.ok) return;
    }
    const done = await act("完成");
    if (done.ok) { $("text").value = ""; $("rewrite").value = ""; measure(); }
  });
  $("btn-drop").addEventListener("click", () => act("撤稿"));
  $("btn-steps").addEventListener("click", async () => {
    const r = await call("POST", "api/act", { word: "结算", rest: "", host: true });
    $("steps").textContent = (r.replies || [r.error]).join("\n");
  });

  async function load() {
    const r = await call("GET", "api/view");
    if (r.ok === false) { Web.answer([r.error], false); return; }
    show(r);
  }
  load();
  setInterval(() => { if (view) $("deadline").textContent = view.deadline ? fmt(left(view.deadline)) : "—"; }, 1000);
  setInterval(load, 30000);
})();
