/*
 * bashbox: the launcher of the bashbox CLI.
 *
 * A Go program cannot start as fast as bash: the runtime alone costs more
 * than `bash -c true`. This small C program is what `make build` installs
 * as bin/bashbox. For `bashbox run ...` it asks a resident `bashbox daemon`
 * (the Go CLI, started once by the operator) to run the command on this
 * process's descriptors 0, 1 and 2, in its working directory, and exits
 * with the status the daemon sends back. Everything else, and every run
 * the daemon cannot take (none listening, busy, flags it leaves to the
 * CLI), it hands to the Go CLI beside it by execv: bashbox-lean, the lean
 * front, else bashbox-full. The output and status are the same either way.
 *
 * The daemon's socket is $BASHBOX_SOCKET, else /tmp/bashbox-UID/daemon.sock
 * ("off" never uses one). The launcher hands its descriptors only to a
 * socket in a directory of its own user that nobody else may enter, and
 * only to a daemon running as its own user (the kernel's peer
 * credentials): another local user could otherwise collect its scripts,
 * input and terminal. The wire format is in internal/daemon/daemon.go.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* macOS: SO_NOSIGPIPE is set on the socket instead */
#endif

/* The request may not exceed what the daemon reads (16 MiB). */
#define MAX_REQUEST (16u << 20)

static int sock = -1;

/* on_interrupt tells the daemon, which cancels the run as SIGINT cancels
 * the CLI's (status 130, the result still printed). write is
 * async-signal-safe. */
static void on_interrupt(int sig) {
	(void)sig;
	int saved = errno;
	if (sock >= 0) {
		ssize_t n = send(sock, "I", 1, MSG_NOSIGNAL);
		(void)n;
	}
	errno = saved;
}

/* self_dir writes the directory of this executable, as the kernel knows
 * it (never PATH or argv[0]), into buf. */
static int self_dir(char *buf, size_t size) {
#ifdef __APPLE__
	char raw[PATH_MAX];
	uint32_t n = sizeof raw;
	if (_NSGetExecutablePath(raw, &n) != 0 || realpath(raw, buf) == NULL) return -1;
	(void)size;
#else
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n <= 0) return -1;
	buf[n] = '\0';
#endif
	char *slash = strrchr(buf, '/');
	if (slash == NULL) return -1;
	*slash = '\0';
	return 0;
}

/* run_go replaces this process with the Go CLI beside it. */
static int run_go(char **argv) {
	char dir[PATH_MAX], path[PATH_MAX + 32];
	if (self_dir(dir, sizeof dir) != 0) {
		fprintf(stderr, "bashbox: cannot find the directory of this executable: %s\n", strerror(errno));
		return 126;
	}
	snprintf(path, sizeof path, "%s/bashbox-lean", dir);
	if (access(path, X_OK) != 0) snprintf(path, sizeof path, "%s/bashbox-full", dir);
	execv(path, argv);
	int e = errno;
	fprintf(stderr, "bashbox: cannot start %s: %s\n", path, strerror(e));
	return e == ENOENT ? 127 : 126;
}

/* safe_dir says whether dir is a directory of this user that no one else
 * may enter, so that nobody else could have put a socket there. */
static int safe_dir(const char *sockpath) {
	char dir[PATH_MAX];
	size_t n = strlen(sockpath);
	if (n == 0 || n >= sizeof dir) return 0;
	memcpy(dir, sockpath, n + 1);
	char *slash = strrchr(dir, '/');
	if (slash == NULL) return 0;
	if (slash == dir) slash[1] = '\0'; else *slash = '\0';
	struct stat st;
	if (lstat(dir, &st) != 0) return 0;
	return S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077) == 0;
}

/* peer_ok says whether the process listening on s runs as this user. */
static int peer_ok(int s) {
#ifdef __linux__
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return 0;
	return cred.uid == geteuid();
#else
	uid_t uid;
	gid_t gid;
	if (getpeereid(s, &uid, &gid) != 0) return 0;
	return uid == geteuid();
#endif
}

static int read_full(int s, unsigned char *b, size_t n) {
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(s, b + got, n - got);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) return -1;
		got += (size_t)k;
	}
	return 0;
}

