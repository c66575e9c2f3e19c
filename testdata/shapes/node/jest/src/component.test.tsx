// Jest, TSX: JSX in a test file.
import { describe, expect, it } from '@jest/globals';

const h = (type: string, props: Record<string, unknown> | null, ...children: unknown[]) => ({ type, props: { ...props, children: children.length === 1 ? children[0] : children } });

const view = (label: string) => <span className="label">{label}</span>;

describe('component', () => {
  it('renders a label', () => {
    const el = view('hi');
    expect(el.props.children).toBe('hi');
  });
});
