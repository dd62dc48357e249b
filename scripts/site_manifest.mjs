// site_manifest.mjs SITE_DIR — writes SITE_DIR/site-manifest.json, the one list of the page's files: every file the
// build put in SITE_DIR (but the example course pages and the manifest itself) with its bytes and SHA-256, and a
// build id made of them. Everything that needs the list reads this file: the service worker (what it caches, under
// a cache named by the build), a course package (src/app/lesson/course_package.cpp, the CLI and the page's "Download
// for an LMS"), the Python package (python/setup.py). Run after every other step of the web build
// (cmake/AttnplayWeb.cmake).
//
// The service worker and index.html are stamped with the build id (their `__ATTNPLAY_BUILD__`): a deploy changes the
// worker's bytes, so browsers install the new build's worker, and a page says which build it is, so the worker can
// serve all of a page's files from that one build. The id is made of every file as it is before the stamp (a
// stamped file counts with its placeholder), and each file's hash in the list is taken after the stamp. Run twice
// on the same folder, the script finds the last run's id (in the list it wrote), puts the placeholder back and
// stamps again: the id and the list come out the same.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const site = process.argv[2];
if (!site || !fs.statSync(site, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/site_manifest.mjs SITE_DIR');
  process.exit(2);
}
const MANIFEST = 'site-manifest.json';
const PLACEHOLDER = '__ATTNPLAY_BUILD__';
const STAMPED = ['attnplay-sw.js', 'index.html'];
const SKIPPED = (rel) => rel === MANIFEST || rel.startsWith('examples/');

function walk(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix + e.name;
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name), rel + '/'));
    else if (e.isFile() && !SKIPPED(rel)) out.push(rel);
  }
  return out;
}

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
const files = walk(site);
const manifestPath = path.join(site, MANIFEST);
const lastBuild = fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')).build : '';
// A stamped file as the build wrote it: with the placeholder, or with the last run's id put back to it.
const templates = new Map();
for (const rel of STAMPED.filter((f) => files.includes(f))) {
  const text = fs.readFileSync(path.join(site, rel), 'utf8');
  const template = text.includes(PLACEHOLDER) || !lastBuild ? text : text.replaceAll(lastBuild, PLACEHOLDER);
  if (!template.includes(PLACEHOLDER)) {
    console.error(`site_manifest: ${rel} has no ${PLACEHOLDER} to stamp`);
    process.exit(1);
  }
  templates.set(rel, template);
}
const bytesOf = (rel) => (templates.has(rel) ? Buffer.from(templates.get(rel)) : fs.readFileSync(path.join(site, rel)));
const build = sha256(files.map((f) => f + ' ' + sha256(bytesOf(f))).join('\n')).slice(0, 16);
for (const [rel, template] of templates) fs.writeFileSync(path.join(site, rel), template.replaceAll(PLACEHOLDER, build));
const entry = (rel) => {
  const bytes = fs.readFileSync(path.join(site, rel));
  return { path: rel, bytes: bytes.length, sha256: sha256(bytes) };
};
const list = files.map(entry);
const manifest = { format: 'attnplay-site', version: 1, build, files: list };
fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 1) + '\n');
const total = list.reduce((s, f) => s + f.bytes, 0);
console.log(`site_manifest: build ${build}, ${list.length} files, ${total} bytes`);
