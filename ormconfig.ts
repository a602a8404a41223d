/**
 * The TypeORM CLI's data source (`npm run migration:run`, `npm run migration:generate`).
 * It reads the same environment as the server: DATABASE_URL picks the dialect and database.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

export default new DataSource({
  ...dataSourceOptions(new AppConfig()),
  entities: [`${__dirname}/src/**/*.entity.ts`],
});
