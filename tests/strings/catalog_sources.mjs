// catalog_sources.mjs — the sources against the string catalogs: every catalog key the code names
// exists in both languages, and no panel draws English text of its own (it would stay English in
// Hinglish). Run: node tests/strings/catalog_sources.mjs <repo>; exits 1 and lists what is wrong.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] || '.');
const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');
const list = (dir, re) => fs.readdirSync(path.join(root, dir)).filter((f) => re.test(f)).map((f) => path.join(dir, f));
// The same through every folder below `dir` (src/app is split into feature folders).
const listDeep = (dir, re) => fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? listDeep(path.join(dir, e.name), re) : re.test(e.name) ? [path.join(dir, e.name)] : []);
const catalogs = { en: JSON.parse(read('data/strings/en.json')), 'hi-Latn': JSON.parse(read('data/strings/hi-Latn.json')) };
const problems = [];

// String literals of a C++ or JavaScript source, with their line numbers.
function literals(text) {
  const out = [];
  const re = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g;
  for (const m of text.matchAll(re)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ value: m[1] ?? m[2], line, index: m.index });
  }
  return out;
}

// 1. Keys: a literal shaped like "<namespace>.<name>…" whose namespace the catalogs use.
const namespaces = new Set(Object.keys(catalogs.en).filter((k) => !k.startsWith('_')).map((k) => k.split('.')[0]));
// (state_json.cpp names JSON fields such as "cross.step" in developers' error messages.)
const sources = [...list('src/ui', /\.(cpp|h)$/),
  ...listDeep('src/app', /\.(cpp|h)$/).filter((f) => !f.endsWith('state_json.cpp')),
  ...list('src/platform', /\.cpp$/), ...list('web/site', /\.js$/)];
let keysSeen = 0;
for (const file of sources) {
  const text = read(file).replace(/^\s*\/\/.*$/gm, (c) => c.replace(/["']/g, ' '));  // comments quote freely
  for (const { value, line } of literals(text)) {
    if (!/^[a-z][a-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/.test(value) || !namespaces.has(value.split('.')[0])) continue;
    if (/\.(json|js|png|csv|cpp|h|txt)$/.test(value)) continue;  // file names
    keysSeen++;
    for (const [lang, cat] of Object.entries(catalogs))
      if (!(value in cat)) problems.push(`${file}:${line}: "${value}" is not in the ${lang} catalog`);
  }
}

// 2. Panels: no English words in the literals of calls that draw text.
const DRAWS = /\b(?:ImGui::(?:Text|TextWrapped|TextDisabled|TextColored|TextUnformatted|BulletText|LabelText|Button|SmallButton|Checkbox|RadioButton|Selectable|MenuItem|BeginMenu|BeginCombo|SliderInt|SliderFloat|DragFloat|DragInt|InputInt|InputFloat|InputDouble|InputText|InputTextWithHint|InputTextMultiline|SetTooltip|TableSetupColumn|CollapsingHeader|TreeNode|BeginTabItem|ProgressBar)|section_header|text_wrapped|badge|highlighted|tooltip|AddText)\s*\(/g;
// Notation that is the same in every language (formulas, function names, units of the math).
const NOTATION = new Set(['max', 'min', 'exp', 'log', 'tanh', 'softmax', 'concat', 'diag', 'Var', 'inf', 'NaN', 'sin',
  'cos']);
function callArgs(text, open) {  // the text between the call's parentheses (strings may hold parentheses)
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return '';
}
// Arguments of nested catalog look-ups (keys, placeholder names) and of track() (test ids) are not text.
function withoutLookups(args) {
  const re = /\b(?:tr|trf|label|tr_format|track)\s*\(/g;
  for (let m = re.exec(args); m; m = re.exec(args)) {
    const open = m.index + m[0].length - 1;
    const inner = callArgs(args, open);
    args = args.slice(0, open + 1) + args.slice(open + 1 + inner.length);
    re.lastIndex = open + 1;
  }
  return args;
}
let callsSeen = 0;
for (const file of list('src/ui', /\.cpp$/)) {
  const text = read(file);
  for (const m of text.matchAll(DRAWS)) {
    callsSeen++;
    const args = withoutLookups(callArgs(text, m.index + m[0].length - 1));
    const all = literals(args);
    if (m[0].startsWith('ImGui::TreeNode') && all.length > 1) all.shift();  // TreeNode(str_id, fmt, …)
    for (const { value } of all) {
      if (value.startsWith('#') || /^https?:\/\//.test(value)) continue;  // ImGui ids, example addresses
      const shown = value.split('##')[0];  // "text##id" / "text###id": the id is not drawn
      const words = shown.replace(/%[-+ #0]*\d*(\.\d+)?[a-zA-Z]/g, ' ').match(/[A-Za-z]{3,}/g) || [];
      const english = words.filter((w) => !NOTATION.has(w));
      if (english.length) {
        const line = text.slice(0, m.index).split('\n').length;
        problems.push(`${file}:${line}: draws the literal "${value}" — put it in data/strings/ and use ctx.tr()`);
      }
    }
  }
}

if (keysSeen < 100 || callsSeen < 100) problems.push(`suspiciously little found: ${keysSeen} keys, ${callsSeen} drawing calls`);
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`catalog sources: ${keysSeen} key uses in ${sources.length} files, ${callsSeen} drawing calls in src/ui: all fine`);
