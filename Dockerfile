# Multi-stage build: compile in the Rust image, run in a slim Debian image as a
# non-root user. (No Docker engine runs on our development machines; this file is
# kept simple and is not exercised by CI.)
FROM rust:1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends cmake python3-pip \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/setup.sh && cargo build --release --locked

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home /app anonymizer
WORKDIR /app
COPY --from=build /src/target/release/anonymizer /usr/local/bin/anonymizer
COPY --from=build /src/conf ./conf
# Our model (tracked in git) and what the set-up fetched (ONNX Runtime; Rampart only
# when ANONYMIZER_FETCH_RAMPART=1).
COPY --from=build /src/models ./models
USER anonymizer
# The allocators' settings are the server's own (src/app/allocator.rs): a MALLOC_*
# variable set here would count as the operator's choice and replace glibc's.
ENV ANONYMIZER_LISTEN=0.0.0.0:8080 \
    ANONYMIZER_METRICS_LISTEN=0.0.0.0:9090
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=2s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/anonymizer"]
