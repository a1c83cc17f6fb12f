import { startServer } from '/work/main/server/index';
import { RecordTableClient } from '/work/main/core/api/index';
const s = await startServer({ memory: true, rateLimit: 'off' });
const c = new RecordTableClient({ baseUrl: s.url, apiKey: s.apiKey });
const base = await c.meta.createBase({ name: 'B', tables: [
  { name: 'Companies', fields: [{ name: 'Name', type: 'singleLineText' }] },
  { name: 'People', fields: [{ name: 'Name', type: 'singleLineText' }] } ] });
const companies = base.tables.find((t) => t.name === 'Companies')!;
const people = base.tables.find((t) => t.name === 'People')!;
await c.meta.createField(base.id, people.id, { name: 'Company', type: 'multipleRecordLinks', options: { linkedTableId: companies.id } });
const [co] = await c.table(base.id, 'Companies').createMany([{ Name: 'c0' }]);
const ps = await c.table(base.id, 'People').createMany([{ Name: 'p0', Company: [co!.id] }, { Name: 'p1', Company: [co!.id] }]);
const schema = await c.meta.baseSchema(base.id);
console.log(JSON.stringify(schema.find((t) => t.name === 'Companies')!.fields.map((f) => [f.name, f.type])));
console.log(JSON.stringify((await c.table(base.id, 'Companies').get(co!.id)).fields));
const rev = schema.find((t) => t.name === 'Companies')!.fields.find((f) => f.type === 'multipleRecordLinks')!;
await c.table(base.id, 'Companies').update(co!.id, { [rev.name]: [ps[1]!.id] });
console.log(JSON.stringify((await c.table(base.id, 'People').get(ps[0]!.id)).fields), JSON.stringify((await c.table(base.id, 'Companies').get(co!.id)).fields));
await s.close();
