/**
 * The mirror CLI's command line: help wherever it is asked for, and every misuse (an unknown option or
 * command, a missing or malformed argument) found before the CLI touches the disk (the spawned CLI's exit
 * codes and its data folder: test/integration/mirror/cli.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { readCommandLine } from '../../../host/mirror-cli-args';

const KEY = 'keyOfTheService00000';
const DATA = ['--data', '/tmp/tabledesk-data'];
const URL = ['--url', 'http://127.0.0.1:8080'];

describe('the mirror CLI command line', () => {
  it.each([
    [['--help']],
    [['-h']],
    [['help']],
    [['help', 'pull']],
    [['pull', '--help']],
    [['pull', '-h', '--data']],
    [['--bogus', '--help']],
  ])('%j is help', (argv) => {
    expect(readCommandLine(argv, KEY)).toEqual({ kind: 'help' });
  });

  it.each([
    [[], /give one of/i],
    [['--bogus'], /unknown option '--bogus'/i],
    [['--help=yes'], /does not take an argument/],
    [['-x', 'status'], /unknown option '-x'/i],
    [['sync', ...DATA], /no command "sync"/i],
    [['status', 'extra', ...DATA], /unexpected argument "extra"/i],
    [['status'], /--data/],
    [['status', '--data'], /argument missing/i],
    [['status', '--data', ''], /--data/],
    [['pull', ...DATA, ...URL], /--base/],
    [['pull', ...DATA, '--base', 'appX'], /--url/],
    [['pull', ...DATA, '--base', 'appX', '--url', 'notaurl'], /--url/],
    [['pull', ...DATA, '--base', 'appX', '--url', 'file:///etc/passwd'], /--url/],
    [['pull', ...DATA, ...URL, '--base', 'appX', '--tables', ' , '], /--tables/],
    [['status', ...DATA, '--local-rate-limit', 'abc'], /--local-rate-limit/],
    [['status', ...DATA, '--local-rate-limit', '0'], /--local-rate-limit/],
    [['remove', ...DATA], /--base/],
    [['push', ...DATA], /--url/],
    [['resolve', ...DATA, ...URL, '--all'], /--choice/],
    [['resolve', ...DATA, ...URL, '--all', '--choice', 'both'], /--choice/],
    [['resolve', ...DATA, ...URL, '--all', '--choice', 'edit'], /--value/],
    [['resolve', ...DATA, ...URL, '--all', '--choice', 'edit', '--value', 'text'], /--value must be JSON/],
    [['resolve', ...DATA, ...URL, '--choice', 'mine'], /--conflict .* or --all/],
    [['resolve', ...DATA, ...URL, '--choice', 'mine', '--all', '--conflict', 'cnf1'], /one of the two/],
  ])('%j is a misuse', (argv, message) => {
    const line = readCommandLine(argv, KEY);
    expect(line.kind).toBe('misuse');
    expect(line.kind === 'misuse' && line.message).toMatch(message);
  });

  it('needs the key from the environment for the commands that reach the service', () => {
    for (const command of [['pull', '--base', 'appX'], ['push'], ['resolve', '--all', '--choice', 'mine']])
      expect(readCommandLine([...command, ...DATA, ...URL], undefined)).toMatchObject({
        kind: 'misuse',
        message: expect.stringMatching(/TABLEDESK_API_KEY/),
      });
    expect(readCommandLine(['status', ...DATA], undefined)).toMatchObject({ kind: 'run' });
  });

  it('reads a command line that makes sense', () => {
    expect(
      readCommandLine(['pull', ...DATA, ...URL, '--base', 'appX', '--tables', 'tblA, tblB,'], KEY),
    ).toEqual({
      kind: 'run',
      run: {
        command: 'pull',
        dataDir: '/tmp/tabledesk-data',
        connectionId: 'cli',
        remote: { url: 'http://127.0.0.1:8080', apiKey: KEY },
        baseId: 'appX',
        tableIds: ['tblA', 'tblB'],
        conflictIds: [],
        all: false,
        force: false,
        localRateLimit: 5,
      },
    });
    expect(
      readCommandLine(
        [
          'resolve',
          ...DATA,
          ...URL,
          '--choice',
          'edit',
          '--value',
          '"typed"',
          '--conflict',
          'cnf1',
          '--conflict',
          'cnf2',
        ],
        KEY,
      ),
    ).toMatchObject({
      kind: 'run',
      run: { choice: 'edit', value: 'typed', conflictIds: ['cnf1', 'cnf2'], all: false },
    });
    expect(readCommandLine(['status', ...DATA, '--local-rate-limit', 'off'], KEY)).toMatchObject({
      kind: 'run',
      run: { command: 'status', localRateLimit: 'off' },
    });
    expect(readCommandLine(['status', ...DATA], KEY)).not.toHaveProperty('run.remote');
  });
});
