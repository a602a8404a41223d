import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class CreateAgentTokenAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  description: string;
}
