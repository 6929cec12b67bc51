import { parseArgs } from 'node:util';

/**
 * Whether `hearth search` with these arguments embeds its query (hybrid and semantic, not --help):
 * then a query worker is started before its code loads (dist/cli.js, or the dispatcher from sources).
 */
export function searchEmbedsQuery(argv: string[]): boolean {
  const { values } = parseArgs({ args: argv, options: { mode: { type: 'string', short: 'm' }, help: { type: 'boolean', short: 'h' } }, strict: false, allowPositionals: true });
  const mode = values.mode ?? 'hybrid';
  return !values.help && (mode === 'hybrid' || mode === 'semantic');
}
