// The script of report.html (inlined by reports/html.ts): charts, the case filter, and each case's
// details, rendered from the embedded JSON only when the case is opened. Text goes in through
// textContent only, never as HTML.
(() => {
  const data = JSON.parse(document.getElementById('hb-data').textContent);
  const chart = JSON.parse(document.getElementById('hb-chart').textContent);

  /** Creates an element with a class, text or children. */
  const el = (tag, className, content) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (typeof content === 'string') node.textContent = content;
    else if (Array.isArray(content)) for (const child of content) if (child) node.append(child);
    return node;
  };
  const pre = (text) => el('pre', '', text);

  if (typeof Chart !== 'undefined') {
    Chart.defaults.animation = false;
    const colors = { passed: '#1a7f37', failed: '#cf222e', errored: '#9a6700', skipped: '#0969da' };
    new Chart(document.getElementById('chart-status'), {
      type: 'bar',
      data: {
        labels: chart.configs,
        datasets: Object.keys(colors).map((k) => ({
          label: k,
          data: chart.counts.map((c) => c[k]),
          backgroundColor: colors[k],
        })),
      },
      options: {
        maintainAspectRatio: false,
        plugins: { title: { display: true, text: 'cases by status' } },
        scales: { x: { stacked: true }, y: { stacked: true } },
      },
    });
    const pct = (values) => values.map((v) => (v === null ? null : Math.round(v * 1000) / 10));
    new Chart(document.getElementById('chart-rates'), {
      type: 'bar',
      data: {
        labels: chart.configs,
        datasets: [
          { label: 'pass rate %', data: pct(chart.passRate), backgroundColor: '#1a7f37' },
          { label: 'attack success %', data: pct(chart.attackSuccess), backgroundColor: '#cf222e' },
          {
            label: 'utility, no attack %',
            data: pct(chart.utilityWithoutAttack),
            backgroundColor: '#0969da',
          },
          {
            label: 'utility, under attack %',
            data: pct(chart.utilityUnderAttack),
            backgroundColor: '#8250df',
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        plugins: { title: { display: true, text: 'rates (%)' } },
        scales: { y: { min: 0, max: 100 } },
      },
    });
    new Chart(document.getElementById('chart-usage'), {
      type: 'bar',
      data: {
        labels: chart.configs,
        datasets: [
          { label: 'tokens', data: chart.tokens, backgroundColor: '#57606a', yAxisID: 'y' },
          { label: 'tool calls', data: chart.toolCalls, backgroundColor: '#bf8700', yAxisID: 'y1' },
        ],
      },
      options: {
        maintainAspectRatio: false,
        plugins: { title: { display: true, text: 'usage' } },
        scales: { y: { position: 'left' }, y1: { position: 'right', grid: { drawOnChartArea: false } } },
      },
    });
  }

  /** The A/B decision diff: one row per step, one column per configuration. */
  const diffTable = (c) => {
    const names = data.configs.filter((n) => c.under[n]?.timeline);
    if (c.diff.length === 0 || names.length === 0)
      return el('p', 'dim', 'no tool calls under any configuration');
    const head = el('tr', '', [el('th', '', 'step'), ...names.map((n) => el('th', '', n))]);
    const rows = c.diff.map((row) =>
      el('tr', '', [
        el('td', '', String(row.step)),
        ...names.map((n) => {
          const cell = row.cells[n];
          const td = el('td', row.differs ? 'differs' : '');
          if (!cell) td.textContent = 'no call';
          else
            td.append(
              el('div', 'mono', `${cell.tool}(${cell.arguments})`),
              el('div', `verdict-${cell.verdict}`, `${cell.verdict} · rule ${cell.rule}`),
              el(
                'div',
                'dim',
                `${cell.executed ? 'executed' : 'not executed'}${cell.ok ? '' : ` · ${cell.errorType || 'error'}`}`,
              ),
            );
          return td;
        }),
      ]),
    );
    return el('table', 'ab-diff', [el('thead', '', [head]), el('tbody', '', rows)]);
  };

  /** One configuration's timeline: turns, the model text, calls with verdict, rule and result, stop reason. */
  const timeline = (u) => {
    const turns = (u.timeline || []).map((t) =>
      el('div', 'turn', [
        el(
          'div',
          '',
          `${t.scope ? `[${t.scope}] ` : ''}turn ${t.turn}${t.wrapUp ? ' (wrap-up)' : ''}: ${t.ok ? `finish ${t.finishReason ?? 'none'}, ${t.tokens} tokens` : `model error ${t.error}`}`,
        ),
        t.text ? pre(t.text) : null,
        ...t.calls.map((call) =>
          el('div', 'call', [
            el('div', 'mono', `${call.callId} ${call.tool}(${call.arguments})`),
            el(
              'div',
              `verdict-${call.verdict}`,
              `verdict ${call.verdict} · rule ${call.rule}${call.reason ? ` (${call.reason})` : ''} · ${call.executed ? 'executed' : 'not executed'} · ${call.ok ? 'ok' : call.errorType || 'error'}`,
            ),
            pre(call.result),
          ]),
        ),
      ]),
    );
    return el('div', '', [
      ...turns,
      el('div', '', `stop reason: ${u.stopReason ?? 'none'}${u.stopDetail ? ` (${u.stopDetail})` : ''}`),
    ]);
  };

  /** The transcript, rendered when its <details> opens. */
  const transcript = (u) => {
    const box = el('details', 'transcript', [
      el('summary', '', `transcript (${u.transcript.length} messages)`),
    ]);
    const body = el('div', 'transcript-body');
    box.append(body);
    box.addEventListener('toggle', () => {
      if (!box.open || body.childElementCount > 0) return;
      for (const m of u.transcript)
        body.append(
          el('div', 'msg', [
            el('span', 'role', `${m.role}${m.toolCallId ? ` → ${m.toolCallId}` : ''}`),
            m.content ? pre(m.content) : null,
            ...(m.toolCalls || []).map((t) => el('div', 'mono', `call ${t}`)),
          ]),
        );
    });
    return box;
  };

  const detail = (c) => {
    const parts = [el('div', 'dim', `${c.kind} · ${c.file}`)];
    const columns = data.configs
      .filter((n) => c.under[n])
      .map((n) => {
        const u = c.under[n];
        const box = el('div', 'under', [el('h4', '', `${n}: ${u.status}`)]);
        if (u.failed.length > 0)
          box.append(
            el(
              'ul',
              'failed',
              u.failed.map((f) => el('li', '', f)),
            ),
          );
        if (u.skip) box.append(el('p', 'dim', `skipped: ${u.skip}`));
        if (u.firstDiverging) box.append(el('p', '', `first diverging step: ${u.firstDiverging}`));
        if (u.recordingDivergence)
          box.append(el('p', '', `first divergence from the recording: ${u.recordingDivergence}`));
        if (u.status === 'fail' || u.status === 'error')
          box.append(el('div', '', 'reproduce:'), pre(u.repro));
        if (u.timeline) box.append(timeline(u));
        else if (!u.hasSidecar) box.append(el('p', 'dim', 'no transcript kept (run with --out DIR)'));
        if (u.transcript) box.append(transcript(u));
        return box;
      });
    parts.push(
      el('h4', '', 'A/B decision diff'),
      diffTable(c),
      el('h4', '', 'per configuration'),
      el('div', 'under-grid', columns),
    );
    return parts;
  };

  document.querySelector('table.cases').addEventListener('click', (event) => {
    const button = event.target.closest('button.case-id');
    if (!button) return;
    const row = document.querySelector(`tr.detail-row[data-index="${button.dataset.index}"]`);
    const box = row.querySelector('.detail');
    if (box.childElementCount === 0) box.append(...detail(data.cases[Number(button.dataset.index)]));
    row.hidden = !row.hidden;
  });

  const filter = document.getElementById('filter');
  const attention = document.getElementById('attention-only');
  const shown = document.getElementById('shown');
  const apply = () => {
    const text = filter.value.toLowerCase();
    let n = 0;
    for (const row of document.querySelectorAll('tr.case-row')) {
      const c = data.cases[Number(row.dataset.index)];
      const visible =
        c.id.toLowerCase().includes(text) && (!attention.checked || row.classList.contains('attention'));
      row.hidden = !visible;
      if (!visible) row.nextElementSibling.hidden = true;
      if (visible) n += 1;
    }
    shown.textContent = `${n} of ${data.cases.length} cases shown`;
  };
  filter.addEventListener('input', apply);
  attention.addEventListener('change', apply);
  apply();
})();
