// Every platform driver the contract suite runs; CONTRACT_PLATFORMS=telegram,slack narrows it.
import type { PlatformDriver } from '../driver.js';
import { discordDriver } from './discord.js';
import { echoDriver } from './echo.js';
import { emailDriver } from './email.js';
import { matrixDriver } from './matrix.js';
import { signalDriver } from './signal.js';
import { slackHttpDriver, slackSocketDriver } from './slack.js';
import { telegramDriver } from './telegram.js';
import { whatsappDriver } from './whatsapp.js';

/** Fresh driver instances for every platform and mode. */
export function allDrivers(): PlatformDriver[] {
  return [
    telegramDriver('polling'),
    telegramDriver('webhook'),
    slackSocketDriver(),
    slackHttpDriver(),
    discordDriver(),
    echoDriver(),
    whatsappDriver(),
    signalDriver(),
    matrixDriver(),
    emailDriver(),
  ];
}

/** The drivers selected by CONTRACT_PLATFORMS (comma-separated platform names), all by default. */
export function selectedDrivers(filter = process.env.CONTRACT_PLATFORMS): PlatformDriver[] {
  const wanted = (filter ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return allDrivers().filter((d) => wanted.length === 0 || wanted.includes(d.platform));
}
