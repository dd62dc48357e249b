// minify_js.mjs — the page's own scripts and Emscripten's attnplay.js, minified in place in the built site with
// terser (npm): the page's scripts carry long comments, which a phone would download (about 14 KB of the first
// view, gzipped). cmake/AttnplayWeb.cmake runs it on the copies in the site, never on web/site/.
//
//   node scripts/minify_js.mjs FILE.js...
import fs from 'node:fs';

let terser;
try {
  terser = await import('terser');
} catch (e) {
  console.error('minify_js: terser is missing (install the npm packages with scripts/deps.sh --npm): ' + e.message);
  process.exit(1);
}
for (const file of process.argv.slice(2)) {
  const source = fs.readFileSync(file, 'utf8');
  let out;
  try {
    // Names at the top level stay (the scripts share globals: Module, attnplay); inner names are shortened.
    out = await terser.minify(source, { compress: { passes: 2 }, mangle: true, toplevel: false, ecma: 2020 });
  } catch (e) {
    console.error(`minify_js: ${file} could not be minified: ${e.message}`);
    process.exit(1);
  }
  fs.writeFileSync(file, out.code + '\n');
}
