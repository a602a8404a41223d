/**
 * The TypeORM CLI's data source (`npm run migration:run`, `npm run migration:generate`).
 * It reads the same environment as the server: DATABASE_URL picks the dialect and database.
 */
import 'reflect-metadata';
import { AppConfig } from './src/config/app-config';
import { newDataSource, openDataSourceOptions } from './src/persistence/data-source-options';

// A promise of the data source (the CLI awaits it): the server is asked which dialect it speaks.
export default openDataSourceOptions(new AppConfig()).then((options) =>
  newDataSource({ ...options, entities: [`${__dirname}/src/**/*.entity.ts`] }),
);
