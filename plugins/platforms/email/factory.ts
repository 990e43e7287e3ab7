/**
 * The PlatformFactory registered by the plugin: the credentials check, and an adapter that loads
 * imapflow, nodemailer and mailparser (adapter.ts) when the platform starts, not when the plugin is
 * imported: settings are checked at creation, without them (plugin-sdk's `lazyAdapter`).
 * `doctor` is `hermes doctor`'s check of the mailbox (an IMAP login and an SMTP handshake).
 */
import { envValue, lazyAdapter } from '@hermes/plugin-sdk';
import type { PlatformEnv, PlatformFactory, PlatformSettings } from '@hermes/protocol';
import { EMAIL_CAPABILITIES } from './capabilities.js';
import type { DoctorResult } from './doctor.js';
import { markdownToPlain } from './format/markdown-to-plain.js';
import { type EmailSettings, PLATFORM, readEmailSettings } from './settings.js';

/** A platform factory that can also check its credentials for `hermes doctor`. */
export interface EmailFactory extends PlatformFactory<EmailSettings> {
  doctor(settings: PlatformSettings, env: PlatformEnv): Promise<DoctorResult>;
}

/**
 * Email is available when the address, the password and both servers are set. The IMAP login and
 * host are the instance key: two gateways reading one mailbox would both answer.
 */
export const emailFactory: EmailFactory = {
  name: PLATFORM,
  hasCredentials: (env) =>
    ['EMAIL_ADDRESS', 'EMAIL_PASSWORD', 'EMAIL_IMAP_HOST', 'EMAIL_SMTP_HOST'].every(
      (n) => envValue(env, n) !== undefined,
    ),
  instanceKey: (env) => {
    const host = envValue(env, 'EMAIL_IMAP_HOST');
    const user = envValue(env, 'EMAIL_IMAP_USER') ?? envValue(env, 'EMAIL_ADDRESS');
    return host === undefined || user === undefined ? undefined : `${user.toLowerCase()}@${host.toLowerCase()}`;
  },
  readSettings: readEmailSettings,
  create: (context) => {
    const settings = readEmailSettings(context.settings, context.env);
    return lazyAdapter(context, {
      name: PLATFORM,
      capabilities: EMAIL_CAPABILITIES,
      apiUrl: `http://${settings.smtp.host}`,
      holdsConnection: true,
      format: markdownToPlain,
      methods: ['sendMedia'],
      load: async (loadContext) => (await import('./adapter.js')).createEmailAdapter(loadContext),
    });
  },
  doctor: async (settings, env) => (await import('./doctor.js')).checkMailbox(readEmailSettings(settings, env)),
};
