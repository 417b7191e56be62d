import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/html.ts';

describe('escapeHtml', () => {
  it('escapes every character that starts markup or ends a quoted attribute', () => {
    expect(escapeHtml(`"><img src=x onerror=alert(1)>`)).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`' onmouseover='alert(1)`)).toBe('&#39; onmouseover=&#39;alert(1)');
    expect(escapeHtml('a & b &amp; <script>')).toBe('a &amp; b &amp;amp; &lt;script&gt;');
    expect(escapeHtml('Zoë Ødegård, O’Neil\n')).toBe('Zoë Ødegård, O’Neil\n');
  });
});
