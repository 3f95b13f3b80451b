# API and worker image for docker-compose.yml (production processes; no embedded services).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY api ./api
COPY workflows ./workflows
COPY activities ./activities
COPY migrations ./migrations
COPY vite.config.mts ./
COPY web ./web
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# docker-compose.yml picks the process: the API (default), the worker, or the CLI (migrations).
CMD ["node", "dist/api/server.js"]
