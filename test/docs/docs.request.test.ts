// The reference page in a real browser (Debian's headless Chromium, driven by playwright-core): it renders
// every endpoint from /openapi.json, loads nothing from anywhere but the proxy, and a lookup sent from the
// page with a key typed into it reaches the proxy and shows the service's answer. The screenshot it leaves in
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
    await page.goto(`${service.proxy.url}/docs`);
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
  });
});
