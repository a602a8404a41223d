import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
  });
  await configureApp(app);
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  app.getHttpServer().keepAliveTimeout = 65_000;
}

void bootstrap();
