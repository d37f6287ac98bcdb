# The reference mock as a container image. No image registry is needed: the base
# image is built on this machine by integrations/build-base-image.sh
# (this machine's node binary and its shared libraries), and the project's
# node_modules are copied from the build context as installed by `npm ci`.
#
#   bash integrations/build-base-image.sh
#   docker build -t conformance-mock:local .
#   docker run --rm -p 127.0.0.1:4010:4010 -e MOCK_API_KEY_TEAM_A=... conformance-mock:local
#
# Keys come from MOCK_API_KEY_TEAM_A / MOCK_API_KEY_TEAM_B / MOCK_API_KEY_READ_ONLY
# (random per start when unset); the mock prints its settings on start.
ARG BASE_IMAGE=conformance-node-base:local
FROM ${BASE_IMAGE}
# Lets a rebuild remove its own superseded (dangling) images and nothing else.
LABEL conformance.image=mock
WORKDIR /app
COPY --chown=1000:1000 . .
# WORKDIR made /app as root: dist/ (and its code cache, written at run time) must belong to the user.
RUN ["node", "-e", "const fs = require('node:fs'); fs.mkdirSync('/app/dist', { recursive: true }); fs.chownSync('/app/dist', 1000, 1000)"]
USER 1000
RUN ["node", "build/bundle.mjs"]
# The mock listens on 127.0.0.1 only, here too: mock/container-relay.ts starts it on the
# container's loopback (port 4011) and relays the published port 4010 to it; the
# relay refuses to run unless MOCK_IN_CONTAINER=1. Arguments after the image name
# go to `conformance mock` (e.g. --fault NAME, --shape legacy).
# Publish the port on the host's loopback only (-p 127.0.0.1:...).
ENV MOCK_IN_CONTAINER=1 \
    NODE_ENV=production \
    HOME=/tmp
EXPOSE 4010
ENTRYPOINT ["node", "build/run.mjs", "container-relay"]
