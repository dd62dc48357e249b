#!/usr/bin/env node
// train_table.mjs — the README's Learn-mode table: steps until 90 % accuracy, ÷√d_k against no scaling, per d_k, median over seeds.
//
// Every cell is a run of `attnplay train` (models A = ÷√d_k and B = no scaling, same seed, same
// batches) with --stop-at 0.9: the run ends once both models' accuracy averaged over the last 20
// steps is ≥ 0.9, or after --steps. "Steps to 90 %" is the first step where that 20-step average
// reaches 0.9; a model that never gets there within the run counts as "not reached", and for it the
// table gives the loss (mean of the last 20 steps) after all the steps.
//
//   node scripts/train_table.mjs [--bin build/native/attnplay] [--seeds 5] [--d-k 4,16,64,256]
//        [--experiments induction,sort] [--out test-artifacts/train-table] [--nice 10]
//
// Runs one process at a time under `nice -n 10`; writes runs.jsonl (one line per run, resumable:
// runs already in the file are not repeated) and table.md to --out, and prints the table.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const bin = opt('--bin', 'build/native/attnplay');
const seeds = Number(opt('--seeds', '5'));
const dks = opt('--d-k', '4,16,64,256').split(',').map(Number);
const outDir = opt('--out', 'test-artifacts/train-table');
const niceness = opt('--nice', '10');

// The experiments: flags beyond the defaults of `attnplay train` (Adam, lr 1e-3, clip 1, batch 32,
// vocab 16, seq_len 16, d_model 64, unit init, learned positions, RMS pre-norm, no MLP).
const EXPERIMENTS = {
  induction: { flags: ['--task', 'induction', '--layers', '2', '--heads', '2', '--d-v', '32'], steps: 1000 },
  sort: { flags: ['--task', 'sort', '--layers', '1', '--heads', '2', '--d-v', '32'], steps: 1000 },
  'induction-small-init': {
    flags: ['--task', 'induction', '--layers', '2', '--heads', '2', '--d-v', '32', '--init', 'small'],
    steps: 1000,
  },
  'induction-sgd': {
    flags: ['--task', 'induction', '--layers', '2', '--heads', '2', '--d-v', '32', '--optimizer', 'sgd', '--lr', '0.3'],
    steps: 1000,
  },
};
const chosen = opt('--experiments', 'induction,sort').split(',');
for (const e of chosen) if (!EXPERIMENTS[e]) throw new Error(`unknown experiment ${e}: ${Object.keys(EXPERIMENTS)}`);

fs.mkdirSync(outDir, { recursive: true });
const runsFile = path.join(outDir, 'runs.jsonl');
const done = new Map();
if (fs.existsSync(runsFile))
  for (const line of fs.readFileSync(runsFile, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    done.set(r.key, r);
  }

const haveTime = fs.existsSync('/usr/bin/time');
let cpuTotal = 0;

function run(exp, dk, seed) {
  const e = EXPERIMENTS[exp];
  const key = `${exp} d_k=${dk} seed=${seed} steps=${e.steps}`;
  if (done.has(key)) return done.get(key);
  const trainArgs = ['train', ...e.flags, '--d-k', String(dk), '--scale', 'both', '--steps', String(e.steps),
    '--seed', String(seed), '--stop-at', '0.9', '--quiet'];
  const cmd = haveTime ? ['/usr/bin/time', '-f', '%U %S', 'nice', '-n', niceness, bin, ...trainArgs]
                       : ['nice', '-n', niceness, bin, ...trainArgs];
  const t0 = Date.now();
  const p = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (p.status !== 0) throw new Error(`${cmd.join(' ')} failed (${p.status}): ${p.stderr}`);
  const summary = JSON.parse(p.stdout);
  const cpu = haveTime ? p.stderr.trim().split('\n').pop().split(' ').map(Number).reduce((a, b) => a + b, 0) : NaN;
  const r = {
    key, experiment: exp, d_k: dk, seed, max_steps: e.steps, steps_run: summary.steps,
    command: `attnplay ${trainArgs.join(' ')}`, cpu_s: cpu, wall_s: (Date.now() - t0) / 1000,
    models: summary.models.map((m) => ({ label: m.label, steps_to_90: m.steps_to_90, final_loss: m.final_loss,
                                         final_accuracy: m.final_accuracy })),
  };
  fs.appendFileSync(runsFile, JSON.stringify(r) + '\n');
  done.set(key, r);
  process.stderr.write(`${key}: A ${r.models[0].steps_to_90 ?? '—'}, B ${r.models[1].steps_to_90 ?? '—'} ` +
                       `(${r.steps_run} steps, ${cpu.toFixed(1)} s CPU)\n`);
  return r;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// One cell: median steps over the seeds, a run that never reached 90 % counting as +∞; when the
// median is not reached, the median loss after the whole run of those seeds instead.
function cell(runs, w) {
  const steps = runs.map((r) => r.models[w].steps_to_90 ?? Infinity);
  const reached = steps.filter(Number.isFinite).length;
  const m = median(steps);
  if (Number.isFinite(m)) return { text: `${m} (${reached}/${runs.length})`, steps: m };
  const losses = runs.filter((r) => r.models[w].steps_to_90 === null).map((r) => r.models[w].final_loss);
  return { text: `not reached (${reached}/${runs.length}); loss ${median(losses).toFixed(3)} after ${runs[0].max_steps}`,
           steps: Infinity };
}

let md = '';
for (const exp of chosen) {
  const e = EXPERIMENTS[exp];
  md += `\n**${exp}** (\`attnplay train ${e.flags.join(' ')} --d-k D --scale both --steps ${e.steps} ` +
        `--seed S --stop-at 0.9\`, S = 1…${seeds}):\n\n`;
  md += '| d_k | ÷√d_k: steps to 90 % | no scaling: steps to 90 % | no scaling ÷ scaled |\n| ---: | ---: | ---: | ---: |\n';
  for (const dk of dks) {
    const runs = [];
    for (let s = 1; s <= seeds; ++s) runs.push(run(exp, dk, s));
    for (const r of runs) cpuTotal += Number.isFinite(r.cpu_s) ? r.cpu_s : 0;
    const a = cell(runs, 0), b = cell(runs, 1);
    const ratio = Number.isFinite(a.steps) && Number.isFinite(b.steps) ? `${(b.steps / a.steps).toFixed(2)}×`
                : Number.isFinite(a.steps) ? `> ${(e.steps / a.steps).toFixed(1)}×` : '—';
    md += `| ${dk} | ${a.text} | ${b.text} | ${ratio} |\n`;
  }
}
md += `\nCells: median over seeds of the steps until the 20-step mean accuracy reaches 90 % (in brackets: ` +
      `how many seeds got there). Total CPU time of these runs: ${(cpuTotal / 60).toFixed(1)} min.\n`;
fs.writeFileSync(path.join(outDir, 'table.md'), md);
process.stdout.write(md);
