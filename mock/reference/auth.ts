// API keys, teams and scopes (§5). Four keys per start: full-scope keys of teams A and
// B, a read-only key of team A (every `<resource>:read`, no `:write`), and a key of
// team C whose plan (free) lacks API access: every request with it answers the
// plan-limit error (402 plan_limit_exceeded, feature api_access).
// Missing/unknown/malformed Authorization → 401 unauthorized (reading auth-failure-status);
// missing scope → 403 forbidden.
import { randomBytes } from 'node:crypto';
import { allScopes, type Collection, resources } from '../../specs/registry.js';
import { forbidden, planLimit, unauthorized } from './errors.js';
import type { Readings } from './readings.js';
import type { TeamId } from './store.js';

/** A scope token (§5 rule 2: `<resource>:read`, `<resource>:write`). */
export type Scope = `${Collection}:${'read' | 'write'}`;

export interface Principal {
  team: TeamId;
  scopes: ReadonlySet<string>;
  apiAccess: boolean;
}

export interface MockKeys {
  teamA: string;
  teamB: string;
  readOnly: string;
  noApiAccess: string;
}

const ALL_READ = resources().map((r) => r.scopes.read);
/** Every scope: what the full-scope keys carry. */
export const ALL_SCOPES: readonly string[] = allScopes();

/** Random keys look like `mock_<43 base64url chars>` (32 random bytes). */
export const randomKey = (): string => `mock_${randomBytes(32).toString('base64url')}`;

export function resolveKeys(given: Partial<MockKeys> = {}): MockKeys {
  return {
    teamA: given.teamA || randomKey(),
    teamB: given.teamB || randomKey(),
    readOnly: given.readOnly || randomKey(),
    noApiAccess: given.noApiAccess || randomKey(),
  };
}

/** `Authorization: Bearer <token>` (§5 rule 1), the token in visible ASCII. */
export const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

export class Authenticator {
  private readonly principals = new Map<string, Principal>();

  constructor(keys: MockKeys, private readonly readings?: Readings) {
    const distinct = new Set(Object.values(keys));
    if (distinct.size !== 4) throw new Error('the four mock API keys must be distinct');
    this.principals.set(keys.teamA, { team: 'A', scopes: new Set(ALL_SCOPES), apiAccess: true });
    this.principals.set(keys.teamB, { team: 'B', scopes: new Set(ALL_SCOPES), apiAccess: true });
    this.principals.set(keys.readOnly, { team: 'A', scopes: new Set(ALL_READ), apiAccess: true });
    this.principals.set(keys.noApiAccess, { team: 'C', scopes: new Set(ALL_SCOPES), apiAccess: false });
  }

  /** Who a request is before it is authenticated: no team's records, no scope. */
  static readonly NOBODY: Principal = { team: 'C', scopes: new Set(), apiAccess: false };

  /** The principal a well-formed `Authorization: Bearer` header names, if any. */
  principalOf(header: string | undefined): Principal | undefined {
    const m = header ? BEARER.exec(header) : null;
    return m ? this.principals.get(m[1]!) : undefined;
  }

  /** The principal of a request to an operation, or throws the envelope error to answer. */
  authenticate(header: string | undefined, scope: Scope | undefined): Principal {
    const p = this.principalOf(header);
    if (!p) {
      throw unauthorized(header ? 'The API key is invalid' : 'Missing Authorization: Bearer <API_KEY> header',
        Number(this.readings?.value('auth-failure-status') ?? 401));
    }
    if (!p.apiAccess) throw planLimit(scope ? scope.split(':')[0]! : 'api', Number(this.readings?.value('plan-limit-status') ?? 402));
    if (scope && !p.scopes.has(scope)) throw forbidden(scope);
    return p;
  }
}
