-- One subject per user and issuer (docs/identity.md, "JWT identity").
-- Rows this index would refuse can exist: concurrent first sign-ins linked by verified email
-- (AUTH_JWT_LINK_VERIFIED_EMAIL) could link several subjects to one user, and
-- `npm run identity:link` linked a second subject to a user that had one. The oldest link of each
-- user at each issuer stays (ties: the lowest subject); the others are deleted, so those subjects
-- are unlinked again: their next token is refused as not linked (or, with AUTH_JWT_PROVISION_USERS,
-- becomes a new user with no workspace) until an operator links them (npm run identity:link).
DELETE FROM "external_identities" AS e
USING (
    SELECT "issuer", "subject",
           ROW_NUMBER() OVER (PARTITION BY "issuer", "user_id" ORDER BY "created_at", "subject") AS "rank"
    FROM "external_identities"
) AS ranked
WHERE e."issuer" = ranked."issuer" AND e."subject" = ranked."subject" AND ranked."rank" > 1;

-- CreateIndex
CREATE UNIQUE INDEX "external_identities_issuer_user_id_key" ON "external_identities"("issuer", "user_id");
