import { writeFileSync } from 'node:fs';
import { API_CONTRACT_FILE, renderApiContract } from './api-contract';

/** `npm run openapi`: writes the API contract to openapi.json in the working directory (the repository root). */
void renderApiContract().then((contract) => writeFileSync(API_CONTRACT_FILE, contract));
