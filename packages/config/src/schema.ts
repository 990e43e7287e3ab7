/**
 * The config.yaml schema (zod 4). Keys keep their documented snake_case spelling.
 * Every key is optional; sections use `prefault({})` so their inner defaults apply.
 */
import * as z from 'zod';
import { imageGenSchema, mediaSchema, sttSchema, ttsSchema } from './media-schema.js';
import { baseUrl } from './url-schema.js';
import { accessSchema, identityKeySchema, usersSchema } from './users-schema.js';

/** Objects whose unknown keys are ignored silently (no warning, stripped from the output). */
export const QUIET_OBJECTS = new WeakSet<z.ZodType>();

function quietObject<T extends z.ZodRawShape>(shape: T): z.ZodObject<T> {
  const schema = z.object(shape);
  QUIET_OBJECTS.add(schema);
  return schema;
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    // An invalid pattern is reported as a config issue by the refinement that called us.
    return false;
  }
}

export const LOG_LEVEL_NAMES = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

const regexSource = z.string().refine(isValidRegex, { message: 'valid regular expression' });

const modelSchema = z.object({
  default: z.string().default(''),
  base_url: baseUrl.default('https://api.openai.com/v1'),
  api_key: z.string().default(''),
  /** until the answer's first byte (a non-streamed answer's first byte comes when the model has finished) */
  timeout_s: z.number().gt(0).default(50),
  /** until the connection to the model server is up */
  connect_timeout_s: z.number().gt(0).default(10),
  /** between two chunks of an answer that has started */
  idle_timeout_s: z.number().gt(0).default(30),
  /** every attempt of one model step together (agent.api_max_retries within it): a hung model fails within it */
  retry_budget_s: z.number().gt(0).default(55),
  max_tokens: z.int().min(1).optional(),
  temperature: z.number().min(0).optional(),
  /** images to the model as content parts: true, false, or auto (on until the model refuses one with a 400) */
  vision: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /** the model provider profile (plugins/model-providers/<name>/); `custom`: model.base_url and model.api_key */
  provider: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a provider name: lower-case letters, digits, "-" and "_" (e.g. openrouter)')
    .default('custom'),
  /**
   * `provider:model` (or a model of the same provider) that answers when the primary still fails after
   * its retries; a list is a chain, tried in order (`hermes fallback` edits it)
   */
  fallback: z.union([z.array(z.string().min(1)), z.string().min(1)]).optional(),
  /** the model's context window in tokens (absent: the provider profile's contextLength, else 128000); the context engine keeps requests under it */
  context_length: z.int().min(256).optional(),
});

const agentSchema = z.object({
  max_iterations: z.int().min(1).default(30),
  api_max_retries: z.int().min(0).default(3),
  system_prompt: z.string().optional(),
  toolsets: z.array(z.string()).default(['*']),
  /** `short`: each tool's first sentence only, no parameter descriptions; `auto`: short when the full schemas take over a fifth of the context window */
  tool_descriptions: z.enum(['full', 'short', 'auto']).default('auto'),
  /** per model id (the turn's, after /model): the toolsets (or tool names) its turns are narrowed to, within agent.toolsets */
  model_toolsets: z.record(z.string(), z.array(z.string().min(1))).default({}),
  tool_timeout_s: z.number().gt(0).default(300),
  /** delegate_task: children running at once; more tasks wait their turn */
  max_parallel_children: z.int().min(1).max(16).default(3),
  /** delegate_task: model steps each child may take */
  child_max_iterations: z.int().min(1).default(20),
  /** delegate_task: each child's wall-clock budget; keep it under tool_timeout_s */
  child_timeout_s: z.number().gt(0).default(240),
  /** clarify: how long a question waits for the user's answer before the turn goes on without it; keep it under tool_timeout_s */
  clarify_timeout_s: z.number().gt(0).default(180),
});

const terminalSchema = z.object({
  timeout_s: z.number().gt(0).default(60),
  max_output_chars: z.int().min(1).default(50_000),
  cwd: z.string().optional(),
  dangerous_patterns_extra: z.array(regexSource).default([]),
});

const loggingSchema = z.object({
  level: z.enum(LOG_LEVEL_NAMES).default('info'),
  redact: z.array(z.string()).default([]),
});

const pluginsSchema = z.object({
  enabled: z.array(z.string()).default([]),
  disabled: z.array(z.string()).default([]),
  hook_timeout_ms: z.int().min(1).default(10_000),
});

