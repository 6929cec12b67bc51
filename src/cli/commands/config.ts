/**
 * `hearth config`: the effective configuration as TOML with each value's source; `--json` prints
 * `{config, sources, problems}`; `hearth config check` prints the problems the way compilers do
 * (`file:line:col: severity: message`) and exits 1 on any error. Secrets never reach the output:
 * literals in env tables, plain-text keys, URL userinfo and query values and `--token`-style args are
 * masked as in the editor's view (references print as written), and every secret the configuration
 * can reach is redacted from the whole text.
 */
import { formatEffectiveConfig } from '../../core/config/describeConfig';
import { resolveKilnId } from '../../core/index/kilnId';
import { maskConfigSecrets } from '../../core/config/maskSecrets';
import { formatConfigProblem } from '../../core/config/problem';
import { COMMON_HELP, createCliContext, parseCommandLine, UsageError } from '../cliContext';
import type { CliIo } from '../cliIo';

const HELP = `Usage: hearth config [--json] [--workspace DIR]
       hearth config check [--json] [--workspace DIR]

Prints the effective configuration (defaults, the global file, the workspace's .hearth/config.toml
and environment overrides, layered per key) as TOML, each value followed by its source.
\`check\` prints every problem as file:line:col: severity: message and exits 1 when there is an
error (warnings alone exit 0).

      --json           hearth config: {config, sources, problems}; check: the problems as a JSON array
${COMMON_HELP}
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine('config', argv, { json: { type: 'boolean' } }, true);
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const [action, ...extra] = positionals;
  if ((action !== undefined && action !== 'check') || extra.length > 0) {
    throw new UsageError(`unexpected argument "${action !== 'check' ? action : extra[0]}" (see hearth config --help)`);
  }
  const ctx = await createCliContext(io, values);
  const { loaded, redactor } = ctx;
  const out = (text: string) => io.stdout.write(redactor.redact(text));

  if (action === 'check') {
    const errors = loaded.problems.filter((p) => p.severity === 'error').length;
    if (values.json) out(`${JSON.stringify(loaded.problems, null, 2)}\n`);
    else for (const problem of loaded.problems) out(`${formatConfigProblem(problem)}\n`);
    const warnings = loaded.problems.length - errors;
    if (loaded.problems.length === 0) io.stderr.write(`hearth config: no problems (${loaded.files.global}, ${loaded.files.workspace})\n`);
    else io.stderr.write(`hearth config: ${errors} error(s), ${warnings} warning(s)\n`);
    return errors > 0 ? 1 : 0;
  }

  // The kiln's namespace in a shared database is derived (git remote, else folder name) when unset: show the value in use.
  const kilnId = await resolveKilnId(loaded.config.kiln_path ?? ctx.workspaceRoot, loaded.config.processing.kiln_id);
  const shown = { ...loaded, config: { ...loaded.config, processing: { ...loaded.config.processing, kiln_id: kilnId } } };
  if (values.json) {
    const { config, sources, problems } = shown;
    out(`${JSON.stringify({ config: maskConfigSecrets(config), sources, problems }, null, 2)}\n`);
  } else {
    out(formatEffectiveConfig(shown));
  }
  return 0;
}
