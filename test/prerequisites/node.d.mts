// The types of node.mjs, which is plain JavaScript so that an older Node runs it before the tests.
export function testNode(): string;
export function fetchedNode(major: number, messages?: { why?: string; otherwise?: string }): string;
