// site_manifest.mjs SITE_DIR — writes SITE_DIR/site-manifest.json, the one list of the page's files: every file the
// build put in SITE_DIR (but the example course pages and the manifest itself) with its bytes and SHA-256, and a
// build id made of them. Everything that needs the list reads this file: the service worker (what it caches, under
// a cache named by the build), a course package (src/app/course_package.cpp, the CLI and the page's "Download for an
// LMS"), the Python package (python/setup.py). Run after every other step of the web build (cmake/AttnplayWeb.cmake).
//
// The service worker is stamped with the build id first (its `__ATTNPLAY_BUILD__`), so a deploy changes its bytes
// and browsers install the new build's worker; the id is therefore made of every other file, and the worker's own
// hash is taken after the stamp.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const site = process.argv[2];
if (!site || !fs.statSync(site, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/site_manifest.mjs SITE_DIR');
  process.exit(2);
}
const MANIFEST = 'site-manifest.json';
const WORKER = 'attnplay-sw.js';
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
const entry = (rel) => {
  const bytes = fs.readFileSync(path.join(site, rel));
  return { path: rel, bytes: bytes.length, sha256: sha256(bytes) };
};
const others = files.filter((f) => f !== WORKER).map(entry);
const build = sha256(others.map((f) => f.path + ' ' + f.sha256).join('\n')).slice(0, 16);
const workerPath = path.join(site, WORKER);
if (fs.existsSync(workerPath)) {
  const text = fs.readFileSync(workerPath, 'utf8');
  // A worker stamped by an earlier run of this script (no new copy since) carries that run's id: stamp it again.
  const old = fs.existsSync(path.join(site, MANIFEST)) ? JSON.parse(fs.readFileSync(path.join(site, MANIFEST), 'utf8')).build : '';
  const stamped = text.includes('__ATTNPLAY_BUILD__') ? text.replaceAll('__ATTNPLAY_BUILD__', build)
    : old && text.includes(`'${old}'`) ? text.replaceAll(`'${old}'`, `'${build}'`) : text;
  if (!stamped.includes(build)) {
    console.error(`site_manifest: ${WORKER} has no __ATTNPLAY_BUILD__ to stamp`);
    process.exit(1);
  }
  fs.writeFileSync(workerPath, stamped);
}
const list = files.map((f) => (f === WORKER ? entry(f) : others.find((o) => o.path === f)));
const manifest = { format: 'attnplay-site', version: 1, build, files: list };
fs.writeFileSync(path.join(site, MANIFEST), JSON.stringify(manifest, null, 1) + '\n');
const total = list.reduce((s, f) => s + f.bytes, 0);
console.log(`site_manifest: build ${build}, ${list.length} files, ${total} bytes`);
