// Command line of the native schema-engine binary, as the prisma CLI invokes it:
//   schema-engine --version
//   schema-engine [--datamodels <file>]... [--datasource <json>] [--enabled-preview-features <list>]
//                 [--extension-types <json>]                         -> JSON-RPC server on stdio
//   schema-engine --datasource <json> cli <can-connect-to-database|create-database|drop-database>

export interface Datasource {
  url?: string;
  shadowDatabaseUrl?: string;
}

export type Invocation =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'cli'; command: string; datasource: Datasource }
  | { kind: 'rpc'; datamodels: string[]; datasource: Datasource };

export const USAGE = `prisma-bridge schema-engine (WASM schema engine + @prisma/adapter-pg, PostgreSQL only)

USAGE:
    schema-engine [--datamodels <FILE>]... [--datasource <JSON>]        JSON-RPC server on stdio
    schema-engine --datasource <JSON> cli <COMMAND>                    COMMAND: can-connect-to-database,
                                                                       create-database, drop-database
    schema-engine --version`;

function parseDatasource(json: string): Datasource {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('--datasource must be a JSON object');
  }
  if (typeof value !== 'object' || value === null) throw new Error('--datasource must be a JSON object');
  const { url, shadowDatabaseUrl } = value as Record<string, unknown>;
  return {
    url: typeof url === 'string' ? url : undefined,
    shadowDatabaseUrl: typeof shadowDatabaseUrl === 'string' ? shadowDatabaseUrl : undefined,
  };
}

export function parseArgs(argv: readonly string[]): Invocation {
  const datamodels: string[] = [];
  let datasource: Datasource = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '--version':
      case '-V':
        return { kind: 'version' };
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--datamodels':
      case '--datamodel':
      case '-d':
        datamodels.push(value());
        break;
      case '--datasource':
        datasource = parseDatasource(value());
        break;
      case '--enabled-preview-features':
      case '--extension-types':
        value(); // The WASM engine takes neither; nothing the PostgreSQL migrate flow depends on.
        break;
      case 'cli': {
        const command = argv[i + 1];
        if (command === undefined || argv.length > i + 2)
          throw new Error('usage: schema-engine --datasource <JSON> cli <COMMAND>');
        return { kind: 'cli', command, datasource };
      }
      default:
        throw new Error(`unknown argument: ${arg}`);
    }
  }
  return { kind: 'rpc', datamodels, datasource };
}
