import { DataSource } from 'typeorm';
import { loadAppConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/orchestration-schema';

/** DataSource for the TypeORM CLI (`npm run migration:run`): the app's own options. */
export default new DataSource(dataSourceOptions(loadAppConfig(process.env).dbUrl));
