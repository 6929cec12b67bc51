import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger, type LogLevel } from '../../../../src/core/host';
import { levelFilteredLogger, REDACTED, Redactor, redactingLogger } from '../../../../src/core/logging/redactingLogger';
import { sinkLogger } from '../../../../src/core/logging/sinkLogger';
import { channelLogger, CHANNEL_LEVEL } from '../../../../src/vscode/host/channelLogger';

function recorder() {
  const lines: { level: LogLevel; message: string; args: unknown[] }[] = [];
  return { lines, logger: sinkLogger((level, message, args) => void lines.push({ level, message, args })) };
}

test('child(topic) prefixes "[topic] "; a child of a child joins the topics with ":"; the parent is unchanged', () => {
  const { logger, lines } = recorder();
  const acp = logger.child('acp');
  acp.warn('the agent exited', 42);
  acp.child('claude').info('ready');
  logger.child('mcp').child('fs').child('stderr').debug('hello');
  logger.error('plain');
  assert.deepEqual(lines, [
    { level: 'warn', message: '[acp] the agent exited', args: [42] },
    { level: 'info', message: '[acp:claude] ready', args: [] },
    { level: 'debug', message: '[mcp:fs:stderr] hello', args: [] },
    { level: 'error', message: 'plain', args: [] },
  ]);
});

test('redaction applies through a child: the message, the topic and the arguments', () => {
  const secret = 'sk-child-secret-0123456789';
  const redactor = new Redactor();
  redactor.add(secret);
  const { logger, lines } = recorder();
  const log = redactingLogger(logger, redactor);
  log.child('llm').child(secret).warn(`calling with ${secret}`, { key: secret }, new Error(`bad ${secret}`));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].message, `[llm:${REDACTED}] calling with ${REDACTED}`);
  assert.ok(!JSON.stringify(lines[0].args).includes(secret));
  assert.equal((lines[0].args[1] as Error).message, `bad ${REDACTED}`);
});

test('the level filter applies through a child, and a live threshold change reaches children made before it', () => {
  const { logger, lines } = recorder();
  let threshold: LogLevel = 'info';
  const gateway = levelFilteredLogger(logger, () => threshold).child('gateway');
  gateway.debug('hidden');
  gateway.info('shown');
  threshold = 'debug';
  gateway.debug('now shown');
  assert.deepEqual(
    lines.map((line) => line.message),
    ['[gateway] shown', '[gateway] now shown'],
  );
});

test('the editor channel gets the same prefix (after its level tag when the channel would drop the line)', () => {
  const written: string[] = [];
  const at = (level: string) => (message: string) => void written.push(`${level} ${message}`);
  const channel = { logLevel: CHANNEL_LEVEL.info, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const log = channelLogger(channel).child('index');
  log.warn('rebuilding');
  log.debug('detail');
  assert.deepEqual(written, ['warn [index] rebuilding', 'info [debug] [index] detail']);
});

test('the silent logger stays silent through children', () => {
  assert.equal(silentLogger.child('x').child('y'), silentLogger);
});
