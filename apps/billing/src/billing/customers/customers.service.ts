import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { currentWorkspaceId } from '../../identity/current-workspace.js';
import { PrismaService } from '../../database/prisma.service.js';
import type { Customer } from '../../generated/prisma/client.js';
import { decodeCursor, pageOf } from '../common/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../common/paging.js';
import type { CreateCustomerDto, CustomerDto, CustomerListDto, CustomerListQueryDto } from './customer.dto.js';

/** Customers of the current workspace. The same code serves REST and MCP. */
@Injectable()
export class CustomersService {
  constructor(private readonly prisma: PrismaService) {}

  async create(dto: CreateCustomerDto): Promise<CustomerDto> {
    const workspaceId = currentWorkspaceId();
    const email = dto.email.toLowerCase();
    const existing = await this.prisma.db.customer.findUnique({ where: { workspaceId_email: { workspaceId, email } } });
    if (existing) {
      throw new ConflictException(`A customer with email ${email} already exists (id ${existing.id}); use it instead of creating another`);
    }
    const customer = await this.prisma.db.customer.create({
      // created_via / updated_via are stamped by PrismaService from the request's channel.
      data: { workspaceId, name: dto.name, email, taxId: dto.tax_id ?? null },
    });
    return toCustomerDto(customer);
  }

  async list(query: CustomerListQueryDto): Promise<CustomerListDto> {
    const workspaceId = currentWorkspaceId();
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor);
    const rows = await this.prisma.db.customer.findMany({
      where: {
        workspaceId,
        AND: [
          query.q
            ? { OR: [{ name: { contains: query.q, mode: 'insensitive' } }, { email: { contains: query.q, mode: 'insensitive' } }] }
            : {},
          after ? { OR: [{ name: { gt: after.key } }, { name: after.key, id: { gt: after.id } }] } : {},
        ],
      },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.name);
    return { items: page.map(toCustomerDto), next_cursor: nextCursor };
  }

  /** Completion candidates for a customer id: the 100 most recent (the MCP layer keeps those matching the prefix). */
  async recentIds(): Promise<string[]> {
    const rows = await this.prisma.db.customer.findMany({
      where: { workspaceId: currentWorkspaceId() },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: 100,
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async emailsStartingWith(prefix: string): Promise<string[]> {
    const rows = await this.prisma.db.customer.findMany({
      where: { workspaceId: currentWorkspaceId(), email: { startsWith: prefix.toLowerCase() } },
      orderBy: { email: 'asc' },
      take: 100,
      select: { email: true },
    });
    return rows.map((row) => row.email);
  }

  async get(id: string): Promise<CustomerDto> {
    const customer = await this.prisma.db.customer.findFirst({ where: { id, workspaceId: currentWorkspaceId() } });
    if (!customer) throw new NotFoundException(`Customer ${id} was not found in this workspace; search customers by email first`);
    return toCustomerDto(customer);
  }
}

export function toCustomerDto(customer: Customer): CustomerDto {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    tax_id: customer.taxId,
    created_via: customer.createdVia,
    updated_via: customer.updatedVia,
    created_at: customer.createdAt.toISOString(),
  };
}
