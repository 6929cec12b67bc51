// Runs every unit test (test/unit/**/*.test.ts) with node's own test runner, TypeScript via tsx.
// Node 20's --test has no glob support, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = collect('test/unit').filter((f) => filter.length === 0 || filter.some((part) => f.includes(part))).sort();
if (files.length === 0) {
  console.error('no unit test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
