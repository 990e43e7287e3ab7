/**
 * Whether a host is this machine's loopback: `localhost`, 127.0.0.0/8 or ::1 (bracketed or not).
 * A name, not a resolution: nothing is looked up. The gateway's bind check, its `Host` guard and
 * the send pacing of platform APIs all ask this one question.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^127(\.\d{1,3}){3}$/.test(h);
}
