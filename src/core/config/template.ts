/**
 * The commented template written by "Hearth: Open Workspace Config" / "Open Global Config" when the
 * file does not exist yet. Every section of the reference is shown, commented out with its default,
 * so the file documents itself; only a minimal valid example is live. A unit test loads it and
 * expects zero problems, so it cannot drift from the schema unnoticed.
 */

/** Which file the template is for: the wording of the header and the live example differ. */
export type TemplateScope = 'workspace' | 'global';

const HEADER: Record<TemplateScope, string> = {
  workspace: `# Hearth workspace configuration (.hearth/config.toml).
# Values here override the global config (per key; [[mcp.servers]] merge by name).
# Every option is listed below with its default, commented out. Uncomment what you need;
# problems show up in the Problems view as you save. "Hearth: Show Effective Config" shows the
# result and where each value comes from.`,
  global: `# Hearth global configuration: applies to every workspace; a workspace's .hearth/config.toml
# overrides it per key ([[mcp.servers]] merge by name).
# Every option is listed below with its default, commented out. Uncomment what you need;
# "Hearth: Show Effective Config" shows the result and where each value comes from.`,
};

const LIVE_EXAMPLE: Record<TemplateScope, string> = {
  workspace: `# The notes folder ("kiln"), relative to the workspace root; ~ is your home directory.
# HEARTH_KILN_PATH overrides it.
kiln_path = "."
# Extra directories searched for agent cards (markdown with YAML frontmatter).
# agent_directories = []`,
  global: `# Extra directories searched for agent cards (markdown with YAML frontmatter).
agent_directories = []`,
};

const BODY = `
# ---------------------------------------------------------------------------------------------
# [chat]: the chat interface and the model internal agents use. Without [llm.providers] these
# keys describe the one provider in use; with them, keys set here override the active
# provider's values.
[chat]
provider = "local_runner"          # local_runner | cloud_a | cloud_b (aliases: ollama, openai, anthropic)
# model = "llama3.2"               # default: the provider's default model
# agent_preference = "acp"         # acp (prefer external agents) | internal
# endpoint = "http://127.0.0.1:11434"  # default: the provider's endpoint
# temperature = 0.7                # 0.0 (focused) to 2.0 (creative)
# max_tokens = 2048
# timeout_secs = 120
# enable_markdown = true
# size_aware_prompts = true        # models under 4B parameters get read-only tools and tool guidance
# review_edits = "always"          # always | destructive (deletes, overwrites) | never: agent edits open as a diff to accept
# auto_context = true              # add the best-matching note sections (search) to each message; hearth ask --no-context skips

# ---------------------------------------------------------------------------------------------
# [llm]: several named providers; [llm].default is the active one (switching the model and
# persisting the choice writes [llm].default here).
# [llm]
# default = "local"
#
# [llm.providers.local]
# type = "local_runner"            # local_runner | cloud_a | cloud_b | custom | openrouter | zai | cohere | vertexai | githubcopilot
# default_model = "llama3.2"
# endpoint = "http://127.0.0.1:11434"   # while unset, LOCAL_RUNNER_HOST (or OLLAMA_HOST) sets it
#
# [llm.providers.cloud]
# type = "cloud_a"
# default_model = "gpt-4o"
# api_key = "{env:CLOUD_A_API_KEY}"     # or "{secret:NAME}" (stored with "Hearth: Set API Key")
# temperature = 0.7
# max_tokens = 4096
# timeout_secs = 120

# ---------------------------------------------------------------------------------------------
# [embedding]: the embedder for semantic search.
# [embedding]
# provider = "local_cpu"           # local_cpu | local_runner | cloud_a | cloud_b | local_gpu_a | local_gpu_b
# model = "minishlab/potion-base-8M"   # default: the provider's default model (local_cpu: a static model2vec table;
#                                      "Xenova/bge-small-en-v1.5" is a transformer: better matches, far slower to index)
# api_url = "http://127.0.0.1:11434"   # default: the provider's endpoint
# batch_size = 16
# max_concurrent = 1               # default: the provider's default

# ---------------------------------------------------------------------------------------------
# [context]: project rules files, loaded from the git root down to the workspace.
# [context]
# rules_files = ["AGENTS.md", ".rules", ".github/copilot-instructions.md"]

# ---------------------------------------------------------------------------------------------
# [cli]: also applies in the editor (progress notifications, confirmations, debug log).
# [cli]
# show_progress = true
# confirm_destructive = true
# verbose = false                  # true means [logging].level = "debug"

# ---------------------------------------------------------------------------------------------
# [acp]: external agents (Agent Client Protocol).
# [acp]
# default_agent = "claude-code"    # default: auto-discovered
# enable_discovery = true
# session_timeout_minutes = 30
# max_message_size_mb = 25
# streaming_timeout_minutes = 15
# lazy_agent_selection = true
#
# [acp.agents.my-claude]
# extends = "claude-code"
# command = "claude-code-acp"
# args = []
# [acp.agents.my-claude.env]
# ANTHROPIC_API_KEY = "{env:ANTHROPIC_API_KEY}"

# ---------------------------------------------------------------------------------------------
# [[mcp.servers]]: upstream MCP servers aggregated by the gateway. Prefixes use A-Z a-z 0-9 _,
# end with "_" and are unique; names are unique.
# [[mcp.servers]]
# name = "files"
# prefix = "fs_"
# allowed_tools = ["read_*", "list_*"]   # default: all tools
# blocked_tools = ["write_*"]            # wins over allowed_tools
# auto_reconnect = true
# timeout_secs = 30
# max_message_mb = 64             # larger messages from a stdio server end its connection
# [mcp.servers.transport]
# type = "stdio"                   # stdio | sse | http
# command = "npx"
# args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
# [mcp.servers.transport.env]
# TOKEN = "{env:MY_TOKEN}"
#
# [[mcp.servers]]
# name = "remote"
# prefix = "remote_"
# [mcp.servers.transport]
# type = "http"                    # or "sse"
# url = "http://127.0.0.1:3001/mcp"
# auth_header = "Bearer {env:REMOTE_TOKEN}"

# ---------------------------------------------------------------------------------------------
# [processing]: indexing of notes.
# [processing]
# store = "flat"                   # flat | vectra | postgres
# database_url = "{env:HEARTH_DATABASE_URL}"   # store = "postgres": postgres://user@host:5432/db?sslmode=require
# kiln_id = "github.com/team/notes" # namespace in a shared database; default: the git remote (+ the kiln folder inside the repository), else the folder name + a hash of its path; waits for trust
# parallel_workers = 2             # local_cpu embedding threads; default: half the CPU cores
# exclude = ["drafts/**"]          # .git, node_modules and .hearth are always excluded
# max_file_size_kb = 1024

# ---------------------------------------------------------------------------------------------
# [changes]: the journal of agent edits (undo with "Hearth: Undo Last Agent Change" or hearth undo).
# [changes]
# keep_days = 30
# max_mb = 100

# ---------------------------------------------------------------------------------------------
# [logging]: how much the "Hearth" output channel and the CLI log.
# [logging]
# level = "info"                   # error | warn | info | debug | trace
`;

/**
 * The template text for a new config file. In the global template, [chat] stays commented out too
 * (a live [chat].provider there would be surprising in every workspace).
 */
export function configTemplate(scope: TemplateScope = 'workspace'): string {
  const body = scope === 'global' ? BODY.replace('\n[chat]\nprovider = "local_runner"', '\n# [chat]\n# provider = "local_runner"') : BODY;
  return `${HEADER[scope]}\n\n${LIVE_EXAMPLE[scope]}\n${body}`;
}
