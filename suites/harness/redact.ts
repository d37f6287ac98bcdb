// Keys never leave the process: wherever one would be shown, its variable name is shown instead.
import type { Settings } from '../../contract/settings.js';

export type KeyName = 'team' | 'otherTeam' | 'readOnly' | 'noApiAccess';

export const keyVariables: Record<KeyName, string> = {
  team: 'CONFORMANCE_API_KEY',
  otherTeam: 'CONFORMANCE_API_KEY_OTHER_TEAM',
  readOnly: 'CONFORMANCE_API_KEY_READ_ONLY',
  noApiAccess: 'CONFORMANCE_API_KEY_NO_API_ACCESS',
};

export type Redactor = (text: string) => string;

export function makeRedactor(keys: Settings['keys']): Redactor {
  const pairs = (Object.keys(keyVariables) as KeyName[])
    .filter((k) => keys[k])
    .map((k) => [keys[k]!, `$${keyVariables[k]}`] as const)
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((acc, [key, variable]) => acc.split(key).join(variable), text);
}
