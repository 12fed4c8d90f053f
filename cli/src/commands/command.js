// @ts-check
import { UsageError } from '../errors.js';

/** @import { ParseArgsConfig } from 'node:util' */
/** @import { Context } from '../context.js' */

/**
 * @typedef {Record<string, string | boolean | (string | boolean)[] | undefined>} OptionValues
 * @typedef {{ values: OptionValues; positionals: string[] }} ParsedArgs
 * @typedef {NonNullable<ParseArgsConfig['options']>} OptionsConfig
 */

/**
 * One `takes` command. Its usage text is printed for --help and after a usage error.
 * @typedef {object} Command
 * @property {string} name what is typed after `takes`, e.g. `repo create`
 * @property {string} summary one line for `takes --help`
 * @property {string} usage
 * @property {OptionsConfig} options its own options (the shared ones are added)
 * @property {number} [positionals] how many positional arguments it takes (default none)
 * @property {(ctx: Context, args: ParsedArgs) => Promise<void>} run
 */

/**
 * @param {OptionValues} values
 * @param {string} name
 * @returns {string | undefined}
 */
export function stringOption(values, name) {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A string option that must be there and not blank.
 * @param {Command} command
 * @param {OptionValues} values
 * @param {string} name
 * @param {string} message
 */
export function requiredOption(command, values, name, message) {
  const value = stringOption(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(message, command.usage);
  return value;
}
