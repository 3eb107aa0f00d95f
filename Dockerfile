# syntax=docker/dockerfile:1
# One image for every process of the platform (docker-compose.yml picks the command): the API, the workers, the
# web server, the one-shot migrations and seed, and the demo profile's simulators.
# - build:   every dependency, `npm run build` (scripts/build.ts): the server side bundled to JavaScript and the
#            web client built, all in dist/.
# - deps:    production dependencies only (`npm ci --omit=dev`), less what only dev tools need
#            (scripts/runtime-deps.mjs prune: the prisma CLI's tree, unused Prisma query compilers).
# - runtime: those node_modules + dist/ on node:24-bookworm-slim, plain `node` (no tsx, no sources), run as the
#            unprivileged user switchboard (uid 10001), which owns /data/uploads.
# Size budget and how it is measured without a Docker engine: docs/operations.md.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first so the npm ci layer is cached until a dependency changes.
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/channels/package.json packages/channels/
COPY packages/numbers/package.json packages/numbers/
COPY packages/domain/package.json packages/domain/
COPY workers/package.json workers/
# prisma generate runs at postinstall and needs the schema and its config.
COPY prisma/package.json prisma/schema.prisma prisma/prisma.config.ts prisma/
COPY prisma/tools prisma/tools
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/channels/package.json packages/channels/
COPY packages/numbers/package.json packages/numbers/
COPY packages/domain/package.json packages/domain/
COPY workers/package.json workers/
COPY prisma/package.json prisma/
COPY scripts/runtime-deps.mjs scripts/
# No install scripts: the Prisma client is generated (and bundled) in the build stage; argon2 and msgpackr come as
# prebuilt optional packages.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && node scripts/runtime-deps.mjs prune \
  && rm -rf scripts /root/.npm

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    UPLOAD_DIR=/data/uploads
WORKDIR /app
# The data directory exists in the image, owned by the user the processes run as: a fresh named volume mounted
# there takes this owner, so uploads (batch files, documents, proofs, logos) can be written.
RUN groupadd --system --gid 10001 switchboard \
  && useradd --system --uid 10001 --gid switchboard --home-dir /app --no-create-home --shell /usr/sbin/nologin switchboard \
  && mkdir -p /data/uploads \
  && chown -R switchboard:switchboard /data
COPY --from=deps /app /app
COPY --from=build /app/dist /app/dist
USER 10001:10001
EXPOSE 3000 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 \
  CMD ["node", "dist/healthcheck.js", "http://127.0.0.1:3000/readyz"]
CMD ["node", "--enable-source-maps", "dist/api/main.js"]
