// Sends one alert to the home channel when a turn reaches THRESHOLD tool-calling steps.
// LONG_TASK_ALERT_STEPS overrides the threshold; LONG_TASK_ALERT_TARGET the target ("home" by
// default: the first connected platform with a home channel; or "telegram", "discord:CHANNEL", ...).
import type { GatewayHookApi } from '@hermes/plugin-sdk';

const THRESHOLD = Number(process.env.LONG_TASK_ALERT_STEPS ?? 10);
const TARGET = process.env.LONG_TASK_ALERT_TARGET ?? 'home';

export async function handle(_event: string, context: Record<string, unknown>, hermes: GatewayHookApi) {
  if (context.iteration !== THRESHOLD) return;
  const tools = Array.isArray(context.tool_names) ? context.tool_names.join(', ') : '';
  const text = `⚠️ The agent has been running for ${THRESHOLD} steps (${context.platform}, user ${context.user_id}). Last tools: ${tools || 'none'}`;
  const sent = await hermes.send(TARGET, text);
  if (!sent.ok) hermes.logger.warn(`long-task-alert not sent: ${sent.error}`);
}
