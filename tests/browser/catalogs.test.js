// The interface catalogs (web/js/lang/<language>/<area>.js): every key of every area exists in every
// language, with the same {placeholders} and a non-empty text, and no key lives in two areas (the
// areas are merged into one catalog per language). Plain Node: no browser or server needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const LANG_DIR = path.resolve(import.meta.dirname, '../../web/js/lang');
const LANGUAGES = readdirSync(LANG_DIR).filter((d) => !d.includes('.')).sort();
const AREAS = readdirSync(path.join(LANG_DIR, 'en')).filter((f) => f.endsWith('.js') && f !== 'index.js').map((f) => f.slice(0, -3)).sort();

async function load(language, area) {
  return (await import(pathToFileURL(path.join(LANG_DIR, language, `${area}.js`)).href)).default;
}

const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('there are the two languages and the areas of the interface', () => {
  assert.deepEqual(LANGUAGES, ['de', 'en']);
  assert.ok(AREAS.includes('ui') && AREAS.includes('social'), `areas: ${AREAS}`);
});

for (const area of AREAS) {
  test(`area "${area}": every key in every language, with the same placeholders`, async () => {
    const catalogs = Object.fromEntries(await Promise.all(LANGUAGES.map(async (l) => [l, await load(l, area)])));
    const keys = new Set(LANGUAGES.flatMap((l) => Object.keys(catalogs[l])));
    const problems = [];
    for (const key of keys) {
      for (const l of LANGUAGES) {
        const text = catalogs[l][key];
        if (text === undefined) problems.push(`${l}/${area}.js lacks "${key}"`);
        else if (typeof text !== 'string' || !text.trim()) problems.push(`${l}/${area}.js: "${key}" is empty`);
      }
      const [first, ...rest] = LANGUAGES.filter((l) => typeof catalogs[l][key] === 'string');
      for (const l of rest) {
        if (first && placeholders(catalogs[l][key]).join() !== placeholders(catalogs[first][key]).join()) {
          problems.push(`"${key}": ${first} has {${placeholders(catalogs[first][key])}}, ${l} has {${placeholders(catalogs[l][key])}}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
}

test('no key lives in two areas, and each language merges all of its areas', async () => {
  for (const l of LANGUAGES) {
    const seen = new Map();
    const clashes = [];
    let total = 0;
    for (const area of AREAS) {
      for (const key of Object.keys(await load(l, area))) {
        total += 1;
        if (seen.has(key)) clashes.push(`"${key}" in ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
    }
    assert.deepEqual(clashes, [], `${l}: keys in two areas`);
    const merged = (await import(pathToFileURL(path.join(LANG_DIR, l, 'index.js')).href)).default;
    assert.equal(Object.keys(merged).length, total, `${l}/index.js merges every area`);
  }
});
