import { parseArgs } from 'node:util';
import { createKeyring } from './auth/keyring.ts';
import { issueSessionToken } from './auth/session.ts';
import { keepNewFilesPrivate, loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/database.ts';
import { bootstrap } from './domain/bootstrap.ts';

const usage = 'usage: npm run cli -- bootstrap --email E --name N --org O';

const [command, ...rest] = process.argv.slice(2);
if (command !== 'bootstrap') {
  console.error(usage);
  process.exit(2);
}
const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, name: { type: 'string' }, org: { type: 'string' } } });
if (!values.email || !values.org) {
  console.error(usage);
  process.exit(2);
}
keepNewFilesPrivate(); // it may be the first to create the data folder's database
const config = loadConfigOrExit({ ...process.env, LOG_LEVEL: 'silent' });
const database = await openDatabase(config);
const keyring = createKeyring(config.secret);
const result = await bootstrap(database, keyring, { email: values.email, name: values.name ?? values.email, organizationName: values.org });
console.log(JSON.stringify({ session_token: await issueSessionToken(database, keyring, result.userId), organization_id: result.organizationId, api_key: result.apiKey }));
await database.destroy();
