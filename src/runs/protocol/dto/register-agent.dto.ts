import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** `POST /api/v2/agent/register`: plain JSON, not JSON:API. */
export class RegisterAgentBody {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  name: string;
}
