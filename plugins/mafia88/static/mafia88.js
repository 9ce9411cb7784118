// 88人场's post desk: the editor with the figures /完成 checks, the own posts (重写 where one is due),
// the hosts' desk with each post's overlap with earlier texts.
"use strict";
(() => {
  const { el, call, left, fmt } = Web;
  const $ = id => document.getElementById(id);
  let view = null;
  let timer = null;
  let shownDraft = null; // the draft whose text the editor was filled with

  async function act(word, rest, host) {
    const r = await call("POST", "api/act", { word, rest: rest || "", host: !!host });
    Web.answer(r.replies || [r.error || "没有回应。"], !!r.ok);
    if (r.view) show(r.view);
    return r;
  }

  function me() { return view && view.page ? view.page.me : null; }
  function rewriting() { return $("rewrite").value.trim(); }

  async function measure() {
    const r = await call("POST", "api/x/measure", { text: $("text").value, mode: rewriting() ? "rewrite" : "new", post: rewriting() });
    if (!r.ok) return;
    $("figures").textContent = r.line;
    $("problems").replaceChildren(...r.problems.map(p => el("li", { text: p })));
    if (!r.problems.length) $("figures").append(el("span", { class: "ok-line", text: "　可以交贴" }));
  }
  function remeasure() { clearTimeout(timer); timer = setTimeout(measure, 300); }

  function startRewrite(p) {
    $("rewrite").value = String(p.id);
    editorMode();
    $("editor-box").scrollIntoView({ block: "start" });
    $("text").focus();
    measure();
  }

  function editorMode() {
    const m = me();
    const d = m && m.draft;
    const redo = d && d.mode === "rewrite" ? String(d.post) : rewriting();
    $("new-fields").hidden = !!redo;
    $("code").disabled = $("target").disabled = !!d;
    if (d && d.mode === "new") { $("code").value = d.code; $("target").value = String(d.target_seat); }
    $("editor-title").textContent = redo ? `重写 #${redo}` : "写杀帖";
    const line = redo ? `重写 #${redo}：${view.page.limits.rewrite_min} 字以上，写好后点「交贴」。` : (d ? `草稿：代号 ${d.code} → ${d.target}。改目标请先点「撤稿」。` : "");
    $("mode-line").textContent = line;
    $("mode-line").hidden = !line;
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
    const m = pg.me;
    $("editor-box").hidden = $("mine-box").hidden = $("role-box").hidden = !m;
    if (m) {
      const sel = $("target");
      const keep = sel.value;
      sel.replaceChildren(el("option", { value: "", text: "（选择目标）" }),
        ...m.targets.map(p => el("option", { value: String(p.seat), text: p.name })));
      sel.value = m.targets.some(p => String(p.seat) === keep) ? keep : "";
      if (!$("code").value && m.code) $("code").value = m.code;
      $("role").textContent = m.role;
      $("duty").textContent = m.duty;
      const d = m.draft;
      const key = d ? `${d.mode}:${d.post}:${d.target_seat}` : null;
      if (d && key !== shownDraft && !$("text").value.trim()) { $("text").value = d.text; measure(); }
      shownDraft = key;
      if (!d && rewriting() && !m.posts.some(p => p.redo && String(p.id) === rewriting())) $("rewrite").value = "";
      $("draft").textContent = d ? `草稿已存：${d.chars} 字。点「交贴」会交出编辑框里的全文。` : "";
      editorMode();
      $("mine").replaceChildren(...m.posts.map(p => el("li", { "data-post": p.id },
        el("b", { text: `#${p.id} 第${p.round}轮 → ${p.target}：${p.status_name}` }),
        p.reason ? el("div", { class: "error", text: `退回理由：${p.reason}` }) : null,
        p.redo ? el("div", { class: "error", text: `重写截止：${p.due}（${pg.limits.rewrite_min} 字以上）` }) : null,
        el("div", { class: "muted", text: p.figures }),
        p.redo ? el("div", { class: "row" }, el("button", { class: "rewrite", onclick: () => startRewrite(p), text: "重写" })) : null)));
      if (!m.posts.length) $("mine").append(el("li", { class: "muted", text: "你还没有交过杀帖。" }));
    }
    $("desk-box").hidden = !pg.desk;
    if (pg.desk) {
      $("desk").replaceChildren(...pg.desk.map(p => {
        const reason = el("input", { type: "text", maxlength: "200", placeholder: "退回理由" });
        return el("li", { "data-post": p.id },
          el("b", { text: `#${p.id} ${p.code}（${p.author}）→ ${p.target}｜${p.status_name}` }),
          el("div", { class: "muted", text: p.figures }),
          el("div", { class: p.flag ? "error overlap" : "muted overlap", text: p.overlap }),
          p.problems.length ? el("div", { class: "error", text: "不合要求：" + p.problems.join("；") }) : null,
          p.text ? el("details", {}, el("summary", { text: "正文" }), el("div", { class: "post-text", text: p.text })) : null,
          p.status === "pending" || p.status === "approved" ? el("div", { class: "row" },
            p.status === "pending" ? el("button", { class: "approve", onclick: () => act("通过", String(p.id), true), text: "通过" }) : null,
            reason, el("button", { class: "light reject", onclick: () => act("退回", `${p.id} ${reason.value}`.trim(), true), text: "退回" })) : null);
      }));
      if (!pg.desk.length) $("desk").append(el("li", { class: "muted", text: "本轮还没有杀帖。" }));
      const reps = pg.reports || [];
      $("reports-box").hidden = !reps.length;
      $("reports-head").textContent = `报道 ${reps.length} 份（疑似抄袭 ${reps.filter(x => x.flag).length} 份）`;
      $("reports").replaceChildren(...reps.map(x => el("li", { "data-report": x.n },
        el("b", { text: `报道${x.n} ${x.player}｜${x.ok ? "合格" : "不合格"}｜${x.chars} 字` }),
        el("div", { class: x.flag ? "error overlap" : "muted overlap", text: x.overlap }))));
    }
  }

  $("text").addEventListener("input", remeasure);
  $("btn-submit").addEventListener("click", async () => {
    const m = me();
    if (!m) return;
    const text = $("text").value;
    if (!m.draft) {
      const redo = rewriting();
      if (!redo && !$("target").value) { Web.answer(["请先选择目标，再点「交贴」。"], false); return; }
      const first = redo ? await act("重写", redo) : await act("出贴", `${$("code").value.trim()} ${$("target").value}`);
      if (!first.ok) return;
    }
    const done = await act("交贴", text);
    if (done.ok) { $("text").value = ""; $("rewrite").value = ""; shownDraft = null; editorMode(); measure(); }
  });
  $("btn-drop").addEventListener("click", async () => {
    const r = await act("撤稿");
    if (r.ok) { $("rewrite").value = ""; shownDraft = null; editorMode(); }
  });
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
