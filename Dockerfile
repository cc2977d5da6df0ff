# CTA orchestration service: multi-stage build, runs as the unprivileged `node` user.
#   docker build -t cta-orchestration .
#   docker run -p 3000:3000 -v cta-data:/app/data cta-orchestration
# Without DB_URL the service keeps its data in the SQLite file /app/data/cta.sqlite (the volume);
# DB_URL=mysql://user:pass@host:3306/db uses MySQL/MariaDB instead. Migrations run at start.

# Node 20, the runtime the service is built and tested on (docs/decisions/0020-stack-and-versions.md). Debian, not Alpine, so
# better-sqlite3's prebuilt glibc binary applies; the compilers below are its fallback.
ARG NODE_IMAGE=node:20-bookworm-slim

# Compiles the TypeScript sources to dist/ (dist/src/main.js, dist/ormconfig.js) and the operator view to dist/ui.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY nest-cli.json tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY src ./src
COPY ui ./ui
RUN npm run build

# The production dependencies only, with better-sqlite3's native module built for this image.
FROM ${NODE_IMAGE} AS production-dependencies
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# What runs: no compilers, no dev dependencies, no sources.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The only writable place: the embedded database (./data/cta.sqlite relative to /app).
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# Node's own fetch: the slim image has no curl. Any answer but 2xx, or none within the timeout, is unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Not `npm start`: its prestart step would build again, and npm would stand between the process
# and the SIGTERM that starts the graceful shutdown.
CMD ["node", "dist/src/main.js"]
