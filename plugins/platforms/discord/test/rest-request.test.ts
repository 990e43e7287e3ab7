import { Blob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { undiciFormData } from '../rest-request.js';

describe('undiciFormData', () => {
  it("copies an upload's fields and files, names and types kept, into undici's FormData", async () => {
    const form = new globalThis.FormData();
    form.append('payload_json', '{"content":""}');
    form.append('files[0]', new Blob([Buffer.from('PNG bytes')], { type: 'image/png' }), 'chart.png');
    const copy = undiciFormData(form);
    expect(copy).not.toBeInstanceOf(globalThis.FormData);
    expect(copy.get('payload_json')).toBe('{"content":""}');
    const file = copy.get('files[0]');
    expect(file).toMatchObject({ name: 'chart.png', type: 'image/png' });
    expect(typeof file === 'object' && file !== null ? await file.text() : '').toBe('PNG bytes');
  });
});
