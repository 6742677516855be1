// Static checks of the phone page's assets against WEB-CONTRACT.md: shape of the mode modules, no HTML insertion,
// no inline script or style, nothing from another origin, and the weight limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Sources', 'Host', 'Web');
const files = readdirSync(web);
const MODES = ['shaky', 'queen', 'words', 'fly', 'outsider', 'hunt'];

// What a page loads: its own file, the scripts and styles it links, every module they import and every style sheet
// a module adds ('/x.css'), transitively.
function loaded(page) {
  const seen = new Set([page]);
  const queue = [page];
  while (queue.length) {
    const text = readFileSync(join(web, queue.shift()), 'utf8');
    const refs = [
      ...text.matchAll(/(?:src|href)="\/?([\w.-]+\.(?:js|css))"|from '\.\/([\w.-]+\.js)'|'\/([\w.-]+\.css)'/g),
    ];
    for (const m of refs) {
      const f = m[1] ?? m[2] ?? m[3];
      if (!seen.has(f)) { seen.add(f); queue.push(f); }
    }
  }
  return seen;
}

const weight = (names) => [...names].reduce((sum, f) => sum + statSync(join(web, f)).size, 0);

test('the assets are flat files; the phone page weighs at most 150 KiB and the board editor 48 KiB (style.css included)', () => {
  for (const f of files) assert.ok(statSync(join(web, f)).isFile(), `${f} is a file`);
  const phone = loaded('index.html');
  const editor = loaded('edit.html');
  for (const f of ['index.html', 'style.css', 'app.js', 'delta.js', 'clock.js', 'ui.js', 'sound.js']) {
    assert.ok(phone.has(f), `the phone page loads ${f}`);
  }
  assert.ok(weight(phone) <= 150 * 1024, `the phone page: ${weight(phone)} bytes`);
  assert.ok(weight(editor) <= 48 * 1024, `the board editor: ${weight(editor)} bytes`);
  const unused = files.filter((f) => !phone.has(f) && !editor.has(f));
  assert.deepEqual(unused, [], 'every asset is loaded by a page');
});

// The house check (the before-stop hook sums `git ls-files 'Sources/*.html' 'Sources/*.js' 'Sources/*.css'
// 'Sources/*.mjs'`): every such file under Sources, whichever page loads it or none, counts.
test('every html, js, css and mjs file under Sources weighs at most 150 KiB in all', () => {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const counted = walk(join(web, '..', '..')).filter((f) => /\.(html|js|css|mjs)$/.test(f));
  assert.ok(counted.some((f) => f.endsWith('app.js')), 'the walk finds the page');
  const total = counted.reduce((sum, f) => sum + statSync(f).size, 0);
  assert.ok(total <= 150 * 1024, `html/js/css/mjs under Sources: ${total} bytes (the limit is ${150 * 1024})`);
});

test('every mode has its file, with the contract shape and its wire name', async () => {
  for (const name of MODES) {
    const file = `mode-${name}.js`;
    assert.ok(files.includes(file), file);
    const mod = (await import(join(web, file))).default;
    assert.equal(mod.name, name);
    assert.equal(typeof mod.title, 'string');
    assert.equal(typeof mod.create, 'function');
  }
  const app = readFileSync(join(web, 'app.js'), 'utf8');
  for (const name of MODES) assert.match(app, new RegExp(`import ${name} from './mode-${name}\\.js'`));
  assert.match(app, /from '\.\/sound\.js'/);
});

test('the header has one mute switch, a real button with aria-pressed, and the board its "tap to enable sound"', () => {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  assert.equal(html.match(/<button id="mute" type="button"[^>]*aria-pressed="false"/g)?.length, 1);
  assert.ok(html.indexOf('id="mute"') < html.indexOf('</header>'), 'in the header');
  assert.match(html, /<button id="sound-on" type="button"[^>]*hidden>Tap to enable sound<\/button>/);
});

test('no script inserts HTML or evaluates text, and nothing loads from another origin', () => {
  for (const f of files) {
    const text = readFileSync(join(web, f), 'utf8');
    const code = text.replace(/^\s*\/\/.*$/gm, '');
    for (const bad of ['innerHTML', 'outerHTML =', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function',
      "setAttribute('style'", 'srcdoc', '@import', 'url(http']) {
      assert.ok(!code.includes(bad), `${f} uses ${bad}`);
    }
    assert.ok(!/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(code), `${f} names another origin`);
  }
});

test('index.html has no inline script, style or handler, loads the module and the sheet, and allows zoom', () => {
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  assert.match(html, /<script type="module" src="\/app\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/style\.css">/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  assert.ok(!/user-scalable|maximum-scale/.test(html));
  assert.ok(!/<script(?![^>]*\bsrc=)/.test(html), 'inline script');
  assert.ok(!/<style|\sstyle=/.test(html), 'inline style');
  assert.ok(!/\son[a-z]+=/.test(html), 'inline handler');
});

test('the style sheet follows the phone setting, reduced motion, and 16 px text', () => {
  const css = readFileSync(join(web, 'style.css'), 'utf8');
  assert.match(css, /prefers-color-scheme: dark/);
  assert.match(css, /prefers-reduced-motion: reduce/);
  for (const m of css.matchAll(/font-size:\s*(\d+)px/g)) assert.ok(Number(m[1]) >= 16, `font-size ${m[1]}px`);
});