/** One shell hook: unknown keys inside an entry are ignored. */
const shellHookSchema = quietObject({
  matcher: z.string().optional(),
  command: z.string().min(1),
  timeout: z.number().gt(0).optional(),
});

const displaySchema = z.object({
  busy_input_mode: z.enum(['interrupt', 'queue', 'steer']).default('interrupt'),
  streaming: z.boolean().default(false),
  /** the shortest time between two edits of a streamed answer in one chat */
  stream_interval_ms: z.int().min(100).max(60_000).default(1000),
  /** 👀 when a turn starts, ✅ when answered, ❌ on failure */
  reactions: z.boolean().default(false),
  /** a line per tool step ("⚙️ terminal") in the streamed message while tools run */
  tool_progress: z.boolean().default(false),
  /** a last line on chat answers: the model, the turn's tokens in and out, its duration */
  runtime_metadata_footer: z.boolean().default(false),
});

const sessionResetSchema = z.object({
  mode: z.enum(['none', 'idle', 'daily', 'both']).default('none'),
  idle_minutes: z.number().gt(0).default(1440),
  at_hour: z.int().min(0).max(23).default(4),
});

/** Platform settings: `enabled` is typed, every other key passes through to the adapter. */
const platformSchema = z.looseObject({
  enabled: z.boolean().optional(),
  /** the toolsets (or tool names; `*` all) this platform's turns are narrowed to, within agent.toolsets */
  toolsets: z.array(z.string().min(1)).optional(),
});

const gatewaySchema = z.object({
  /** identities that are one person: each list's later entries are linked to its first (at every start) */
  identity_links: z.array(z.array(identityKeySchema).min(2, 'a link joins at least two identities')).default([]),
  /** identity keys of the admins (besides GATEWAY_ADMIN_USERS and <PLATFORM>_ADMIN_USERS) */
  admins: z.array(identityKeySchema).default([]),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65_535).default(8642),
  drain_timeout_s: z.number().min(0).default(30),
  /** agent runs in parallel across sessions (one per session at a time) */
  max_concurrent_runs: z.int().min(1).default(8),
  /** chats (platform:chat_id) where the bot answers every message in a group, not only when addressed */
  free_response_chats: z.array(z.string()).default([]),
  /** unaddressed messages of a group kept (in memory) and given to the model at the next mention; 0: none */
  group_context_messages: z.int().min(0).max(200).default(20),
  /** per channel (platform:chat_id, or platform:chat_id:thread_id): instructions added after the system prompt */
  channel_prompts: z.record(z.string(), z.string()).default({}),
  /** per channel (keyed as channel_prompts): the toolsets (or tool names) its turns are narrowed to */
  channel_toolsets: z.record(z.string(), z.array(z.string().min(1))).default({}),
  /** per channel (keyed as channel_prompts): skills whose instructions every turn there carries */
  channel_skills: z.record(z.string(), z.array(z.string().min(1))).default({}),
  /** group sessions: one per user in the chat (default) or one shared by the chat */
  group_sessions: z.enum(['per_user', 'shared']).default('per_user'),
  /** a gateway hook (HERMES_HOME/hooks) running longer than this is logged as hanging; replies never wait for it */
  hook_timeout_s: z.number().gt(0).default(30),
  /** Host header values served besides loopback names and addresses (e.g. the name a reverse proxy forwards) */
  allowed_hosts: z.array(z.string().min(1)).default([]),
  /** browser Origins allowed to call the HTTP API (CORS); any other Origin is refused */
  cors_origins: z.array(z.string().min(1)).default([]),
  /** open HTTP connections at most; more are refused at accept */
  max_connections: z.int().min(1).default(256),
  /** seconds a client has to send a whole request (headers and body) */
  request_timeout_s: z.number().gt(0).default(30),
  /** open Server-Sent Event streams (web chat, console) at most, and per client address */
  max_streams: z.int().min(1).default(64),
  max_streams_per_client: z.int().min(1).default(8),
  platforms: z.record(z.string(), platformSchema).default({}),
  /** one user's messages in one chat arriving within this many ms are one turn (a split paste); 0: off */
  batch_ms: z.int().min(0).max(60_000).default(800),
  /** several instances on one PostgreSQL database (state.backend: postgres; docs/scaling.md) */
  cluster: z
    .object({
      /** seconds until another instance takes over a dead holder's connection-holding platform */
      failover_s: z.number().min(1).max(300).default(10),
      /** this instance's name in the cluster (HERMES_INSTANCE_ID wins); default: host, pid and start time */
      instance_id: z.string().min(1).max(200).optional(),
    })
    .prefault({}),
  /** the operator console at `/` (docs/console.md, docs/console-api.md) */
  console: z
    .object({
      /** default: on when the gateway listens on loopback, off otherwise (`true` there requires a login) */
      enabled: z.boolean().optional(),
      /** a secret the console login accepts (API_SERVER_KEY is accepted too); redacted like other secrets */
      token: z.string().min(1).optional(),
    })
    .prefault({}),
});

