import type * as acp from '@agentclientprotocol/sdk';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { PromptAttachment } from '../../agentSession';

/**
 * A prompt as ACP content: the text, then each attachment as an embedded resource when the agent
 * says it takes them (`promptCapabilities.embeddedContext`), else as a fenced block named by its
 * path and lines, which every agent can read. Attachment paths are kiln-relative (or absolute):
 * `root` is the kiln's folder, which is not always the workspace the agent runs in.
 */
export function promptBlocks(text: string, attachments: readonly PromptAttachment[], embedded: boolean, root: string): acp.ContentBlock[] {
  const blocks: acp.ContentBlock[] = [{ type: 'text', text }];
  for (const attachment of attachments) {
    const lines = attachment.startLine !== undefined ? ` (lines ${attachment.startLine}-${attachment.endLine ?? attachment.startLine})` : '';
    if (embedded) {
      blocks.push({ type: 'resource', resource: { uri: pathToFileURL(resolve(root, attachment.path)).href, text: attachment.text, mimeType: 'text/markdown' } });
    } else {
      blocks.push({ type: 'text', text: `${attachment.path}${lines}:\n\`\`\`\n${attachment.text}\n\`\`\`` });
    }
  }
  return blocks;
}
