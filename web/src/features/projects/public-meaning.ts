/** What Public means, said wherever a project can become Public ('Make public', a new project). */
export const PUBLIC_MEANING =
  "Anyone with this page's address can open it without signing in: they see the project's name, description, branches and versions and can play them in standard quality. They cannot download, comment, or see share links.";
