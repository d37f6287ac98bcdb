// Misconfiguration as data: a stable code, the setting concerned, and a message that never
// repeats the value of a key.
export type ConfigErrorCode =
  | 'config_file_unreadable'
  | 'config_file_invalid'
  | 'unknown_setting'
  | 'invalid_url'
  | 'missing_setting'
  | 'key_without_other_team_key'
  | 'same_key_for_both_teams'
  | 'unknown_shape'
  | 'malformed_sort_fields'
  | 'invalid_path'
  | 'path_missing_id'
  | 'invalid_integer'
  | 'invalid_flag'
  | 'invalid_only_pattern'
  | 'unknown_target'
  | 'conflicting_targets'
  | 'base_url_has_api_path'
  | 'invalid_duration'
  | 'invalid_id_list'
  | 'keys_without_base_url';

export interface ConfigError {
  code: ConfigErrorCode;
  setting: string;
  message: string;
}

/** One line per error: the setting, what is wrong with it, the stable code. */
export const configErrorLine = (e: ConfigError): string => `${e.setting}: ${e.message} [${e.code}]`;

export class ConfigurationFailed extends Error {
  constructor(readonly errors: ConfigError[]) {
    super(`conformance configuration is invalid:\n${errors.map((e) => `  ${configErrorLine(e)}`).join('\n')}`);
    this.name = 'ConfigurationFailed';
  }
}
