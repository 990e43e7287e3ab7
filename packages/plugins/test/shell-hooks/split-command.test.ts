import { describe, expect, it } from 'vitest';
import { CommandSyntaxError, splitCommand } from '../../src/index.js';

describe('splitCommand', () => {
  it.each([
    ['simple words', 'a b  c', ['a', 'b', 'c']],
    ['tabs and newlines separate', 'a\tb\nc', ['a', 'b', 'c']],
    ['leading and trailing space', '  a  ', ['a']],
    ['empty string', '', []],
    ['only space', '   ', []],
    ['single quotes are literal', `echo 'a  b' '$HOME' 'x\\y'`, ['echo', 'a  b', '$HOME', 'x\\y']],
    ['double quotes group', 'echo "a  b"', ['echo', 'a  b']],
    ['double quote escapes', String.raw`echo "a\"b" "c\\d" "\$x" "\e"`, ['echo', 'a"b', 'c\\d', '$x', '\\e']],
    ['backslash escapes outside quotes', String.raw`a\ b c\"d \'e`, ['a b', 'c"d', "'e"]],
    ['quotes join with neighbours', `a'b'"c"d`, ['abcd']],
    ['empty quoted words are kept', `x '' ""`, ['x', '', '']],
    ['backslash-newline continues', 'a\\\nb', ['ab']],
    ['no globbing, no pipes, no variables', 'ls *.txt | wc $HOME; echo', ['ls', '*.txt', '|', 'wc', '$HOME;', 'echo']],
    ['hash is not a comment', 'echo # not a comment', ['echo', '#', 'not', 'a', 'comment']],
  ])('%s', (_name, input, expected) => {
    expect(splitCommand(input)).toEqual(expected);
  });

  it('expands an unquoted leading ~ and ~/ to the home directory, nothing else', () => {
    const home = '/home/ann';
    expect(splitCommand('~/hooks/x.sh ~ a~ ~/b', { home })).toEqual([
      '/home/ann/hooks/x.sh',
      '/home/ann',
      'a~',
      '/home/ann/b',
    ]);
    expect(splitCommand(`'~/x' "~/y" \\~/z ~user/w ~"/v"`, { home })).toEqual(['~/x', '~/y', '~/z', '~user/w', '~/v']);
    expect(splitCommand('--path=~/x', { home })).toEqual(['--path=~/x']);
    expect(splitCommand('~/x')).toEqual(['~/x']); // no home given: no expansion
  });

  it.each([
    ['unclosed single quote', "echo 'abc"],
    ['unclosed double quote', 'echo "abc'],
    ['trailing backslash', 'echo abc\\'],
  ])('throws CommandSyntaxError on %s', (_name, input) => {
    expect(() => splitCommand(input)).toThrow(CommandSyntaxError);
  });
});
