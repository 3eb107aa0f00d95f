#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded offline.
# `prisma generate/validate/format` never run it; migrations go through src/migrate.ts (Wasm engine).
echo "The native Prisma schema engine is not used here. Run: npm run db:migrate (Wasm schema engine)" >&2
exit 1