const approvalsSchema = z.object({
  /** a dangerous command asked for in a gateway chat is denied when nobody answers within this */
  timeout_s: z.number().gt(0).default(120),
});

const webSchema = z.object({
  backend: z.string().optional(),
  search_backend: z.string().optional(),
  extract_backend: z.string().optional(),
  /** one search call to a provider (an extract call gets twice this), and each page the key-free extractor fetches */
  timeout_s: z.number().gt(0).default(30),
  /** a whole crawl (web_extract with mode "crawl") */
  crawl_timeout_s: z.number().gt(0).default(120),
  /** body bytes read per fetched page; a longer body is cut there */
  max_page_bytes: z.int().min(1024).default(5_000_000),
  /** characters of content per page handed to the model */
  max_content_chars: z.int().min(100).default(20_000),
});

const toolsTerminalSchema = z.object({
  /** local: a child process with a scrubbed environment; sandbox: inside bubblewrap (bwrap) */
  backend: z.enum(['local', 'sandbox']).default('local'),
  /** environment variable names passed to terminal commands besides PATH, HOME, LANG, TERM */
  env_passthrough: z.array(z.string().min(1)).default([]),
  /** sandbox backend: let commands reach the network */
  network: z.boolean().default(false),
});

const toolsBrowserSchema = z.object({
  /** the Chromium the browser tool drives; absent: chromium, chromium-browser, google-chrome or google-chrome-stable on PATH */
  executable: z.string().min(1).optional(),
  /** a session's page is closed after this long without an action (the browser too when none is left) */
  idle_timeout_s: z.number().gt(0).default(300),
  /** each navigation and action of the browser tool */
  timeout_s: z.number().gt(0).default(30),
});

const toolsSchema = z.object({
  /** folders the file tools may read and write; default: the working directory and HERMES_HOME/cache */
  file_roots: z.array(z.string().min(1)).optional(),
  terminal: toolsTerminalSchema.prefault({}),
  browser: toolsBrowserSchema.prefault({}),
});

const stateSchema = z.object({
  /**
   * where state lives: `sqlite` (HERMES_HOME/state.db) or `postgres` (the database at HERMES_DATABASE_URL):
   * every CLI command opens it (apps/hermes/src/state-store.ts); `gateway run` refuses postgres until wired
   */
  backend: z.enum(['sqlite', 'postgres']).default('sqlite'),
  /** transcripts of sessions idle longer than this many days are pruned (default: kept) */
  retention_days: z.number().gt(0).optional(),
});

const memorySchema = z.object({
  /** the memory provider: builtin (HERMES_HOME/memories/MEMORY.md, a profile per user) or a plugins/memory/<name>/ plugin's */
  provider: z.string().min(1).default('builtin'),
  /** the most characters MEMORY.md's entries may take (the builtin provider) */
  memory_char_limit: z.int().min(100).max(100_000).default(2200),
  /** the most characters each user's profile may take (the builtin provider) */
  user_char_limit: z.int().min(100).max(100_000).default(1375),
});

const contextSchema = z
  .object({
    /** the context engine: the built-in compressor or one a plugin of plugins/context_engine/ registered */
    engine: z.string().min(1).default('compressor'),
    /** compress when a request would pass this share of model.context_length */
    threshold: z.number().gt(0).max(1).default(0.75),
    /** the last messages never summarized */
    protect_last_n: z.int().min(0).default(20),
    /** compress a request holding more messages than this, whatever its tokens (0: no limit) */
    hard_message_limit: z.int().min(0).default(0),
  })
  .superRefine((c, ctx) => {
    if (c.hard_message_limit === 0 || c.hard_message_limit > c.protect_last_n + 2) return;
    ctx.addIssue({
      code: 'custom',
      path: ['hard_message_limit'],
      // the compressor keeps the first exchange and the last protect_last_n: a lower limit leaves nothing to summarize
      message: `0 (no limit) or more than context.protect_last_n + 2 (${c.protect_last_n + 2})`,
    });
  });

