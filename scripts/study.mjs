#!/usr/bin/env node
// study.mjs — runs a declared grid of `attnplay train` runs (tasks × d_k × init × optimiser × learning rates ×
// seeds, see data/studies/*.json), records every run, and writes the tables: for each model its best learning
// rate, steps to 90 % with their spread over the seeds, and the per-seed ratio unscaled ÷ scaled.
//
//   node scripts/study.mjs --grid data/studies/scaling.json [--out test-artifacts/study-scaling]
//        [--jobs 2] [--bin build/native/attnplay] [--nice 10] [--tables-only]
//
// Every run is `attnplay train … --scale both --stop-at <stop_at>`: model A divides q·k by √d_k, model B does
// not, both on the same batches from the same seed, and the run ends once both reach 90 % (accuracy averaged
// over 20 steps) or after max_steps. A model that does not get there is censored at max_steps: its steps are
// "> max_steps", never a number. runs.jsonl holds one line per run (its command, seed, CPU and wall time, steps
// to 90 %, final loss and accuracy, the accuracy curve at a few checkpoints); a run already in it is not
// repeated, so an interrupted study resumes where it stopped. cells.csv holds every configuration (each learning
// rate of each model), table.md the summary.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const gridFile = opt('--grid', 'data/studies/scaling.json');
const grid = JSON.parse(fs.readFileSync(gridFile, 'utf8'));
const bin = opt('--bin', 'build/native/attnplay');
const outDir = opt('--out', `test-artifacts/study-${grid.name}`);
const jobs = Math.max(1, Number(opt('--jobs', '2')));
const niceness = opt('--nice', '10');
const tablesOnly = args.includes('--tables-only');
const CHECKPOINTS = [100, 250, 500, 1000, 2000];

// ---- the grid -----------------------------------------------------------------------------------------------

function configurations() {
  const out = [];
  for (const [task, flags] of Object.entries(grid.tasks))
    for (const dk of grid.d_k)
      for (const init of grid.init)
        for (const [optimizer, lrs] of Object.entries(grid.optimizers))
          for (const lr of lrs)
            for (let seed = 1; seed <= grid.seeds; ++seed) out.push({ task, flags, dk, init, optimizer, lr, seed });
  return out;
}

function trainArgs(c) {
  return ['train', ...c.flags, '--d-k', String(c.dk), '--init', c.init, '--optimizer', c.optimizer, '--lr', String(c.lr),
          '--scale', 'both', '--steps', String(grid.max_steps), '--seed', String(c.seed), '--stop-at',
          String(grid.stop_at), '--quiet'];
}
const keyOf = (c) => `attnplay ${trainArgs(c).join(' ')}`;

// ---- running ------------------------------------------------------------------------------------------------

const haveTime = fs.existsSync('/usr/bin/time');

function mean(xs) { return xs.reduce((a, b) => a + b, 0) / xs.length; }

// Accuracy averaged over the 20 steps up to each checkpoint the run reached.
function curveSummary(curve) {
  const out = {};
  for (const at of CHECKPOINTS) {
    if (curve.length < at) break;
    out[at] = Number(mean(curve.slice(at - 20, at)).toFixed(4));
  }
  return out;
}

function runOne(c) {
  return new Promise((resolve, reject) => {
    const curves = path.join(os.tmpdir(), `study-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
    const a = [...trainArgs(c), '--json', curves];
    const cmd = haveTime ? ['/usr/bin/time', '-f', '%U %S', 'nice', '-n', niceness, bin, ...a]
                         : ['nice', '-n', niceness, bin, ...a];
    const t0 = Date.now();
    const p = spawn(cmd[0], cmd.slice(1));
    let stdout = '', stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status) => {
      if (status !== 0) return reject(new Error(`${keyOf(c)} failed (${status}): ${stderr.slice(-500)}`));
      const summary = JSON.parse(stdout);
      let curveJson = null;
      try { curveJson = JSON.parse(fs.readFileSync(curves, 'utf8')); } catch { /* summary only */ }
      fs.rmSync(curves, { force: true });
      const cpu = haveTime ? stderr.trim().split('\n').pop().split(' ').map(Number).reduce((x, y) => x + y, 0) : null;
      resolve({
        key: keyOf(c), task: c.task, d_k: c.dk, init: c.init, optimizer: c.optimizer, lr: c.lr, seed: c.seed,
        max_steps: grid.max_steps, steps_run: summary.steps, cpu_s: cpu, wall_s: (Date.now() - t0) / 1000,
        models: summary.models.map((m, w) => ({
          label: m.label, steps_to_90: m.steps_to_90, final_loss: m.final_loss, final_accuracy: m.final_accuracy,
          accuracy_at: curveJson ? curveSummary(curveJson.models[w].curves.accuracy) : {},
        })),
      });
    });
  });
}

async function runAll(todo, done, runsFile) {
  let next = 0, finished = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < todo.length) {
      const c = todo[next++];
      const r = await runOne(c);
      fs.appendFileSync(runsFile, JSON.stringify(r) + '\n');
      done.set(r.key, r);
      ++finished;
      const eta = ((Date.now() - started) / finished) * (todo.length - finished) / 60000;
      process.stderr.write(`[${finished}/${todo.length}, ~${eta.toFixed(0)} min left] ${c.task} d_k=${c.dk} ${c.init} ` +
                           `${c.optimizer} lr=${c.lr} seed=${c.seed}: A ${r.models[0].steps_to_90 ?? '—'}, ` +
                           `B ${r.models[1].steps_to_90 ?? '—'} (${r.steps_run} steps)\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, worker));
}

// ---- statistics (censored at max_steps) ---------------------------------------------------------------------

// Quantile by nearest rank over values where Infinity means "did not reach 90 % within max_steps".
function quantile(sorted, p) { return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]; }
const steps = (r, w) => r.models[w].steps_to_90 ?? Infinity;
const showSteps = (v, max) => (Number.isFinite(v) ? String(v) : `>${max}`);

