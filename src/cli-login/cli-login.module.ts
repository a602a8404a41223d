import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module';
import { CliLoginService } from './cli-login.service';
import { LoginCodeEntity } from './entities/login-code.entity';
import { LoginCodesRepository } from './login-codes.repository';
import { SignInController } from './sign-in.controller';
import { TokenController } from './token.controller';

/** `terraform login` (`login.v1`): the sign-in page and the code exchange. */
@Module({
  imports: [TypeOrmModule.forFeature([LoginCodeEntity]), TokensModule],
  controllers: [SignInController, TokenController],
  providers: [CliLoginService, LoginCodesRepository],
})
export class CliLoginModule {}
