// `npm install` ends quietly (#29): npm 11 skips every dependency install script that package.json's
// allowScripts does not name and ends the install with a list of them, which reads as breakage. Each
// dependency of the lockfile that has an install script is named there (declined: none is needed
// to build, test, package or run Hearth), so a new one fails here until someone decides about it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('every locked dependency with an install script is decided in allowScripts', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = [...new Set(Object.entries(lock.packages).filter(([path, entry]) => path && entry.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();
  const decided = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, '$1'));
  assert.deepEqual(withScripts.filter((name) => !decided.includes(name)), [], 'add these to allowScripts in package.json (false unless Hearth needs the script)');
});
