/**
 * The users part of config.yaml (docs/security.md, "Users apart" and "Tiers and budgets"): the
 * identity key every per-user setting is written in, `users.owner`, and `access` (each tier's tools
 * and limits, per-user overrides, model prices). `gateway.identity_links` and `gateway.admins` use
 * the identity key too.
 */
import * as z from 'zod';

/** `<platform>:<userId>`: a user identity (docs/security.md, "Users apart") */
export const identityKeySchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:\S+$/, 'an identity key <platform>:<userId>, e.g. telegram:111 or slack:U123');

export const usersSchema = z.object({
  /** who the state of before users apart belongs to: the old global USER.md and the sessions stored without a user */
  owner: identityKeySchema.default('cli:local'),
});

const limitsSchema = z.object({
  /** turns a user may start within a minute of their window's first turn (absent: no limit) */
  turns_per_minute: z.int().min(1).optional(),
  /** model tokens (prompt + completion, as the provider reports them) a user may use per UTC day */
  tokens_per_day: z.int().min(1).optional(),
  /** cost per UTC day, from access.prices and the reported usage (absent, or no price for the model: no limit) */
  cost_per_day: z.number().gt(0).optional(),
});

/** What one access tier may use: toolsets (names or tool names, `*` = every toolset agent.toolsets offers), tools never offered, limits. */
const tierSchema = (defaults: { excludeTools: string[]; limits: z.input<typeof limitsSchema> }) =>
  z.object({
    toolsets: z.array(z.string().min(1)).default(['*']),
    exclude_tools: z.array(z.string().min(1)).default(defaults.excludeTools),
    /** chat commands this tier may not run (names without the slash), besides the admin-only ones for users */
    exclude_commands: z
      .array(
        z
          .string()
          .min(1)
          .transform((name) => name.replace(/^\//, '')),
      )
      .default([]),
    limits: limitsSchema.prefault(defaults.limits),
  });

export const accessSchema = z.object({
  tiers: z
    .object({
      admin: tierSchema({ excludeTools: [], limits: {} }).prefault({}),
      user: tierSchema({
        excludeTools: ['terminal', 'write_file', 'patch', 'execute_code'],
        limits: { turns_per_minute: 20 },
      }).prefault({}),
    })
    .prefault({}),
  /** per-user overrides by identity key: their limits replace their tier's, key by key */
  users: z.record(identityKeySchema, z.object({ limits: limitsSchema.prefault({}) })).default({}),
  /** prices per million tokens by model id, for cost_per_day (a model without a price costs nothing) */
  prices: z
    .record(
      z.string().min(1),
      z.object({ input_per_million: z.number().min(0), output_per_million: z.number().min(0) }),
    )
    .default({}),
});
