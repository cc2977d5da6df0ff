import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { TestApp } from './harness';

/**
 * The admin console in headless Chromium (Debian's `chromium`, driven by playwright-core), as an operator on
 * another machine opens it: by a host name, not loopback, so Chromium treats the page as an insecure origin
 * (where `upgrade-insecure-requests` breaks every asset). The name maps to 127.0.0.1, so no traffic leaves
 * loopback. Without Chromium the suites are skipped, except in CI (CI=true), where they fail.
 */

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CONSOLE_HOST = 'cta-console.test';
const IN_CI = process.env.CI === 'true';

/** A browser is slow to start and draw on a loaded machine: this bounds a hang of one step, it times nothing. */
const BROWSER_STEP_TIMEOUT_MS = 60_000;

if (!existsSync(CHROMIUM) && !IN_CI) {
  console.warn(
    `Skipping the admin console browser tests: ${CHROMIUM} is missing (apt-get install chromium). In CI (CI=true) they fail instead.`,
  );
}
export const describeInBrowser = existsSync(CHROMIUM) || IN_CI ? describe : describe.skip;

/** The console of a running service in a browser page, and every error the page logged. */
export interface ConsoleSession {
  api: TestApp;
  page: Page;
  origin: string;
  consoleErrors: string[];
  close(): Promise<void>;
}

/** Starts the service (SQLite, `env`) on a port and opens a browser page on it; `openConsole` loads /docs. */
export async function startConsoleSession(env: Record<string, string>): Promise<ConsoleSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run does)`);
  }
  const api = await TestApp.start('sqlite', env);
  let browser: Browser | undefined;
  try {
    await api.app.listen(0, '127.0.0.1');
    const origin = `http://${CONSOLE_HOST}:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${CONSOLE_HOST} 127.0.0.1`],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('requestfailed', (request) => consoleErrors.push(`${request.url()}: ${request.failure()?.errorText}`));
    const opened = browser;
    return { api, page, origin, consoleErrors, close: async () => (await opened.close(), await api.close()) };
  } catch (error) {
    await browser?.close();
    await api.close();
    throw error;
  }
}

/** Loads the console and waits until it has drawn its title (a page whose scripts did not load shows none: say why). */
export async function openConsole({ page, origin, consoleErrors }: ConsoleSession): Promise<void> {
  await page.goto(`${origin}/docs`);
  await page
    .locator('.swagger-ui .info .title')
    .filter({ hasText: 'admin console' })
    .waitFor()
    .catch((error: Error) => {
      throw new Error(`the console did not render: ${error.message}\nbrowser errors: ${consoleErrors.join('\n')}`);
    });
}

/** The slot of a security scheme in the open Authorize dialog. */
export const authorizeSlot = (page: Page, scheme: string): Locator =>
  page.locator('.auth-container').filter({ has: page.locator('h4', { hasText: new RegExp(`^${scheme}\\s*\\(`) }) });

/** Opens the Authorize dialog, enters each key in its slot, and closes the dialog. */
export async function authorize(page: Page, keys: Record<string, string>): Promise<void> {
  await page.locator('.scheme-container button.authorize').click();
  for (const [scheme, key] of Object.entries(keys)) {
    const slot = authorizeSlot(page, scheme);
    await slot.locator('input').fill(key);
    await slot.locator('button.authorize').click();
  }
  await page.locator('.dialog-ux button.close-modal').click();
}

/** One "Execute" of an opened operation in "Try it out" mode (a previous answer cleared first): its status and body as the page shows them. */
export async function execute(operation: Locator): Promise<{ status: string; body: string }> {
  const clear = operation.locator('button.btn-clear');
  if ((await clear.count()) > 0) await clear.click();
  await operation.locator('button.execute').click();
  const response = operation.locator('.live-responses-table .response').first();
  await response.locator('.response-col_status').waitFor();
  return {
    status: (await response.locator('.response-col_status').innerText()).trim(),
    body: await response.locator('.response-col_description .highlight-code code').first().innerText(),
  };
}

/** Expands an operation and switches it to "Try it out", filling the operator's `user` header where it has one. */
export async function tryOut(operation: Locator, user: string): Promise<void> {
  await operation.locator('.opblock-summary').click();
  await operation.locator('button.try-out__btn').click();
  const userHeader = operation.locator('tr[data-param-name="user"] input');
  if ((await userHeader.count()) > 0) await userHeader.fill(user);
}
