# The suite as a container image: the packed CLI on the official Node slim image, non-root by default (uid 1000).
#   docker build -t petstore-conformance:0.1.0 .
#   docker run --rm --user "$(id -u):$(id -g)" -e PETSTORE_API_KEY -v "$PWD:/data" petstore-conformance:0.1.0 run --base-url https://staging.example.com/v1
# Run it as your own uid with your current folder mounted at /data (its working directory): the suite creates reports/ there,
# owned by you, whatever your uid, and reads configuration or scenario files from there by relative path. Nothing in the image
# needs uid 1000: /data is writable by any uid (sticky, as /tmp is), and no VOLUME is declared, since an anonymous volume would
# hide the reports of a mounted /data. The key comes from the environment, never from the image.

FROM node:20-slim AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY tools ./tools
COPY schemas ./schemas
COPY scenarios ./scenarios
COPY suites ./suites
COPY docs ./docs
COPY README.md LICENSE ./
RUN npm run build && npm pack --ignore-scripts

FROM node:20-slim
ENV NODE_ENV=production
COPY --from=build /build/petstore-conformance-*.tgz /tmp/
RUN npm install --global --no-audit --no-fund /tmp/petstore-conformance-*.tgz \
 && rm /tmp/petstore-conformance-*.tgz \
 && mkdir -p /data \
 && chmod 1777 /data
# Numeric, so that Kubernetes' runAsNonRoot can verify it; --user (or runAsUser) may name any other.
USER 1000:1000
WORKDIR /data
ENTRYPOINT ["petstore-conformance"]
CMD ["--help"]
