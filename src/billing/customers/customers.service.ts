import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { currentWorkspaceId } from '../common/current-workspace.js';
import { PrismaService } from '../../database/prisma.service.js';
import type { Customer, Prisma } from '../../generated/prisma/client.js';
import type { CreateCustomerDto, CustomerDto } from './customer.dto.js';

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
      data: { workspaceId, name: dto.name, email, taxId: dto.tax_id ?? null } as Prisma.CustomerUncheckedCreateInput,
    });
    return toCustomerDto(customer);
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
