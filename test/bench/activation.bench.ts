// Extension activation in a real VS Code (code-server + Chromium, the packaged dist/hearth.vsix):
// each run starts a fresh code-server on a small kiln, opens the workbench, and reads the line the
// extension logs at info level once activate() is done — "Hearth activated in N ms: code loading
// L ms, activate A ms" (code loading: dist/extension.js importing the ESM bundle's first chunks;
// activate: everything activate() awaits). Loaded by test/bench/run.ts (part `activation`);
// `node --import tsx test/bench/activation.bench.ts` runs it alone. Needs what the e2e tests need
// (npm run package, code-server, Chromium); says so instead when one is missing.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openBrowser, prerequisites, startCodeServer, tempDir, until } from '../e2e/harness';
import { tinyModelDir } from '../unit/index/tinyModel';

const RUNS = Number(process.env.HEARTH_BENCH_ACTIVATION_RUNS ?? 3);
const ACTIVATED = /Hearth activated in (\d+) ms: code loading (\d+) ms, activate (\d+) ms/;

/** Every file under `dir` (code-server's logs: logs/<session>/window1/exthost/…/N-Hearth.log). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function activationLine(userDir: string): RegExpMatchArray | undefined {
  for (const file of filesUnder(join(userDir, 'logs')).filter((f) => f.endsWith('Hearth.log'))) {
    const match = ACTIVATED.exec(readFileSync(file, 'utf8'));
    if (match) return match;
  }
  return undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runActivationBench(): Promise<{ label: string; value: string }[]> {
  const missing = prerequisites();
  if (missing) return [{ label: 'extension activation in code-server', value: `not measured: ${missing}` }];
  const scratch = tempDir('activation');
  const total: number[] = [];
  const loading: number[] = [];
  const activate: number[] = [];
  try {
    const ws = join(scratch.path, 'notebook');
    mkdirSync(join(ws, '.hearth'), { recursive: true });
    writeFileSync(join(ws, '.hearth', 'config.toml'), `[embedding]\nprovider = "local_cpu"\nmodel = ${JSON.stringify(tinyModelDir())}\n`);
    writeFileSync(join(ws, 'Welcome.md'), '# Welcome\n\nThis notebook is about the garden.\n');
    for (let run = 0; run < RUNS; run++) {
      const codeServer = await startCodeServer({ workspace: ws });
      try {
        const workbench = await openBrowser(codeServer.url);
        try {
          const match = await until('the "Hearth activated" log line', () => activationLine(join(codeServer.root, 'user')), 90_000);
          total.push(Number(match[1]));
          loading.push(Number(match[2]));
          activate.push(Number(match[3]));
        } finally {
          await workbench.close();
        }
      } finally {
        await codeServer.stop();
      }
    }
  } finally {
    scratch.remove();
  }
  const cell = (values: number[]) => `${median(values)} ms (${values.join(', ')})`;
  return [
    { label: `extension activation in code-server, median of ${RUNS} (runs)`, value: cell(total) },
    { label: '  of which code loading (dist/extension.js importing the bundle)', value: cell(loading) },
    { label: '  of which activate()', value: cell(activate) },
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  runActivationBench().then((lines) => lines.forEach((l) => console.log(`${l.label}: ${l.value}`)));
}
