/** The `:` commands of the chat input; its own file so the webview gets the list without zod. */
export const CHAT_COMMANDS = ['model', 'models', 'agent', 'clear', 'new', 'logout', 'help'] as const;
export type ChatCommandName = (typeof CHAT_COMMANDS)[number];
