# bashbox serve as a container: a static binary in a distroless image that
# runs as a non-root user and needs nothing written to its root filesystem
# (run it with a read-only root; mount an emptyDir or tmpfs at /tmp when
# fallback commands or the Bash tool are enabled, as they make scratch
# directories there).
#
#   docker build -t bashbox .          (or: make image)
#   docker run --rm -p 8080:8080 --read-only -e BASHBOX_TOKEN=secret bashbox
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# bashbox is the lean front (fast start for `bashbox run`), bashbox-full
# the whole CLI it hands everything else to; they must sit side by side.
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w" -o /out/bashbox-full ./cmd/bashbox && \
    CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w" -tags bashbox_front -o /out/bashbox ./cmd/bashbox

# distroless/static: no shell, no package manager, user 65532 (nonroot),
# CA certificates and /etc/passwd for that user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/bashbox /out/bashbox-full /usr/local/bin/
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/bashbox"]
CMD ["serve", "--http", ":8080"]
