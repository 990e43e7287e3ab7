/** The calculator plugin: the calculate and unit_convert tools, a post_tool_call logger and a bundled skill. */
import { join } from 'node:path';
import type { PluginContext } from '@hermes/plugin-sdk';
import { calculate } from './calculate.js';
import { createCallLog } from './call-log.js';
import { CALCULATE_SCHEMA, UNIT_CONVERT_SCHEMA } from './schemas.js';
import { unitConvert } from './unit-convert.js';

/** Wires the schemas to their handlers, subscribes the call log to post_tool_call and registers the skill. */
export function register(ctx: PluginContext): void {
  ctx.registerTool({
    name: 'calculate',
    toolset: 'calculator',
    schema: CALCULATE_SCHEMA,
    handler: calculate,
    emoji: '🧮',
  });
  ctx.registerTool({
    name: 'unit_convert',
    toolset: 'calculator',
    schema: UNIT_CONVERT_SCHEMA,
    handler: unitConvert,
    emoji: '📏',
  });
  // fires after every tool call, not just ours
  ctx.registerHook('post_tool_call', createCallLog(ctx.logger).hook);
  // hosts without skill support load the plugin all the same
  if (typeof ctx.registerSkill === 'function') {
    ctx.registerSkill({
      name: 'calculator',
      description: 'When and how to use the calculate and unit_convert tools',
      path: join(ctx.dir, 'skills', 'calculator', 'SKILL.md'),
    });
  }
}

export default register;
