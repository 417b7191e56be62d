import { describe, expect, it } from 'vitest';
import { webhookBody } from '../src/webhook-repository.ts';

// Webhook bodies carry user text (client, vendor, product names) as JSON values: a name cannot close its
// string, add a field, or change the event's type.

describe('a webhook body', () => {
  it('keeps hostile names as JSON strings: nothing added, nothing replaced', () => {
    const data = {
      referralId: 7,
      vendorId: 'v1',
      vendorName: 'Acme", "type": "commission.created", "x": "',
      referrerName: 'Back\\slash\\", "admin": true, "',
      clientName: '</script><script>alert(1)</script>\u2028\u2029',
      productName: 'Line\r\nBreak\ttab\u0000nul',
    };
    const body = webhookBody('lead.created', '2026-01-02T03:04:05.000Z', data);
    expect(JSON.parse(body)).toEqual({ type: 'lead.created', timestamp: '2026-01-02T03:04:05.000Z', data });
    expect(Object.keys(JSON.parse(body) as object)).toEqual(['type', 'timestamp', 'data']);
    expect(body).toContain('"vendorName":"Acme\\", \\"type\\": \\"commission.created\\", \\"x\\": \\""');
    expect(body).toContain('"productName":"Line\\r\\nBreak\\ttab\\u0000nul"');
    expect(body).not.toMatch(/[\r\n\t\0]/);
  });
});
