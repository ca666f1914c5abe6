// The reference page: the Scalar renderer pointed at /openapi.json, configured to load nothing from outside
// this instance (no web fonts, no telemetry, no AI agent, not even a favicon), to offer no way out of it (no "Open
// API Client" button, which would hand this instance's address to client.scalar.com) and to send "try it" requests
// straight to this origin with the key typed into the page. What no option removes (the sidebar's "Powered by Scalar",
// a link in a description) loses its target as it appears: the page links nowhere but to this instance.
import { RENDERER_PATH, ROUTE_TABLE } from '../../core/routes.ts';

const CONFIGURATION = {
  url: ROUTE_TABLE.openapi.path,
  title: 'finanzamt-api',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  persistAuth: false,
  hideDarkModeToggle: true,
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: 'ApiKey' },
};

/** Every link to another origin, now and as the renderer adds or changes one, becomes text: its target is removed. */
const KEEP_LINKS_HERE = `new MutationObserver(() => {
  for (const a of document.querySelectorAll('a[href]')) if (/^https?:$/.test(a.protocol) && a.origin !== location.origin) a.removeAttribute('href');
}).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['href'] });`;

export function referencePage(): string {
  // `<` escaped so that no configuration value can end the script element.
  const configuration = JSON.stringify(CONFIGURATION).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>finanzamt-api: API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script>${KEEP_LINKS_HERE}</script>
<script src="${RENDERER_PATH}"></script>
<script>Scalar.createApiReference('#app', ${configuration});</script>
</body>
</html>
`;
}
