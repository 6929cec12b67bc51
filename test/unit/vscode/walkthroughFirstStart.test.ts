// The Getting Started walkthrough on a newcomer's first start (#29): opened once per install (a
// globalState flag), never again after; not where the user turned VS Code's own "open walkthroughs
// on install" off; an editor that cannot open it is asked again next time. And Check Configuration
// names the config files in use, by path (under `npm start` the global one is the user's own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/core/host';
import { openWalkthroughOnFirstStart, WALKTHROUGH_ID, WALKTHROUGH_OPENED_KEY } from '../../../src/vscode/walkthrough/firstStart';
import { describeConfigFiles } from '../../../src/vscode/walkthrough/configFiles';
import packageJson from '../../../package.json';

/** globalState as VS Code's Memento keeps it: values survive between starts of the same install. */
function memento() {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key: string, value: unknown) => void values.set(key, value) };
}

test('the walkthrough opens on the first start only, and its id is the one package.json contributes', async () => {
  const state = memento();
  let opened = 0;
  const start = () => openWalkthroughOnFirstStart({ state, openOnInstall: true, open: async () => void opened++, log: silentLogger });
  assert.equal(await start(), true);
  assert.equal(await start(), false, 'a second start (a reload, the next day) does not open it again');
  assert.equal(opened, 1);
  assert.equal(state.values.get(WALKTHROUGH_OPENED_KEY), true);
  assert.deepEqual(packageJson.contributes.walkthroughs.map((w: { id: string }) => w.id), [WALKTHROUGH_ID]);
});

test('not opened where "open walkthroughs on install" is off; an editor that cannot open it asks again next start', async () => {
  const state = memento();
  assert.equal(await openWalkthroughOnFirstStart({ state, openOnInstall: false, open: async () => assert.fail('must not open'), log: silentLogger }), false);
  assert.equal(state.values.has(WALKTHROUGH_OPENED_KEY), false);
  const warnings: string[] = [];
  const log = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
  assert.equal(await openWalkthroughOnFirstStart({ state, openOnInstall: true, open: async () => Promise.reject(new Error("command 'workbench.action.openWalkthrough' not found")), log }), false);
  assert.match(warnings[0] ?? '', /opening the Getting Started walkthrough failed: command .* not found/);
  assert.equal(state.values.has(WALKTHROUGH_OPENED_KEY), false, 'not marked as seen');
});

test('Check Configuration names the global and workspace files in use, and what to do when one is missing', () => {
  assert.equal(
    describeConfigFiles({ global: '/home/ann/.config/hearth/config.toml', globalExists: true, workspace: '/k/.hearth/config.toml', workspaceExists: true }),
    'Global config: /home/ann/.config/hearth/config.toml, the file the hearth CLI reads too. Workspace config: /k/.hearth/config.toml (wins key by key).',
  );
  const fresh = describeConfigFiles({ global: '/custom/hearth/config.toml', globalExists: false, workspace: '/k/.hearth/config.toml', workspaceExists: false });
  assert.match(fresh, /^Global config: \/custom\/hearth\/config\.toml \(not created yet; "Hearth: Open Global Config" creates it\)/);
  assert.match(fresh, /Workspace config: \/k\/\.hearth\/config\.toml \(none: the global config and the defaults apply\)\.$/);
  assert.doesNotMatch(describeConfigFiles({ global: '/g/config.toml', globalExists: true }), /Workspace/);
});
