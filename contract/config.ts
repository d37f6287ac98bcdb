// Target settings from the environment or the JSON file named by CONFORMANCE_CONFIG.
// Every misconfiguration is reported, as data, before any request is sent.
import { type ConfigError, ConfigurationFailed } from './config-error.js';
import * as p from './config-parse.js';
import { type RawSettings, readSources } from './config-source.js';
import { defaults, type Settings, type Shape } from './settings.js';

export type { ConfigError } from './config-error.js';
export { configErrorLine, ConfigurationFailed } from './config-error.js';

export type ConfigResult = { ok: true; settings: Settings; } | { ok: false; errors: ConfigError[]; };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const { raw, errors } = readSources(env);
  const settings = parseSettings(raw, errors);
  return errors.length ? { ok: false, errors } : { ok: true, settings };
}

/** loadConfig, throwing ConfigurationFailed (listing every error) when anything is wrong. */
export function requireConfig(env: NodeJS.ProcessEnv = process.env): Settings {
  const result = loadConfig(env);
  if (!result.ok) throw new ConfigurationFailed(result.errors);
  return result.settings;
}

function parseSettings(raw: RawSettings, errors: ConfigError[]): Settings {
  const s: Settings = {
    baseUrl: p.parseUrl(errors, 'CONFORMANCE_BASE_URL', raw.CONFORMANCE_BASE_URL),
    keys: {
      team: raw.CONFORMANCE_API_KEY,
      otherTeam: raw.CONFORMANCE_API_KEY_OTHER_TEAM,
      readOnly: raw.CONFORMANCE_API_KEY_READ_ONLY,
      noApiAccess: raw.CONFORMANCE_API_KEY_NO_API_ACCESS,
    },
    paths: {
      organizationCreate: p.parseEndpoint(errors, 'CONFORMANCE_PATH_ORGANIZATION_CREATE', raw.CONFORMANCE_PATH_ORGANIZATION_CREATE, 'POST', false)
        ?? defaults.organizationCreate,
      attachmentDownload: p.parseEndpoint(errors, 'CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD', raw.CONFORMANCE_PATH_ATTACHMENT_DOWNLOAD, 'GET', true),
      fileDelete: p.parseEndpoint(errors, 'CONFORMANCE_PATH_FILE_DELETE', raw.CONFORMANCE_PATH_FILE_DELETE, 'DELETE', true),
      captureIntake: p.parseEndpoint(errors, 'CONFORMANCE_PATH_CAPTURE_INTAKE', raw.CONFORMANCE_PATH_CAPTURE_INTAKE, 'POST', false),
      openapi: p.parseEndpoint(errors, 'CONFORMANCE_PATH_OPENAPI', raw.CONFORMANCE_PATH_OPENAPI, 'GET', false),
    },
    sortFields: p.parseSortFields(errors, 'CONFORMANCE_SORT_FIELDS', raw.CONFORMANCE_SORT_FIELDS),
    shape: p.parseEnum(errors, 'CONFORMANCE_SHAPE', raw.CONFORMANCE_SHAPE, ['auto', 'full', 'legacy'] as const, 'unknown_shape') ?? defaults.shape,
    readOnly: p.parseFlag(errors, 'CONFORMANCE_READ_ONLY', raw.CONFORMANCE_READ_ONLY),
    seed: p.parseInteger(errors, 'CONFORMANCE_SEED', raw.CONFORMANCE_SEED, -(2 ** 31)),
    numRuns: p.parseInteger(errors, 'CONFORMANCE_NUM_RUNS', raw.CONFORMANCE_NUM_RUNS, 1) ?? defaults.numRuns,
    statefulRuns: p.parseInteger(errors, 'CONFORMANCE_STATEFUL_RUNS', raw.CONFORMANCE_STATEFUL_RUNS, 1) ?? defaults.statefulRuns,
    statefulSteps: p.parseInteger(errors, 'CONFORMANCE_STATEFUL_STEPS', raw.CONFORMANCE_STATEFUL_STEPS, 1) ?? defaults.statefulSteps,
    timeoutMs: p.parseInteger(errors, 'CONFORMANCE_TIMEOUT_MS', raw.CONFORMANCE_TIMEOUT_MS, 1) ?? defaults.timeoutMs,
    concurrency: p.parseInteger(errors, 'CONFORMANCE_CONCURRENCY', raw.CONFORMANCE_CONCURRENCY, 1) ?? defaults.concurrency,
    maxRetries: p.parseInteger(errors, 'CONFORMANCE_MAX_RETRIES', raw.CONFORMANCE_MAX_RETRIES, 0) ?? defaults.maxRetries,
    maxRetryAfterMs: p.parseInteger(errors, 'CONFORMANCE_MAX_RETRY_AFTER_MS', raw.CONFORMANCE_MAX_RETRY_AFTER_MS, 0) ?? defaults.maxRetryAfterMs,
    runTimeoutMs: p.parseDuration(errors, 'CONFORMANCE_RUN_TIMEOUT', raw.CONFORMANCE_RUN_TIMEOUT) ?? defaults.runTimeoutMs,
    preflightTimeoutMs: p.parseInteger(errors, 'CONFORMANCE_PREFLIGHT_TIMEOUT_MS', raw.CONFORMANCE_PREFLIGHT_TIMEOUT_MS, 1) ?? defaults.preflightTimeoutMs,
    stopAfterNoResponse: p.parseInteger(errors, 'CONFORMANCE_STOP_AFTER_NO_RESPONSE', raw.CONFORMANCE_STOP_AFTER_NO_RESPONSE, 1)
      ?? defaults.stopAfterNoResponse,
    scratchProjects: p.parseIdList(errors, 'CONFORMANCE_SCRATCH_PROJECTS', raw.CONFORMANCE_SCRATCH_PROJECTS),
    walkPages: p.parseInteger(errors, 'CONFORMANCE_WALK_PAGES', raw.CONFORMANCE_WALK_PAGES, 1) ?? defaults.walkPages,
    selection: {
      only: p.parseOnly(errors, 'CONFORMANCE_ONLY', raw.CONFORMANCE_ONLY),
      exclude: p.parseOnly(errors, 'CONFORMANCE_EXCLUDE', raw.CONFORMANCE_EXCLUDE),
    },
    reportDir: raw.CONFORMANCE_REPORT_DIR ?? defaults.reportDir,
    mock: {
      fault: raw.CONFORMANCE_MOCK_FAULT,
      shape: p.parseEnum<Shape>(errors, 'CONFORMANCE_MOCK_SHAPE', raw.CONFORMANCE_MOCK_SHAPE, ['full', 'legacy'], 'unknown_shape'),
      deprecate: raw.CONFORMANCE_MOCK_DEPRECATE === undefined ? defaults.mockDeprecate : p.parseList(raw.CONFORMANCE_MOCK_DEPRECATE),
      population: p.parseInteger(errors, 'CONFORMANCE_MOCK_POPULATION', raw.CONFORMANCE_MOCK_POPULATION, 1),
    },
    image: raw.CONFORMANCE_IMAGE,
    imagePort: p.parseInteger(errors, 'CONFORMANCE_IMAGE_PORT', raw.CONFORMANCE_IMAGE_PORT, 1),
    viaPrism: p.parseFlag(errors, 'CONFORMANCE_VIA_PRISM', raw.CONFORMANCE_VIA_PRISM),
    target: p.parseEnum(errors, 'CONFORMANCE_TARGET', raw.CONFORMANCE_TARGET, ['prism-mock', 'bundled-mock'] as const, 'unknown_target'),
  };
  checkCombinations(s, raw, errors);
  return s;
}

