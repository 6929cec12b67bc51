// Child process of lexicalIndex.test.ts: rewrites every note of a kiln with new words each round,
// brings the index up to date and searches (which writes the lexical file), until it is killed.
// Prints "<round>" after each round.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHashedEmbedServer } from '../../eval/hashedEmbedServer';
import { evalIndex } from './lexicalHelpers';

export const NOTES = 40;

export const noteText = (n: number, round: number) => `# Note ${n}\n\nround${round} word${n}x${round} shared text\n\n## Part\n\nmore${round} words here ${'filler '.repeat(n % 7)}\n`;

async function main(kiln: string): Promise<void> {
  const server = await startHashedEmbedServer();
  for (let round = 1; ; round++) {
    for (let n = 0; n < NOTES; n++) writeFileSync(join(kiln, `n${n}.md`), noteText(n, round));
    const index = evalIndex(kiln, server.url);
    await index.update();
    await index.search(`round${round}`, { limit: 5 });
    await index.dispose();
    process.stdout.write(`${round}\n`);
  }
}

if (process.argv[2]) void main(process.argv[2]);
