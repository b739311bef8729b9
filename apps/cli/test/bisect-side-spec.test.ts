// The side syntax of bisect/find: what each form means and the one-line errors for bad ones.
import { describe, expect, it } from 'vitest';
import { parseLayerList, parseSideSpec, SpecError } from '../src/bisect/side-spec.ts';

describe('parseSideSpec', () => {
  it('defaults every layer to the workspace and the runtime to the current node', () => {
    const spec = parseSideSpec('workspace');
    expect(Object.values(spec.layers).every((s) => s.kind === 'workspace')).toBe(true);
    expect(spec.runtime).toEqual({ kind: 'current' });
  });

  it('applies a bare source to every code layer and lets later items override one layer', () => {
    const spec = parseSideSpec('git:HEAD~1,sha1-dispatch=git:abc123,runtime=node@16.20.2');
    expect(spec.layers['aes-core']).toEqual({ kind: 'git', ref: 'HEAD~1' });
    expect(spec.layers['bench-runner']).toEqual({ kind: 'git', ref: 'HEAD~1' });
    expect(spec.layers['sha1-dispatch']).toEqual({ kind: 'git', ref: 'abc123' });
    expect(spec.runtime).toEqual({ kind: 'node', version: '16.20.2' });
    expect(spec.text).toBe('git:HEAD~1,sha1-dispatch=git:abc123,runtime=node@16.20.2');
  });

  it('reads a bare node@ as the runtime and a path as a node binary', () => {
    expect(parseSideSpec('node@20.11.1').runtime).toEqual({ kind: 'node', version: '20.11.1' });
    expect(parseSideSpec('runtime=/opt/node/bin/node').runtime).toEqual({ kind: 'path', path: '/opt/node/bin/node' });
  });

  it('tells a whole-checkout dir from a one-package dir, and takes tarballs per layer only', () => {
    expect(parseSideSpec('dir:../old').layers.cmac).toEqual({ kind: 'dir', path: '../old', whole: true });
    expect(parseSideSpec('cmac=dir:/x/cmac').layers.cmac).toEqual({ kind: 'dir', path: '/x/cmac', whole: false });
    expect(parseSideSpec('esp=tgz:esp-0.1.0.tgz').layers.esp).toEqual({ kind: 'tgz', path: 'esp-0.1.0.tgz' });
    expect(() => parseSideSpec('tgz:esp-0.1.0.tgz')).toThrow(/tarball is one package; write <layer>=tgz:/);
  });

  it.each([
    ['svn:1', /unknown source 'svn:1'/],
    ['aes=git:HEAD', /unknown layer 'aes'/],
    ['git:', /needs a value after 'git:'/],
    ['git:HEAD,,cmac=workspace', /empty item/],
    ['node@16', /exact version like node@16.20.2/],
    ['runtime=sixteen', /not current, node@<x.y.z> or a path/],
  ])('rejects %s with a clear message', (text, message) => {
    expect(() => parseSideSpec(text, '--bad')).toThrow(SpecError);
    expect(() => parseSideSpec(text, '--bad')).toThrow(message);
  });
});

describe('parseLayerList', () => {
  it('accepts known layers once each', () => {
    expect(parseLayerList('sha1-dispatch,runtime,sha1-dispatch')).toEqual(['sha1-dispatch', 'runtime']);
  });
  it('rejects unknown layers', () => {
    expect(() => parseLayerList('sha1')).toThrow(/unknown layer 'sha1'/);
  });
});
