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
  | 'invalid_id_list';

export interface ConfigError {
  code: ConfigErrorCode;
  setting: string;
  message: string;
}

export class ConfigurationFailed extends Error {
  constructor(readonly errors: ConfigError[]) {
    super(`conformance configuration is invalid:\n${errors.map((e) => `  - [${e.code}] ${e.setting}: ${e.message}`).join('\n')}`);
    this.name = 'ConfigurationFailed';
  }
}
