import type { LaunchOptions } from '@playwright/test';

/**
 * How every browser of this project starts: Debian's Chromium (this project never downloads a
 * browser), headless, with nothing of its own going to the network. `playsAudio` lets a page
 * play sound without a click first (the tests' players; a benchmark that times a click on Play
 * does not need it).
 */
export function chromiumLaunchOptions({ playsAudio = false } = {}): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(playsAudio ? ['--autoplay-policy=no-user-gesture-required'] : []),
    ],
  };
}