/** Settings that choose the bundled mock's behaviour: given, the bundled mock is the target asked for. */
const MOCK_SETTINGS = ['CONFORMANCE_MOCK_FAULT', 'CONFORMANCE_MOCK_SHAPE', 'CONFORMANCE_MOCK_DEPRECATE', 'CONFORMANCE_MOCK_POPULATION'] as const;

function checkCombinations(s: Settings, raw: RawSettings, errors: ConfigError[]): void {
  const { team, otherTeam } = s.keys;
  if (raw.CONFORMANCE_BASE_URL && raw.CONFORMANCE_IMAGE) {
    errors.push({ code: 'conflicting_targets', setting: 'CONFORMANCE_IMAGE', message: 'give CONFORMANCE_BASE_URL or CONFORMANCE_IMAGE, not both' });
  }
  if ((raw.CONFORMANCE_BASE_URL || raw.CONFORMANCE_IMAGE) && raw.CONFORMANCE_TARGET) {
    errors.push({
      code: 'conflicting_targets',
      setting: 'CONFORMANCE_TARGET',
      message: `names the ${raw.CONFORMANCE_TARGET} as the target, but ${
        raw.CONFORMANCE_BASE_URL ? 'CONFORMANCE_BASE_URL' : 'CONFORMANCE_IMAGE'
      } names another`,
    });
  }
  // Keys are a deployment's. Set without its address, the run would test the bundled mock, pass, and
  // be read as a verdict on the deployment: refused unless the bundled mock is asked for outright.
  const mockAsked = raw.CONFORMANCE_TARGET !== undefined || MOCK_SETTINGS.some((n) => raw[n] !== undefined);
  if ((team !== undefined || otherTeam !== undefined) && !raw.CONFORMANCE_BASE_URL && !raw.CONFORMANCE_IMAGE && !mockAsked) {
    errors.push({
      code: 'keys_without_base_url',
      setting: team !== undefined ? 'CONFORMANCE_API_KEY' : 'CONFORMANCE_API_KEY_OTHER_TEAM',
      message:
        'is set but CONFORMANCE_BASE_URL is not: the run would test the bundled mock, not your deployment; set CONFORMANCE_BASE_URL (or --config <file>), or run the bundled mock with --target bundled-mock',
    });
  }
  if (team !== undefined && otherTeam === undefined) {
    errors.push({
      code: 'key_without_other_team_key',
      setting: 'CONFORMANCE_API_KEY_OTHER_TEAM',
      message: "CONFORMANCE_API_KEY is set but the other team's key is not; isolation checks need both",
    });
  }
  if (otherTeam !== undefined && team === undefined) {
    errors.push({ code: 'missing_setting', setting: 'CONFORMANCE_API_KEY', message: 'CONFORMANCE_API_KEY_OTHER_TEAM is set but CONFORMANCE_API_KEY is not' });
  }
  if (team !== undefined && team === otherTeam) {
    errors.push({
      code: 'same_key_for_both_teams',
      setting: 'CONFORMANCE_API_KEY_OTHER_TEAM',
      message: "the two teams' keys are equal; they must belong to different teams",
    });
  }
  if (raw.CONFORMANCE_BASE_URL && team === undefined) {
    errors.push({
      code: 'missing_setting',
      setting: 'CONFORMANCE_API_KEY',
      message: 'CONFORMANCE_BASE_URL is set; the deployment needs CONFORMANCE_API_KEY and CONFORMANCE_API_KEY_OTHER_TEAM',
    });
  }
}
