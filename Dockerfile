# The conformance suite and the reference mock as container images: each is the npm package as
# `npm pack` ships it and `npm install` lays it out (build/package.mjs --stage), built once here
# for both. No image registry is needed: the base image is built on this machine by
# integrations/build-base-image.sh (this machine's node binary and its shared libraries), and the
# package's dependencies are copied from the build context's node_modules as `npm ci` installed them.
#
#   bash integrations/build-base-image.sh
#   docker build --target suite -t conformance-suite:local .     the suite: `conformance run`
#   docker build -t conformance-mock:local .                     the mock (the last stage)
#
#   docker run --rm --network host -v "$PWD/out:/out" -e CONFORMANCE_BASE_URL=... \
#     -e CONFORMANCE_API_KEY=... -e CONFORMANCE_API_KEY_OTHER_TEAM=... conformance-suite:local
#   docker run --rm -p 127.0.0.1:4010:4010 -e MOCK_API_KEY_TEAM_A=... conformance-mock:local
ARG BASE_IMAGE=conformance-node-base:local

# The package, built from the sources: dist/ (with the registrations manifest, read by the
# TypeScript compiler of the build context) and the production dependencies, in /package.
FROM ${BASE_IMAGE} AS package
# Lets a rebuild remove its own superseded (dangling) images and nothing else.
LABEL conformance.image=package
WORKDIR /src
COPY . .
RUN ["node", "build/package.mjs", "--stage", "/package"]

# The suite: arguments after the image name go to `conformance run` (e.g. --only 'LIST-*').
# Settings come from -e CONFORMANCE_*=... or a mounted JSON file (-e CONFORMANCE_CONFIG=/config.json,
# or --config /config.json); the reports go to /out, to be mounted. The package is read-only and
# owned by root; the run writes only to /out and the temporary folder, so any user may run it
# (--user "$(id -u):$(id -g)" writes the reports as the caller). Exit codes are the command's:
# 0 conforms, 1 a requirement failed or the run broke, 2 misconfiguration or preflight, 130 interrupted.
FROM ${BASE_IMAGE} AS suite
LABEL conformance.image=suite
COPY --from=package /package /app
# The reports go to out/ in the working directory (CONFORMANCE_REPORT_DIR, unset, so that a settings
# file may set it too): the working directory is /, and /out exists for a run without a mount,
# writable by any user, as /tmp is.
RUN ["node", "-e", "require('node:fs').mkdirSync('/out', { mode: 0o1777 }); require('node:fs').chmodSync('/out', 0o1777)"]
WORKDIR /
USER 1000
# The image's own reference, for the `docker run` replays its reports print: pass the tag it is
# pushed under (--build-arg SUITE_IMAGE=registry.example.com/conformance-suite:1).
ARG SUITE_IMAGE=conformance-suite:local
ENV NODE_ENV=production \
    HOME=/tmp \
    SUITE_IMAGE_REF=${SUITE_IMAGE}
ENTRYPOINT ["node", "/app/bin/conformance.js", "run"]

# The mock. It listens on 127.0.0.1 only, here too: mock/container-relay.ts starts it on the
# container's loopback (port 4011) and relays the published port 4010 to it; the relay refuses to
# run unless MOCK_IN_CONTAINER=1. Arguments after the image name go to `conformance mock`
# (e.g. --fault NAME, --shape legacy). Publish the port on the host's loopback only (-p 127.0.0.1:...).
# Keys come from MOCK_API_KEY_TEAM_A / MOCK_API_KEY_TEAM_B / MOCK_API_KEY_READ_ONLY (random per
# start when unset); the mock prints its settings on start.
FROM ${BASE_IMAGE} AS mock
LABEL conformance.image=mock
COPY --from=package /package /app
WORKDIR /app
USER 1000
ENV MOCK_IN_CONTAINER=1 \
    NODE_ENV=production \
    HOME=/tmp
EXPOSE 4010
ENTRYPOINT ["node", "build/run.mjs", "container-relay"]
