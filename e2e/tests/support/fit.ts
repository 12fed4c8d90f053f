/// <reference lib="dom" />
// The checks run in the page, so this file needs the DOM types.
import type { Page } from '@playwright/test';

/** The widths every page is tried at: phones, a tablet, laptops, desktops. */
export const SWEEP_WIDTHS = [360, 390, 768, 1024, 1280, 1366, 1440, 1920] as const;
export const SWEEP_THEMES = ['light', 'dark'] as const;
export type SweepTheme = (typeof SWEEP_THEMES)[number];

/** The theme as the toggle sets it: the `dark` class on the root element. */
export async function showTheme(page: Page, theme: SweepTheme): Promise<void> {
  await page.evaluate((dark) => {
    document.documentElement.classList.toggle('dark', dark);
  }, theme === 'dark');
}

/** Waits until the page has laid itself out again (two animation frames). */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

/**
 * What does not fit the window as the page stands, in words (none: it fits):
 * - the page scrolls sideways;
 * - the account menu (signed in) or 'Sign in'/'Sign up' (signed out), whichever the page has, is not
 *   wholly inside the window;
 * - a control of the main content (link, button, field, slider) is outside the window, unless it
 *   sits in a box that scrolls sideways itself;
 * - a checkbox's words do not start on its line, right beside it;
 * - scrolled to the end, the fixed player bar still covers the page's last content.
 */
export function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    const describe = (element: Element) => {
      const name =
        element.getAttribute('aria-label') ??
        (element as HTMLElement).innerText?.trim().slice(0, 40) ??
        '';
      return `${element.tagName.toLowerCase()}${name ? ` '${name}'` : ''}`;
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return false;
      const style = getComputedStyle(element);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const inScroller = (element: Element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (parent === document.body) return false;
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') return true;
      }
      return false;
    };

    if (root.scrollWidth > width)
      problems.push(`the page scrolls sideways by ${root.scrollWidth - width} px`);

    const entry =
      document.querySelector('button[aria-label="Account menu"]') ??
      Array.from(document.querySelectorAll('header a')).find((a) =>
        ['Sign in', 'Sign up'].includes(a.textContent?.trim() ?? ''),
      );
    if (!entry) problems.push('neither the account menu nor Sign in/Sign up is there');
    else {
      const box = entry.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 0.5)
        problems.push(`${describe(entry)} is outside the window (${box.left}–${box.right})`);
    }

    const main = document.querySelector('main');
    const controls = main?.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="slider"], [role="tab"]',
    );
    for (const control of Array.from(controls ?? [])) {
      if (!shown(control) || inScroller(control)) continue;
      const box = control.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5)
        problems.push(
          `${describe(control)} is outside the window (${Math.round(box.left)}–${Math.round(box.right)})`,
        );
    }

    const checkboxes = main?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    for (const box of Array.from(checkboxes ?? [])) {
      const label = box.labels?.[0];
      if (!label || !shown(box)) continue;
      const range = document.createRange();
      const text = Array.from(label.childNodes).find(
        (node: Node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
      );
      if (!text) continue;
      range.selectNodeContents(text);
      const words = range.getClientRects()[0];
      const mark = box.getBoundingClientRect();
      if (!words) continue;
      const sameLine = words.top < mark.bottom && words.bottom > mark.top;
      const beside = words.left >= mark.right - 0.5 && words.left - mark.right < 24;
      if (!sameLine || !beside)
        problems.push(`the checkbox '${text.textContent?.trim()}' is apart from its words`);
    }

    const bar = document.querySelector('section[aria-label="Audio player"]');
    const footer = document.querySelector('footer');
    if (bar && footer && getComputedStyle(bar).position === 'fixed') {
      const before = window.scrollY;
      window.scrollTo(0, root.scrollHeight);
      const covered = footer.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
      if (covered > 0.5) problems.push(`the player covers the end of the page by ${covered} px`);
      window.scrollTo(0, before);
    }
    return problems;
  });
}
