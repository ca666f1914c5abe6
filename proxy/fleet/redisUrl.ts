// Redis URLs as logged: without a password they may carry (the command line checks them, core/commandLine.ts).

export function withoutCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.href;
}
