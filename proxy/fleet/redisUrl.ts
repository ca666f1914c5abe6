// Redis URLs as given on the command line: checked when parsed, and logged without a password they may carry.

export function parseRedisUrl(value: string): string {
  if (!URL.canParse(value) || !['redis:', 'rediss:'].includes(new URL(value).protocol)) {
    throw new Error(`expected a redis:// or rediss:// URL, got "${value}"`);
  }
  return value;
}

export function withoutCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href;
}
