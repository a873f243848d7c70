import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { McpSkill } from '@nest-mcp/core';

/**
 * A skill for the skills extension's scenarios (sep-2640-skills-*): a SKILL.md and a supporting
 * file in a subdirectory, so the directory scenario has a folder to descend into. It teaches a tool
 * of ConformanceTools, declared on the module that brings it, as an application would.
 */
@McpSkill({ directory: join(import.meta.dirname, 'skills', 'fixture-workflow'), tools: ['test_simple_text'] })
@Module({})
export class SkillsFixtureModule {}
