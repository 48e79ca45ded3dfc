# Chapterhouse server image. Build: `docker build -t chapterhouse .`; with PostgreSQL: `docker compose up`.
# Migrations are embedded in the binary; the web client is copied beside it.

FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p chapterhouse \
    && mkdir -p web \
    && cp target/release/chapterhouse /chapterhouse

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /app chapterhouse \
    && mkdir -p /data && chown chapterhouse /data
COPY --from=build /chapterhouse /usr/local/bin/chapterhouse
COPY --from=build /src/web /app/web
WORKDIR /app
USER chapterhouse
# Without DATABASE_URL the server keeps an SQLite file in the /data volume.
ENV CHAPTERHOUSE_BIND=0.0.0.0:8080 \
    CHAPTERHOUSE_WEB_DIR=/app/web \
    DATABASE_URL=sqlite:///data/chapterhouse.db \
    RUST_LOG=info
VOLUME /data
EXPOSE 8080
# SIGTERM (docker stop) shuts the server down gracefully.
STOPSIGNAL SIGTERM
ENTRYPOINT ["chapterhouse"]
CMD ["serve"]