function summarise(runs, w) {
  const s = runs.map((r) => steps(r, w)).sort((a, b) => a - b);
  return { n: s.length, reached: s.filter(Number.isFinite).length, median: quantile(s, 0.5), q1: quantile(s, 0.25),
           q3: quantile(s, 0.75), values: s };
}

// The learning rate a model does best with: most seeds reaching 90 %, then the fewest median steps.
function bestLr(byLr, w) {
  let best = null;
  for (const [lr, runs] of byLr) {
    const s = summarise(runs, w);
    if (!best || s.reached > best.s.reached || (s.reached === best.s.reached && s.median < best.s.median))
      best = { lr, s, runs };
  }
  return best;
}

// Per seed, B's steps ÷ A's steps (same seed, same batches). A censored side makes the ratio a bound.
function seedRatios(aRuns, bRuns, max) {
  const bySeed = new Map(bRuns.map((r) => [r.seed, r]));
  const out = [];
  for (const ra of aRuns) {
    const rb = bySeed.get(ra.seed);
    if (!rb) continue;
    const a = steps(ra, 0), b = steps(rb, 1);
    if (Number.isFinite(a) && Number.isFinite(b)) out.push({ v: b / a, kind: '=' });
    else if (Number.isFinite(a)) out.push({ v: max / a, kind: '>' });
    else if (Number.isFinite(b)) out.push({ v: b / max, kind: '<' });
    else out.push({ v: NaN, kind: '?' });
  }
  return out;
}

function showRatio(r) {
  if (r.kind === '?') return 'neither';
  return `${r.kind === '=' ? '' : r.kind}${r.v.toFixed(2)}`;
}

// ---- tables -------------------------------------------------------------------------------------------------

