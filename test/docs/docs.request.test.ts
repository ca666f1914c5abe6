// The reference page in a real browser (Debian's headless Chromium, driven by playwright-core): it renders
// every endpoint from /openapi.json, loads nothing from anywhere but the proxy, offers no link off it (issue 45,
// item 3: no "Open API Client" button, no "Powered by Scalar" link), and a lookup sent from the page with a key
// typed into it reaches the proxy and shows the service's answer. The screenshot it leaves in
// test-output/ is the proof a person can look at.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../build/openapi/paths.ts';
import { callerOfSharedProxy, type CallerProxy } from '../support/callerProxy.ts';
import { scratchDir } from '../support/proxy.ts';

const PATHS = paths();
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join('test-output', 'docs', 'try-it.png');
/** The page parses a renderer of some megabytes: on two cores shared with other work that took over 30 s. */
const PAGE_LOAD = 120_000;

let service: CallerProxy;
let browser: BrowserContext;
const requested: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/install-test-prerequisites does)`);
  service = await callerOfSharedProxy('docs');
  browser = await chromium.launchPersistentContext(scratchDir('finanzamt-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  browser.on('request', (r) => requested.push(r.url()));
});

afterAll(async () => {
  await browser?.close();
});

describe('/docs', () => {
  it('lists every endpoint, sends a lookup with the typed key and shows the answer', async () => {
    const page = browser.pages()[0] ?? await browser.newPage();
    await page.goto(`${service.proxy.url}/docs`, { timeout: PAGE_LOAD });
    for (const { get } of Object.values(PATHS)) await page.getByText(get.summary, { exact: true }).first().waitFor();

    await page.locator('input:visible').first().fill(service.key);
    await page.getByText(PATHS['/finanzamt']!.get.summary, { exact: true }).first().click();
    await page.locator('button:visible', { hasText: 'Test Request' }).first().click();
    const sent = page.waitForRequest((r) => r.url().startsWith(`${service.proxy.url}/finanzamt?`));
    await page.locator('button:visible', { hasText: 'Send' }).first().click();
    const request = await sent;
    expect(request.headers()['x-api-key']).toBe(service.key);
    const sentParams = new URL(request.url()).searchParams;
    expect(sentParams.get('ags')).toBe('05315000');
    // The page shows an example for plz and ort too, switched off: only one of the three may be sent. So is the
    // example of stadtteil, which would narrow the plain lookup.
    expect(sentParams.has('plz') || sentParams.has('ort') || sentParams.has('stadtteil')).toBe(false);
    await page.getByText('Finanzamt Köln-Altstadt').first().waitFor();
    await page.getByText('200 OK').first().waitFor();

    mkdirSync(join('test-output', 'docs'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(requested.filter((url) => !url.startsWith(service.proxy.url) && !url.startsWith('data:'))).toEqual([]);
  }, 3 * PAGE_LOAD);

  it('offers no link, button, font or script that leaves the instance, and shows no raw backticks', async () => {
    const page = await browser.newPage();
    const before = requested.length;
    await page.goto(`${service.proxy.url}/docs`, { timeout: PAGE_LOAD });
    for (const { get } of Object.values(PATHS)) await page.getByText(get.summary, { exact: true }).first().waitFor();
    // Opened, each operation shows its examples and its buttons.
    await page.getByText(PATHS['/finanzamt']!.get.summary, { exact: true }).first().click();
    await page.locator('button:visible', { hasText: 'Test Request' }).first().waitFor();
    // In the page's own words (this file is typed without the DOM): every address a link, a resource or a form names.
    const addresses = await page.evaluate(`[
      ...[...document.querySelectorAll('a[href], area[href], link[href]')].map((a) => a.href),
      ...[...document.querySelectorAll('[src]')].map((e) => e.src),
      ...[...document.querySelectorAll('form[action]')].map((f) => f.action),
    ]`) as string[];
    expect(addresses.length).toBeGreaterThan(0);
    const own = (url: string) => url.startsWith(`${service.proxy.url}/`) || /^(data|blob|about|javascript):/.test(url);
    expect(addresses.filter((url) => !own(url))).toEqual([]);
    expect(await page.getByText(/API Client/).count()).toBe(0);
    expect(await page.evaluate('document.body.innerText')).not.toContain('`');
    expect(requested.slice(before).filter((url) => !own(url))).toEqual([]);
    await page.close();
  }, 3 * PAGE_LOAD);
});
