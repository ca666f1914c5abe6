// The reference page: the Scalar renderer pointed at /openapi.json, configured to load nothing from outside
// this instance (no web fonts, no telemetry, no AI agent, not even a favicon) and to send "try it" requests straight to this
// origin with the key typed into the page.
import { RENDERER_PATH, ROUTE_TABLE } from '../../core/routes.ts';

const CONFIGURATION = {
  url: ROUTE_TABLE.openapi.path,
  title: 'finanzamt-api',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  persistAuth: false,
  hideDarkModeToggle: true,
  documentDownloadType: 'json',
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: 'ApiKey' },
};

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
<script src="${RENDERER_PATH}"></script>
<script>Scalar.createApiReference('#app', ${configuration});</script>
</body>
</html>
`;
}
