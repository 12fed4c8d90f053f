import axe from 'axe-core';

/**
 * Test-only: the axe accessibility violations in `root` (the whole document by default), as
 * readable lines. jsdom draws nothing, so colour contrast is left to the browser tests; component
 * tests render no page landmarks, so 'region' is off too.
 */
export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
