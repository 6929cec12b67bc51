// The upstream behind the gateway in the conformance run: an MCP SDK server (stdio) serving the
// fixture tools, resources, prompts and completions that the suite's server scenarios call by
// fixed names. The gateway exposes an upstream's tools and prompts as `prefix + name`, so the
// names here lack the `test_` the suite asks for: the gateway entry's prefix (`test_`) adds it,
// which is what proves the prefixing, the routing and the relaying back. The one tool whose
// name does not start with `test_` (json_schema_2020_12_tool) is served by a second entry over
// this same program with the prefix `json_`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

// A 1×1 red PNG and a 1-sample 8 kHz mono WAV, made here (no binary files in the tree).
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
function tinyWav() {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(2, 40);
  return Buffer.concat([header, Buffer.alloc(2)]).toString('base64');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const noArgs = { type: 'object', properties: {} };
const text = (value) => ({ content: [{ type: 'text', text: value }] });

const TOOLS = [
  { name: 'simple_text', description: 'Returns simple text', inputSchema: noArgs },
  { name: 'image_content', description: 'Returns an image', inputSchema: noArgs },
  { name: 'audio_content', description: 'Returns audio', inputSchema: noArgs },
  { name: 'embedded_resource', description: 'Returns an embedded resource', inputSchema: noArgs },
  { name: 'multiple_content_types', description: 'Returns text, an image and a resource', inputSchema: noArgs },
  { name: 'tool_with_logging', description: 'Logs three messages while it runs', inputSchema: noArgs },
  { name: 'tool_with_progress', description: 'Reports progress 0, 50, 100 of 100', inputSchema: noArgs },
  { name: 'error_handling', description: 'Always fails', inputSchema: noArgs },
  { name: 'sampling', description: 'Asks the client for a model reply', inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] } },
  { name: 'elicitation', description: 'Asks the user', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  { name: 'elicitation_sep1034_defaults', description: 'Asks with defaults for every primitive type', inputSchema: noArgs },
  { name: 'elicitation_sep1330_enums', description: 'Asks with every enum form', inputSchema: noArgs },
  { name: 'reconnection', description: 'Answers after a pause (the stream is the gateway’s)', inputSchema: noArgs },
  {
    name: 'schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
];

const RESOURCES = [
  { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', read: () => ({ text: 'This is the content of the static text resource.' }) },
  { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', read: () => ({ blob: RED_PIXEL_PNG }) },
  { uri: 'test://watched-resource', name: 'watched-resource', mimeType: 'text/plain', read: () => ({ text: 'A resource clients may subscribe to.' }) },
];
const TEMPLATE = { uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json' };

const PROMPTS = [
  { name: 'simple_prompt', description: 'A prompt without arguments' },
  { name: 'prompt_with_arguments', description: 'A prompt with two arguments', arguments: [{ name: 'arg1', description: 'First test argument', required: true }, { name: 'arg2', description: 'Second test argument', required: true }] },
  { name: 'prompt_with_embedded_resource', description: 'A prompt embedding a resource', arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }] },
  { name: 'prompt_with_image', description: 'A prompt with an image' },
];

export function createFixtureServer() {
  const server = new Server(
    { name: 'hearth-conformance-fixture', version: '1.0.0' },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} } },
  );
  const subscribed = new Set();
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    const log = (data) => extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
    switch (request.params.name) {
      case 'simple_text':
        return text('This is a simple text response for testing.');
      case 'image_content':
        return { content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] };
      case 'audio_content':
        return { content: [{ type: 'audio', data: tinyWav(), mimeType: 'audio/wav' }] };
      case 'embedded_resource':
        return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
      case 'multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
          ],
        };
      case 'tool_with_logging':
        await log('Tool execution started');
        await sleep(50);
        await log('Tool processing data');
        await sleep(50);
        await log('Tool execution completed');
        return text('Tool with logging executed successfully');
      case 'tool_with_progress': {
        const token = extra._meta?.progressToken;
        for (const progress of [0, 50, 100]) {
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
          if (progress < 100) await sleep(50);
        }
        return text('Tool with progress executed successfully');
      }
      case 'error_handling':
        return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
      case 'sampling': {
        const reply = await server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt ?? '') } }], maxTokens: 100 });
        return text(`LLM response: ${reply.content.type === 'text' ? reply.content.text : JSON.stringify(reply.content)}`);
      }
      case 'elicitation': {
        const answer = await server.elicitInput({
          message: String(args.message ?? ''),
          requestedSchema: {
            type: 'object',
            properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
            required: ['username', 'email'],
          },
        });
        return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'elicitation_sep1034_defaults': {
        const answer = await server.elicitInput({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
          },
        });
        return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'elicitation_sep1330_enums': {
        const answer = await server.elicitInput({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }],
              },
              legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
              untitledMulti: { type: 'array', description: 'Select multiple options', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] },
              },
            },
          },
        });
        return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'reconnection':
        await sleep(100);
        return text('Reconnection test completed');
      case 'schema_2020_12_tool':
        return text(`Hello, ${args.name ?? 'nobody'}`);
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES.map(({ read: _read, ...resource }) => resource) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const fixed = RESOURCES.find((resource) => resource.uri === uri);
    if (fixed) return { contents: [{ uri, mimeType: fixed.mimeType, ...fixed.read() }] };
    const match = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (match) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: match[1], templateTest: true, data: `Data for ID: ${match[1]}` }) }] };
    throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'simple_prompt':
        return { messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] };
      case 'prompt_with_arguments':
        return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] };
      case 'prompt_with_embedded_resource':
        return {
          messages: [
            { role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        };
      case 'prompt_with_image':
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        };
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    }
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const values = ref.type === 'ref/prompt' && ref.name === 'prompt_with_arguments' ? ['test1', 'test2', 'testValue'] : ref.type === 'ref/resource' ? ['123', '456'] : [];
    const matching = values.filter((value) => value.startsWith(argument.value));
    return { completion: { values: matching, total: matching.length, hasMore: false } };
  });
  return { server, subscribed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { server } = createFixtureServer();
  // No top-level await: tests load this file as a module of theirs (tsx may compile it to CommonJS).
  void server.connect(new StdioServerTransport());
}
