import { Injectable } from '@nestjs/common';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { BehaviourTagReader } from '../behaviour-tags/behaviour-tag.reader';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { CtaRecord, toCtaRecord } from './cta-record';
import { CtaRecords } from './cta-records.service';
import { CtaTagEntity } from './cta-tag.entity';
import { CtaEntity } from './cta.entity';
import { CTA_STATUSES, CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { ListCtasQueryDto } from './dto/list-ctas-query.dto';

export interface CtaPage {
  ctas: CtaRecord[];
  totalEntries: number;
  totalPages: number;
  pageNumber: number;
  pageSize: number;
  statusWiseCount: Record<CtaStatus, number>;
}

export interface FilterValues {
  names: string[];
  teams: string[];
  tags: string[];
  createdBy: string[];
}

/** `LIKE` escape character: the same on SQLite and MySQL (a backslash literal is not). */
const LIKE_ESCAPE = '!';
const likeLiteral = (text: string): string => text.replace(/[!%_]/g, (char) => `${LIKE_ESCAPE}${char}`);

/** `a,b,,c` → `['a','b','c']`; `null` when nothing is left (no filter). */
const commaList = (value: string | undefined): string[] | null => {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? [...new Set(items)] : null;
};

/** Empty query values mean "no filter" (panels send `?name=&teams=`). */
const given = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/**
 * The CTA list and the filter values (docs/behaviour.md#ctas). Filtering, counting and paging
 * run in SQL on indexes led by `tenant_id`: one count per status (which also
 * yields `totalEntries`), one page query, two link queries for the page.
 * Test CTAs are never listed, counted or offered as filter values.
 */
@Injectable()
export class CtaListingService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly records: CtaRecords,
    private readonly behaviourTags: BehaviourTagReader,
  ) {}

  async list(tenantId: string, query: ListCtasQueryDto): Promise<CtaPage> {
    // Matched without regard to case: the real admin panel's status tabs send `DRAFT`, `LIVE`, ….
    const status = given(query.status)?.toLowerCase() ?? null;
    if (status !== null && !(CTA_STATUSES as readonly string[]).includes(status)) {
      throw new DomainError(ErrorCode.CTA_STATUS_INVALID, `status must be one of ${CTA_STATUSES.join(', ')}`);
    }
    const pageSize = query.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.pageSize);
    const pageNumber = query.pageNumber === undefined ? 0 : Number(query.pageNumber);

    // One row of conditional sums rather than GROUP BY status: grouping lets SQLite prefer the
    // status index for its order and read every wide row; without it the filter's covering index wins.
    const counts = this.filtered(tenantId, query).select([]);
    CTA_STATUSES.forEach((name, index) => counts.addSelect(`SUM(CASE WHEN cta.status = '${name}' THEN 1 ELSE 0 END)`, `count${index}`));
    const sums = (await counts.getRawOne<Record<string, number | string | null>>()) ?? {};
    const statusWiseCount = Object.fromEntries(CTA_STATUSES.map((name, index) => [name, Number(sums[`count${index}`] ?? 0)])) as Record<
      CtaStatus,
      number
    >;
    const totalEntries =
      status === null ? Object.values(statusWiseCount).reduce((sum, count) => sum + count, 0) : statusWiseCount[status as CtaStatus];

    const offset = pageNumber * pageSize;
    let ctas: CtaRecord[] = [];
    if (offset < totalEntries) {
      const page = this.filtered(tenantId, query);
      if (status !== null) {
        page.andWhere('cta.status = :status', { status });
      }
      const rows = await page.orderBy('cta.id', 'DESC').limit(pageSize).offset(offset).getMany();
      const links = await this.records.linksOf(
        this.dataSource.manager,
        tenantId,
        rows.map((row) => Number(row.id)),
      );
      ctas = rows.map((row) => toCtaRecord(row, links));
    }
    return { ctas, totalEntries, totalPages: Math.ceil(totalEntries / pageSize), pageNumber, pageSize, statusWiseCount };
  }

  async filterValues(tenantId: string): Promise<FilterValues> {
    const distinct = async (column: 'name' | 'team' | 'createdBy'): Promise<string[]> => {
      const rows = await this.normalCtas(tenantId)
        .select(`cta.${column}`, 'value')
        .distinct(true)
        .orderBy('value', 'ASC')
        .getRawMany<{ value: string }>();
      return rows.map((row) => row.value);
    };
    const tags = async (): Promise<string[]> => {
      const rows = await this.dataSource.manager
        .createQueryBuilder(CtaTagEntity, 'tag')
        .innerJoin(CtaEntity, 'cta', 'cta.tenantId = tag.tenantId AND cta.id = tag.ctaId AND cta.isTest = :isTest', { isTest: false })
        .select('tag.tag', 'value')
        .distinct(true)
        .where('tag.tenantId = :tenantId', { tenantId })
        .orderBy('value', 'ASC')
        .getRawMany<{ value: string }>();
      return rows.map((row) => row.value);
    };
    const [names, teams, tagValues, createdBy] = await Promise.all([distinct('name'), distinct('team'), tags(), distinct('createdBy')]);
    return { names, teams, tags: tagValues, createdBy };
  }

  private normalCtas(tenantId: string): SelectQueryBuilder<CtaEntity> {
    return this.dataSource.manager
      .createQueryBuilder(CtaEntity, 'cta')
      .where('cta.tenantId = :tenantId', { tenantId })
      .andWhere('cta.isTest = :isTest', { isTest: false });
  }

  /** The tenant's normal CTAs matching every filter except `status`. */
  private filtered(tenantId: string, query: ListCtasQueryDto): SelectQueryBuilder<CtaEntity> {
    const builder = this.normalCtas(tenantId);
    const name = given(query.name);
    if (name !== null) {
      builder.andWhere('cta.name = :name', { name });
    }
    const searchName = given(query.searchName);
    if (searchName !== null) {
      builder.andWhere(`LOWER(cta.name) LIKE :searchName ESCAPE '${LIKE_ESCAPE}'`, {
        searchName: `%${likeLiteral(searchName.toLowerCase())}%`,
      });
    }
    const teams = commaList(query.teams);
    if (teams !== null) {
      builder.andWhere('cta.team IN (:...teams)', { teams });
    }
    const createdBy = given(query.createdBy);
    if (createdBy !== null) {
      builder.andWhere('cta.createdBy = :createdBy', { createdBy });
    }
    const tags = commaList(query.tags);
    if (tags !== null) {
      builder.andWhere(
        'EXISTS (SELECT 1 FROM cta_tags ct WHERE ct.tenant_id = cta.tenant_id AND ct.cta_id = cta.id AND ct.tag IN (:...tags))',
        { tags },
      );
    }
    const behaviourTag = given(query.behaviourTag);
    if (behaviourTag !== null) {
      this.behaviourTags.whereLinkedTo(builder, 'cta', behaviourTag);
    }
    return builder;
  }
}
