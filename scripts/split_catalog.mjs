// split_catalog.mjs — a web build's catalogs in parts (CMakeLists.txt runs it when it configures the web build):
// <lang>.json keeps what the page shows when it opens — including the lessons' titles and summaries (the picker)
// and what panels open at start say — <lang>.lessons.json gets the lessons' own texts (lesson.<id>.*, the larger
// half of a catalog) and <lang>.panels.json the texts of the panels a page opens closed (Learn, the worksheet, the
// builder, …). The page fetches the parts once its first view is drawn (web/site/attnplay-api.js). The main part
// names its parts under "_parts" (src/app/base/strings.cpp); a catalog without that key holds everything.
//
//   node scripts/split_catalog.mjs OUT_DIR LESSONS_DIR CATALOG.json...
import fs from 'node:fs';
import path from 'node:path';

const [outDir, lessonsDir, ...catalogs] = process.argv.slice(2);
if (!outDir || !lessonsDir || !catalogs.length) {
  console.error('usage: node scripts/split_catalog.mjs OUT_DIR LESSONS_DIR CATALOG.json...');
  process.exit(2);
}
const ids = fs.readdirSync(lessonsDir).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(lessonsDir, f), 'utf8')).id);
const isLessonText = (key) => ids.some((id) => key.startsWith(`lesson.${id}.`)) &&
  !key.endsWith('.title') && !key.endsWith('.summary');
// Panels closed when a page opens, by their keys' prefixes: the registry's (src/app/state/registry.h) as data/manifest.json
// holds it. Not the Share panel's: its status lines ("share.lms_failed", src/platform/web_api.cpp) and the builder's buttons use its
// texts with the panel closed. With the worksheet's, its "diagnosis." texts; not "worksheet.note.": the notes'
// worked examples are worded at start (src/core/exercise/worked_example.cpp).
const manifest = JSON.parse(fs.readFileSync(new URL('../data/manifest.json', import.meta.url), 'utf8'));
const KEPT_AT_START = new Set(['share']);
const CLOSED_PANELS = manifest.panels.filter((p) => !p.open && !KEPT_AT_START.has(p.id)).map((p) => p.id)
  .concat(['diagnosis']);
const isPanelText = (key) => CLOSED_PANELS.some((p) => key.startsWith(p + '.')) && !key.startsWith('worksheet.note.');

// English's first part names every other catalog with its name in itself ("lang.<tag>"), so the Language menu
// lists them before any is fetched (src/app/base/strings.cpp).
const languages = {};
for (const file of catalogs) {
  const tag = path.basename(file, '.json');
  if (tag !== 'en') languages[tag] = JSON.parse(fs.readFileSync(file, 'utf8'))[`lang.${tag}`] ?? tag;
}

fs.mkdirSync(outDir, { recursive: true });
// Written only when changed, so a re-configure does not rebuild what embeds them.
const write = (file, text) => {
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
};
for (const file of catalogs) {
  const lang = path.basename(file, '.json');
  const all = JSON.parse(fs.readFileSync(file, 'utf8'));
  const main = {}, lessons = {}, panels = {};
  for (const [key, text] of Object.entries(all)) (isLessonText(key) ? lessons : isPanelText(key) ? panels : main)[key] = text;
  main._parts = [`${lang}.lessons`, `${lang}.panels`];
  if (lang === 'en') main._languages = languages;
  write(path.join(outDir, `${lang}.json`), JSON.stringify(main) + '\n');
  write(path.join(outDir, `${lang}.lessons.json`), JSON.stringify(lessons) + '\n');
  write(path.join(outDir, `${lang}.panels.json`), JSON.stringify(panels) + '\n');
  console.log(`split_catalog: ${lang}: ${Object.keys(main).length - 1} texts first, ${Object.keys(lessons).length} ` +
    `with the lessons, ${Object.keys(panels).length} of closed panels`);
}
