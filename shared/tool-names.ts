// MCP's tool-name rule (specification 2025-11-25, "Tool names"; the SDK's toolNameValidation.ts checks the
// same): 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot. Sandbar calls no tool whose name
// breaks it, so no name that reaches a question, a record or a screen can carry anything else.

export const TOOL_NAME_MAX = 128;
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function isToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME.test(name);
}

export const TOOL_NAME_RULE = '1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "."';
