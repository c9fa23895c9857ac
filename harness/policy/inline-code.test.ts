import { describe, expect, it } from 'vitest';
import { inlineFacts, stringLiterals } from './inline-code.ts';

describe('inline interpreter programs', () => {
  it('string literals, escapes and templates without interpolation', () => {
    expect(stringLiterals(`a('x', "y\\"z", \`t\`, \`\${v}\`)`)).toEqual(['x', 'y"z', 't']);
  });

  it('path literals are seen; words, URLs and format strings are not', () => {
    const f = inlineFacts(
      'python3',
      `open('/srv/data.db'); print('hello world', 'a', '%s/x', 'https://h.example/p', '/', 'tests/x', '.netrc')`,
    );
    expect(f.paths).toEqual(['/srv/data.db', 'tests/x', '.netrc']);
    expect(f.writes).toBe(false);
  });

  it('writes, home, environment, network and deletion are recognised per language', () => {
    expect(inlineFacts('python3', `open('out.txt', 'a').write('x')`).writes).toBe(true);
    expect(inlineFacts('node', `require('fs').appendFileSync('log', 'x')`).writes).toBe(true);
    expect(inlineFacts('ruby', `puts Dir.home`).home).toBe(true);
    expect(inlineFacts('python3', `import pathlib; pathlib.Path.home()`).home).toBe(true);
    expect(inlineFacts('perl', `print $ENV{HOME}`).home).toBe(true);
    expect(inlineFacts('node', `console.log(process.env)`).environment).toBe(true);
    expect(inlineFacts('python3', `import http.client`).network).toBe('http.client');
    expect(inlineFacts('node', `const n = require('net'); n.connect(80)`).network).toBe('net');
    expect(inlineFacts('ruby', `require 'open-uri'; URI.open('x')`).network).toBeDefined();
    expect(inlineFacts('node', `require('fs').rmSync('dist', {recursive: true})`).deletes).toBe('rmSync');
    expect(inlineFacts('ruby', `FileUtils.rm_rf('tmp')`).deletes).toBeDefined();
    expect(inlineFacts('python3', `print(1 + 1)`)).toEqual({
      paths: [],
      writes: false,
      home: false,
      environment: false,
      commands: [],
    });
  });

  it('shell commands handed to the system are given; one built at run time is dynamic', () => {
    expect(inlineFacts('python3', `import os; os.system("touch a")`).commands).toEqual(['touch a']);
    expect(inlineFacts('python3', `import subprocess; subprocess.run(['touch', 'a b'])`).commands).toEqual([
      "touch 'a b'",
    ]);
    expect(inlineFacts('node', `require('child_process').execSync('touch a')`).commands).toEqual(['touch a']);
    expect(inlineFacts('perl', 'print `touch a`').commands).toEqual(['touch a']);
    expect(inlineFacts('ruby', 'x = %x(touch a)').commands).toEqual(['touch a']);
    expect(inlineFacts('python3', `import os; os.system(cmd)`).dynamicCommand).toBe('os.system');
    expect(inlineFacts('node', `require('child_process').execSync(c)`).dynamicCommand).toBe('execSync');
  });
});