function tables(done) {
  const runs = [...done.values()];
  const max = grid.max_steps;
  const groups = new Map();
  for (const r of runs) {
    const g = `${r.task}|${r.d_k}|${r.init}|${r.optimizer}`;
    if (!groups.has(g)) groups.set(g, new Map());
    const byLr = groups.get(g);
    if (!byLr.has(r.lr)) byLr.set(r.lr, []);
    byLr.get(r.lr).push(r);
  }
  let csv = 'task,d_k,init,optimizer,lr,model,seeds,reached,median,q1,q3,steps_per_seed\n';
  let md = `# Study "${grid.name}"\n\n${grid.about}\n\nGrid (${gridFile}): tasks ${Object.keys(grid.tasks).join(', ')}; ` +
           `d_k ${grid.d_k.join(', ')}; init ${grid.init.join(', ')}; ` +
           Object.entries(grid.optimizers).map(([o, lrs]) => `${o} lr ${lrs.join(', ')}`).join('; ') +
           `; seeds 1–${grid.seeds}; at most ${max} steps, stopping once both reach ${grid.stop_at * 100} %.\n\n` +
           'Each model at its own best learning rate (most seeds reaching 90 %, then fewest median steps). Steps: median ' +
           '(for an even number of seeds the lower of the two middle values) ' +
           `[quartiles] over the seeds, ">${max}" where a model did not reach 90 % (censored); reached: seeds that got ` +
           'there. Per-seed ratio: B\'s steps ÷ A\'s for the same seed (same batches), each at its best rate; ">" marks ' +
           'a bound where B was censored, "<" where A was. A rate marked * is the smallest or largest swept: that ' +
           'model\'s best rate may lie beyond the grid.\n\n' +
           '| task | d_k | init | opt | A ÷√d_k: lr | A: steps [q1–q3] | A reached | B no scaling: lr | B: steps [q1–q3] | ' +
           'B reached | B slower in | per-seed B÷A: median (min–max) |\n' +
           '| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n';
  const keys = [...groups.keys()].sort((x, y) => {
    const [t1, d1, i1, o1] = x.split('|'), [t2, d2, i2, o2] = y.split('|');
    return t1.localeCompare(t2) || Number(d1) - Number(d2) || i1.localeCompare(i2) || o1.localeCompare(o2);
  });
  const rows = [];
  for (const g of keys) {
    const [task, dk, init, optimizer] = g.split('|');
    const byLr = new Map([...groups.get(g).entries()].sort((x, y) => x[0] - y[0]));
    for (const [lr, rs] of byLr)
      for (const w of [0, 1]) {
        const s = summarise(rs, w);
        csv += [task, dk, init, optimizer, lr, w === 0 ? 'A' : 'B', s.n, s.reached, showSteps(s.median, max),
                showSteps(s.q1, max), showSteps(s.q3, max),
                rs.slice().sort((x, y) => x.seed - y.seed).map((r) => showSteps(steps(r, w), max)).join(' ')].join(',') + '\n';
      }
    const A = bestLr(byLr, 0), B = bestLr(byLr, 1);
    // A best rate at either end of the swept ones may not be the model's best: marked with *.
    const rates = [...byLr.keys()];
    const lrText = (lr) => `${lr}${lr === rates[0] || lr === rates[rates.length - 1] ? '*' : ''}`;
    const ratios = seedRatios(A.runs, B.runs, max).filter((r) => r.kind !== '?').sort((x, y) => x.v - y.v);
    const slower = ratios.filter((r) => r.v > 1).length;
    const ratioText = ratios.length
      ? `${showRatio(quantile(ratios, 0.5))} (${showRatio(ratios[0])}–${showRatio(ratios[ratios.length - 1])})`
      : '—';
    const cellText = (s) => `${showSteps(s.median, max)} [${showSteps(s.q1, max)}–${showSteps(s.q3, max)}]`;
    md += `| ${task} | ${dk} | ${init} | ${optimizer} | ${lrText(A.lr)} | ${cellText(A.s)} | ${A.s.reached}/${A.s.n} | ${lrText(B.lr)} | ` +
          `${cellText(B.s)} | ${B.s.reached}/${B.s.n} | ${slower}/${ratios.length} | ${ratioText} |\n`;
    // The same row as data: the page's Learn panel shows data/study-results/<name>.json (a copy of this file),
    // and tests/source/study_tables.py checks docs/learn-mode.md's tables against it.
    const side = (best, s) => ({ lr: Number(best.lr), lr_at_edge: lrText(best.lr).endsWith('*'), median: showSteps(s.median, max),
      q1: showSteps(s.q1, max), q3: showSteps(s.q3, max), reached: s.reached, seeds: s.n });
    rows.push({ task, d_k: Number(dk), init, optimizer, a: side(A, A.s), b: side(B, B.s), b_slower: slower, paired: ratios.length,
      ratio: ratios.length ? { median: showRatio(quantile(ratios, 0.5)), min: showRatio(ratios[0]), max: showRatio(ratios[ratios.length - 1]) }
        : { median: '—', min: '—', max: '—' } });
  }
  const cpu = runs.reduce((a, r) => a + (r.cpu_s ?? 0), 0), wall = runs.reduce((a, r) => a + r.wall_s, 0);
  md += `\n${runs.length} runs; CPU time ${(cpu / 60).toFixed(1)} min (sum of the runs' wall times ` +
        `${(wall / 60).toFixed(1)} min). Every configuration, each learning rate of each model with every seed's steps: ` +
        'cells.csv beside this file.\n';
  const results = { study: grid.name, grid: gridFile, max_steps: max, stop_at: grid.stop_at, rows };
  return { md, csv, results };
}

// ---- main ---------------------------------------------------------------------------------------------------

fs.mkdirSync(outDir, { recursive: true });
const runsFile = path.join(outDir, 'runs.jsonl');
const done = new Map();
if (fs.existsSync(runsFile))
  for (const line of fs.readFileSync(runsFile, 'utf8').split('\n').filter(Boolean)) {
    try {
      const r = JSON.parse(line);
      done.set(r.key, r);
    } catch { /* a line cut by an interruption: that run is done again */ }
  }
const all = configurations();
const wanted = new Set(all.map(keyOf));
for (const k of [...done.keys()]) if (!wanted.has(k)) done.delete(k);  // runs of another grid in the same folder
// Only whole lines stay: a line cut by the interruption would swallow the next run appended to it.
fs.writeFileSync(runsFile, [...done.values()].map((r) => JSON.stringify(r) + '\n').join(''));
const todo = tablesOnly ? [] : all.filter((c) => !done.has(keyOf(c)));
process.stderr.write(`${all.length} runs in the grid, ${all.length - todo.length} already done, ${todo.length} to run ` +
                     `(${jobs} at a time)\n`);
await runAll(todo, done, runsFile);
const { md, csv, results } = tables(done);
fs.writeFileSync(path.join(outDir, 'table.md'), md);
fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify(results, null, 1) + '\n');
fs.writeFileSync(path.join(outDir, 'cells.csv'), csv);
process.stdout.write(md);
