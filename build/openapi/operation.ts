// One operation of the description, as the GET, HEAD and OPTIONS of every path (paths.ts) and the POST of a
// batch (batch.ts) are written.
import type { Response } from './responses.ts';

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: { $ref: string }[];
  requestBody?: { required: true; description: string; content: Record<string, { schema: { $ref: string }; example?: unknown }> };
  security?: [];
  responses: Record<string, Response | { $ref: string }>;
}
