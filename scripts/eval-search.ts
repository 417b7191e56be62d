/**
 * The need set's hit rate (services/ai/test/fixtures/needs.json): how often a plain-language need gets a
 * fitting product as the search's first answer. Offline (the bundled catalogue, no AI key) by default;
 * `--model` asks the language model configured by OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL) first,
 * exactly as the ai service does.
 *
 *   npm run eval:search
 *   OPENAI_API_KEY=sk-... npm run eval:search -- --model
 */
import pino from 'pino';
import { languageModel } from '@app/llm';
import { catalogueNeeds, catalogueSource, loadCatalogue } from '../services/ai/src/catalogue/catalogue.ts';
import { productSearch } from '../services/ai/src/search/search.ts';
import { evaluateNeeds, loadNeeds, NEED_SETS, report } from '../services/ai/test/need-set.ts';

const withModel = process.argv.includes('--model');
const log = pino({ level: withModel ? 'warn' : 'silent' });
const env = process.env;
const model = withModel
  ? languageModel(
      {
        OPENAI_API_KEY: env.OPENAI_API_KEY,
        OPENAI_BASE_URL: env.OPENAI_BASE_URL,
        OPENAI_MODEL: env.OPENAI_MODEL ?? 'gpt-4o-mini',
        OPENAI_TIMEOUT_MS: Number(env.OPENAI_TIMEOUT_MS ?? 20_000),
        OPENAI_MAX_RETRIES: Number(env.OPENAI_MAX_RETRIES ?? 2),
      },
      log,
    )
  : null;
if (withModel && !model) {
  console.error('--model needs OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server) in the environment');
  process.exit(2);
}
const catalogue = loadCatalogue();
const search = productSearch({ sources: [catalogueSource(catalogue)], model, needs: catalogueNeeds(catalogue) });
const how = model ? `model ${model.model}` : 'offline (bundled catalogue)';
const ask = (query: string) => search.answer(query, log);
for (const [which, file] of Object.entries(NEED_SETS) as Array<[keyof typeof NEED_SETS, string]>)
  console.log(report(await evaluateNeeds(ask, loadNeeds(which)), `${file}, ${how}`));
