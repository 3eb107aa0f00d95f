# syntax=docker/dockerfile:1
# Multi-stage image for the API (workers and web join as their issues land).
# The project runs TypeScript through tsx, so the runtime stage carries the sources and production deps.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
# Manifests first so the npm ci layer is cached until a dependency changes.
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/channels/package.json packages/channels/
# prisma generate runs at postinstall and needs the schema and its config.
COPY prisma/package.json prisma/schema.prisma prisma/prisma.config.ts prisma/
COPY prisma/tools prisma/tools
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run typecheck

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system switchboard && useradd --system --gid switchboard --home /app switchboard
COPY --from=build --chown=switchboard:switchboard /app /app
USER switchboard
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "apps/api/src/main.ts"]
