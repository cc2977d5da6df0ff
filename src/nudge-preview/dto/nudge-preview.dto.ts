import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PREVIEW_TTL_SECONDS = 3600;
export const MAX_PREVIEW_TTL_SECONDS = 2_592_000;
export const MAX_PREVIEW_ID_LENGTH = 255;

/**
 * Body of `POST /nudge/preview/`. Type errors answer INVALID_REQUEST; a null,
 * missing or empty `id` or `template` is the service's
 * NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION (seed), hence optional here.
 */
export class WriteNudgePreviewDto {
  @ApiProperty({ type: String, example: 'spring-sale-banner', maxLength: MAX_PREVIEW_ID_LENGTH })
  @IsOptional()
  @MaxLength(MAX_PREVIEW_ID_LENGTH)
  @IsString()
  id?: string | null;

  @ApiProperty({
    type: String,
    example: '<div class="banner">Spring sale 🌸</div>',
    description: 'HTML, JSON or any template text, up to the body limit',
  })
  @IsOptional()
  @IsString()
  template?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 600,
    minimum: 1,
    maximum: MAX_PREVIEW_TTL_SECONDS,
    description: `seconds until the preview expires; absent or null: ${DEFAULT_PREVIEW_TTL_SECONDS}`,
  })
  @IsOptional()
  @Max(MAX_PREVIEW_TTL_SECONDS)
  @Min(1)
  @IsInt()
  ttl?: number | null;
}

/** A preview as the SDK reads it. */
export interface NudgePreview {
  id: string;
  template: string;
  tenantId: string;
  ttl: number;
}

/** Its answer schema; every field is sent, though the document has never marked them required. */
export class NudgePreviewDto implements NudgePreview {
  @ApiPropertyOptional()
  id: string;

  @ApiPropertyOptional()
  template: string;

  @ApiPropertyOptional()
  tenantId: string;

  @ApiPropertyOptional({ type: 'integer' })
  ttl: number;
}
