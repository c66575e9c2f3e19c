// Vitest, TSX: JSX compiled by esbuild with a local factory.
/** @jsxRuntime classic */
/** @jsx h */
import { describe, expect, it } from 'vitest';

const h = (type: string, props: Record<string, unknown> | null, ...children: unknown[]) => ({ type, props, children });

describe('ui', () => {
  it('builds an element', () => {
    const el = <b id="x">hi</b>;
    expect(el.type).toBe('b');
  });
});
