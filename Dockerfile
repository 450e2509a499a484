# kssa in a container: a multi-stage build, a small non-root final image.
#   docker build -t kssa .
#   docker run --rm -v "$PWD:/work" -w /work kssa diff -R -f deploy/ --live snapshots/
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src src
COPY tools tools
COPY benches benches
RUN cargo build --release --locked --bin kssa && strip target/release/kssa

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/kssa /usr/local/bin/kssa
USER nonroot
ENTRYPOINT ["kssa"]
