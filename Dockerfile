# The suite as a container image: the packed CLI on the official Node slim image, run as the unprivileged `node` user.
#   docker build -t petstore-conformance:0.1.0 .
#   docker run --rm -e PETSTORE_API_KEY -v "$PWD/reports:/data/reports" petstore-conformance:0.1.0 run --base-url https://staging.example.com/v1
# Reports go to /data/reports (mount a folder there); the key comes from the environment, never from the image.

FROM node:20-slim AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY schemas ./schemas
COPY scenarios ./scenarios
COPY suites ./suites
COPY README.md LICENSE ./
RUN npm run build && npm pack --ignore-scripts

FROM node:20-slim
ENV NODE_ENV=production
COPY --from=build /build/petstore-conformance-*.tgz /tmp/
RUN npm install --global --no-audit --no-fund /tmp/petstore-conformance-*.tgz \
 && rm /tmp/petstore-conformance-*.tgz \
 && mkdir -p /data/reports \
 && chown -R node:node /data
USER node
WORKDIR /data
VOLUME ["/data/reports"]
ENTRYPOINT ["petstore-conformance"]
CMD ["--help"]
