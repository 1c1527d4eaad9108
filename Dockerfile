# Questline: one image for API nodes (`questline serve`, the default) and workers (`questline worker`).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The dependencies alone, in a layer of their own: their install scripts (better-sqlite3, esbuild)
# run in `npm rebuild`; the project's `prepare` (the build) needs the sources, copied next.
RUN npm ci --no-fund --no-audit --ignore-scripts && npm rebuild
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
# A container listens on every interface: no demo site, whose /demo page hands every visitor a
# token (set DEMO_SITE=true to try it on a machine only you can reach).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DEMO_SITE=false
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# The demo site's program and icons, and the example program (not the example integrations).
COPY --from=build /app/examples/demo-program.xml /app/examples/program.json ./examples/
COPY --from=build /app/examples/demo-icons ./examples/demo-icons
COPY --from=build /app/public ./public
USER node
EXPOSE 3000
CMD ["node", "bin/questline.js", "serve"]