static void put32(unsigned char *p, uint32_t v) {
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff; p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}

/* request builds the request: magic, umask, count, then the working
 * directory and the arguments after the program name. */
static unsigned char *request(int argc, char **argv, size_t *size) {
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd) == NULL) return NULL;
	size_t total = 12 + 4 + strlen(cwd);
	for (int i = 1; i < argc; i++) {
		total += 4 + strlen(argv[i]);
		if (total > MAX_REQUEST) return NULL;
	}
	unsigned char *b = malloc(total), *p = b;
	if (b == NULL) return NULL;
	mode_t mask = umask(0);
	umask(mask);
	memcpy(p, "BBX1", 4);
	put32(p + 4, (uint32_t)mask);
	put32(p + 8, (uint32_t)argc); /* cwd + argc-1 arguments */
	p += 12;
	for (int i = 0; i < argc; i++) {
		const char *s = i == 0 ? cwd : argv[i];
		size_t n = strlen(s);
		put32(p, (uint32_t)n);
		memcpy(p + 4, s, n);
		p += 4 + n;
	}
	*size = total;
	return b;
}

/* send_request sends the request with descriptors 0, 1 and 2 attached
 * to its first bytes. */
static int send_request(int s, const unsigned char *b, size_t size) {
	int fds[3] = {0, 1, 2};
	union {
		char buf[CMSG_SPACE(sizeof fds)];
		struct cmsghdr align;
	} ctl;
	memset(&ctl, 0, sizeof ctl);
	struct iovec iov = {(void *)b, size};
	struct msghdr m = {0};
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = ctl.buf;
	m.msg_controllen = sizeof ctl.buf;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof fds);
	memcpy(CMSG_DATA(c), fds, sizeof fds);
	ssize_t n;
	do n = sendmsg(s, &m, MSG_NOSIGNAL); while (n < 0 && errno == EINTR);
	if (n <= 0) return -1;
	for (size_t done = (size_t)n; done < size;) {
		ssize_t k = send(s, b + done, size - done, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) return -1;
		done += (size_t)k;
	}
	return 0;
}

/* connect_daemon returns a socket to a daemon of this user, or -1. */
static int connect_daemon(void) {
	const char *path = getenv("BASHBOX_SOCKET");
	char def[64];
	if (path == NULL || *path == '\0') {
		snprintf(def, sizeof def, "/tmp/bashbox-%u/daemon.sock", (unsigned)geteuid());
		path = def;
	}
	if (strcmp(path, "off") == 0 || !safe_dir(path)) return -1;
	struct sockaddr_un a;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof a.sun_path) return -1;
	strcpy(a.sun_path, path);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0) return -1;
	fcntl(s, F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
	int r;
	do r = connect(s, (struct sockaddr *)&a, sizeof a); while (r < 0 && errno == EINTR);
	if (r != 0 || !peer_ok(s)) {
		close(s);
		return -1;
	}
	return s;
}

int main(int argc, char **argv) {
	if (argc < 2 || strcmp(argv[1], "run") != 0) return run_go(argv);
	/* A descriptor 0-2 that is closed cannot be handed over. */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0) return run_go(argv);
	size_t size;
	unsigned char *req = request(argc, argv, &size);
	if (req == NULL) return run_go(argv);
	int s = connect_daemon();
	if (s < 0) return run_go(argv);
	unsigned char b[5];
	if (send_request(s, req, size) != 0 || read_full(s, b, 1) != 0 || b[0] != 'A') {
		/* Declined, or dropped before it was accepted: nothing of the
		 * command ran. */
		close(s);
		free(req);
		return run_go(argv);
	}
	free(req);
	sock = s;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	if (read_full(s, b, 5) != 0) {
		fprintf(stderr, "bashbox: the daemon ended without the status of the run\n");
		return 125;
	}
	uint32_t v = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24;
	if (b[0] == 'K') {
		/* The run wrote to a pipe with no reader: die of the signal, as
		 * the CLI's process would have. */
		signal((int)v, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, (int)v);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise((int)v);
		return 128 + (int)v;
	}
	if (b[0] != 'X') {
		fprintf(stderr, "bashbox: the daemon sent an unknown reply\n");
		return 125;
	}
	return (int)(v & 0xff);
}
