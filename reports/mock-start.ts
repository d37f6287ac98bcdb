import type { MockStart } from './replay.js';

// How the bundled mock of this run was started, read from the same settings the global setup
// used (environment and CONFORMANCE_CONFIG file), so a report can say how to start it again.
export async function mockStart(env: NodeJS.ProcessEnv): Promise<MockStart | undefined> {
  const { loadConfig } = await import('../contract/config.js');
  const result = loadConfig(env);
  if (!result.ok) return undefined;
  const { fault, shape, deprecate } = result.settings.mock;
  // CONFORMANCE_MOCK_READINGS is read by the global setup itself, not by the settings.
  const readings = (env.CONFORMANCE_MOCK_READINGS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return { ...(fault ? { fault } : {}), ...(shape ? { shape } : {}), deprecate, readings };
}