const auxiliarySchema = z.object({
  /** the model that writes context summaries (absent: the chat's model, same endpoint) */
  compression: z.object({ model: z.string().min(1).optional() }).prefault({}),
});

const skillsSchema = z.object({
  /** skills left out (a user skill's name, a plugin skill's plugin:name or short name) */
  disabled: z.array(z.string().min(1)).default([]),
});

const mcpToolFilterSchema = z.object({
  /** only these MCP tool names (as the server names them); absent: all */
  include: z.array(z.string().min(1)).optional(),
  /** these MCP tool names are never registered */
  exclude: z.array(z.string().min(1)).default([]),
});

/** One MCP server: a stdio `command` (with args, env, cwd) or a streamable HTTP `url` (with headers). */
const mcpServerSchema = z
  .object({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** added to the child's environment; values may say ${VAR} (from the environment or HERMES_HOME/.env) */
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().min(1).optional(),
    url: baseUrl.optional(),
    /** sent with every HTTP request; values may say ${VAR} */
    headers: z.record(z.string(), z.string()).default({}),
    enabled: z.boolean().default(true),
    /** one tool call's limit (agent.tool_timeout_s still caps every tool call) */
    timeout_s: z.number().gt(0).default(60),
    /** connecting (start, initialize, list tools) gives up after this */
    connect_timeout_s: z.number().gt(0).default(30),
    tools: mcpToolFilterSchema.prefault({}),
  })
  .refine((s) => (s.command === undefined) !== (s.url === undefined), {
    message: 'either command (stdio) or url (streamable HTTP), not both',
  });

const cronSchema = z.object({
  /** the IANA time zone of jobs added without --tz (default: the machine's) */
  timezone: z
    .string()
    .min(1)
    .refine(
      (tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'an IANA time zone name such as "Europe/Berlin" or "UTC"' },
    )
    .optional(),
  /** after downtime: run a job that missed runs once (default), every missed run (all), or skip to its next (none) */
  catch_up: z.enum(['once', 'all', 'none']).default('once'),
  /** failed runs in a row before a job is paused and its owner told */
  max_failures: z.int().min(1).default(3),
});

const securitySchema = z.object({
  allow_private_urls: z.boolean().default(false),
  /** let the operator's `hermes plugins install-deps` / `plugins enable` install a plugin's optional npm packages */
  allow_lazy_installs: z.boolean().default(false),
});

export const configSchema = z.object({
  model: modelSchema.prefault({}),
  agent: agentSchema.prefault({}),
  terminal: terminalSchema.prefault({}),
  logging: loggingSchema.prefault({}),
  plugins: pluginsSchema.prefault({}),
  hooks: z.record(z.string(), z.array(shellHookSchema)).default({}),
  hooks_auto_accept: z.boolean().default(false),
  display: displaySchema.prefault({}),
  session_reset: sessionResetSchema.prefault({}),
  gateway: gatewaySchema.prefault({}),
  approvals: approvalsSchema.prefault({}),
  web: webSchema.prefault({}),
  security: securitySchema.prefault({}),
  image_gen: imageGenSchema.prefault({}),
  tts: ttsSchema.prefault({}),
  memory: memorySchema.prefault({}),
  users: usersSchema.prefault({}),
  tools: toolsSchema.prefault({}),
  state: stateSchema.prefault({}),
  media: mediaSchema.prefault({}),
  stt: sttSchema.prefault({}),
  context: contextSchema.prefault({}),
  auxiliary: auxiliarySchema.prefault({}),
  skills: skillsSchema.prefault({}),
  /** MCP servers by name: their tools are registered as mcp_<server>_<tool> in toolset mcp-<server> */
  mcp_servers: z
    .record(
      z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'a server name of 1-32 letters, digits, "_" or "-"'),
      mcpServerSchema,
    )
    .default({}),
  cron: cronSchema.prefault({}),
  /** access tiers (admin, user): who is admin, each tier's tools and limits, per-user limits */
  access: accessSchema.prefault({}),
  /** `/name` aliases on every surface with commands: a text sent to the model, or a `/command [args]` */
  quick_commands: z
    .record(
      z.string().regex(/^[a-z0-9_-]{1,32}$/, 'a command name of 1-32 lowercase letters, digits, "_" or "-"'),
      z.string().min(1),
    )
    .default({}),
});

/** The parsed, still mutable config (internal: callers get the frozen `HermesConfig`). */
export type MutableConfig = z.output<typeof configSchema>;
