// The tests of layer-shared.ts, run by every layer against its own copy
// (src/layer-shared.test.ts in each layer package calls testLayerShared),
// together with the check that the copy is what scripts/copy-layer-shared.mjs
// writes.
import { execFileSync } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

type LayerShared = typeof import('./layer-shared.ts');

const script = fileURLToPath(new URL('../scripts/copy-layer-shared.mjs', import.meta.url));

export function testLayerShared(shared: LayerShared): void {
  describe('layer-shared', () => {
    it('this copy is what scripts/copy-layer-shared.mjs writes (edit layer-shared/layer-shared.ts, then run it)', () => {
      expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
    });

    it('isBytes accepts Uint8Array, Buffer and a Uint8Array of another realm, nothing else', () => {
      const foreign = runInNewContext('new Uint8Array(3)') as unknown;
      expect(foreign instanceof Uint8Array).toBe(false);
      for (const yes of [new Uint8Array(0), Buffer.from('ab'), new Uint8Array(8).subarray(2), foreign]) {
        expect(shared.isBytes(yes)).toBe(true);
      }
      for (const no of [
        null,
        undefined,
        'ab',
        3,
        [1, 2],
        new Uint16Array(2),
        new Uint8ClampedArray(2),
        new DataView(new ArrayBuffer(2)),
        new ArrayBuffer(2),
        {},
        Object.create(null),
      ]) {
        expect(shared.isBytes(no)).toBe(false);
      }
    });

    it('checkBytes names the argument and what it got', () => {
      expect(() => shared.checkBytes('x', 'AES key')).toThrow(
        new TypeError('AES key must be a Uint8Array, got string'),
      );
      expect(() => shared.checkBytes(null, 'CMAC message')).toThrow('CMAC message must be a Uint8Array, got null');
      expect(() => shared.checkBytes([1], 'sha1: message')).toThrow('sha1: message must be a Uint8Array, got Array');
      expect(() => shared.checkBytes(new Uint16Array(1), 'packet')).toThrow(
        'packet must be a Uint8Array, got Uint16Array',
      );
      expect(() => shared.checkBytes(Object.create(null), 'tag')).toThrow('tag must be a Uint8Array, got object');
      expect(() => shared.checkBytes(Buffer.alloc(1), 'tag')).not.toThrow();
    });

    it('constantTimeEqual: equal bytes only, any length, any differing position', () => {
      expect(shared.constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
      expect(shared.constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toBe(false);
      const a = Uint8Array.from({ length: 20 }, (_, i) => i * 13);
      expect(shared.constantTimeEqual(a, a.slice())).toBe(true);
      for (let i = 0; i < a.length; i++) {
        for (const bit of [1, 0x80]) {
          const b = a.slice();
          b[i]! ^= bit;
          expect(shared.constantTimeEqual(a, b)).toBe(false);
        }
      }
    });

    it('implOption reads impl, or its deprecated alias backend, and refuses the two disagreeing', () => {
      expect(shared.implOption({}, 'f')).toBeUndefined();
      expect(shared.implOption({ impl: 'ct' }, 'f')).toBe('ct');
      expect(shared.implOption({ backend: 'ct' }, 'f')).toBe('ct');
      expect(shared.implOption({ impl: 'ct', backend: 'ct' }, 'f')).toBe('ct');
      expect(() => shared.implOption({ impl: 'ct', backend: 'node' }, 'createAes')).toThrow(
        new TypeError(
          "createAes options: impl 'ct' and backend 'node' (its deprecated alias) name different backends; give impl only",
        ),
      );
    });

    it('the errors carry a stable code and the details a caller needs', () => {
      const unknown = new shared.ImplementationError('no such', {
        unknown: true,
        layer: 'aes-core',
        requested: 'x',
        available: ['table'],
        variable: 'LAYERBENCH_AES_BACKEND',
      });
      expect(unknown).toBeInstanceOf(Error);
      expect(unknown).toMatchObject({
        name: 'ImplementationError',
        code: 'ERR_LAYERBENCH_UNKNOWN_IMPL',
        layer: 'aes-core',
        requested: 'x',
        available: ['table'],
        variable: 'LAYERBENCH_AES_BACKEND',
        message: 'no such',
      });
      const unavailable = new shared.ImplementationError('cannot', {
        unknown: false,
        layer: 'esp',
        requested: 'y',
        available: [],
      });
      expect(unavailable).toMatchObject({ code: 'ERR_LAYERBENCH_IMPL_UNAVAILABLE', variable: undefined });
      const env = new shared.EnvironmentValueError('bad', 'LAYERBENCH_CAPS', '~x');
      expect(env).toBeInstanceOf(RangeError);
      expect(env).toMatchObject({
        name: 'EnvironmentValueError',
        code: 'ERR_LAYERBENCH_BAD_ENV_VALUE',
        variable: 'LAYERBENCH_CAPS',
        value: '~x',
      });
      expect(new shared.DestroyedError('gone')).toMatchObject({
        name: 'DestroyedError',
        code: 'ERR_LAYERBENCH_DESTROYED',
        message: 'gone',
      });
    });
  });
}
