-- The statement export (src/billing/statements) reads a period in keyset pages: invoices by (issue_date, number), payments by (paid_at, id).
-- CreateIndex
CREATE INDEX "invoices_workspace_id_issue_date_number_idx" ON "invoices"("workspace_id", "issue_date", "number");

-- CreateIndex
CREATE INDEX "payments_workspace_id_paid_at_id_idx" ON "payments"("workspace_id", "paid_at", "id");

