/* pingpong: the reference for net.rr. A minimal request-response pair in C
 * with blocking sockets, one transaction in flight, as netperf TCP_RR and
 * UDP_RR: the client sends SIZE bytes, the server answers with SIZE bytes.
 *
 *   pingpong server tcp|udp PORT SIZE            serve one client, then exit
 *   pingpong client tcp|udp HOST PORT SIZE SECS  print transactions/s and RTT
 *
 * Loopback and the project's own addresses only; the client stops by itself.
 * Build: gcc -O2 -o pingpong pingpong.c
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int full(int fd, char *buf, int n, int rd) {
	for (int done = 0; done < n;) {
		int k = rd ? read(fd, buf + done, n - done) : write(fd, buf + done, n - done);
		if (k <= 0) return -1;
		done += k;
	}
	return 0;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	if (argc < 5) {
		fprintf(stderr, "usage: pingpong server tcp|udp PORT SIZE | client tcp|udp HOST PORT SIZE SECS\n");
		return 2;
	}
	int server = strcmp(argv[1], "server") == 0, udp = strcmp(argv[2], "udp") == 0;
	int one = 1;
	struct sockaddr_in a = {.sin_family = AF_INET};
	char buf[65536];
	if (server) {
		int size = atoi(argv[4]);
		a.sin_port = htons(atoi(argv[3]));
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		int s = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(s, (struct sockaddr *)&a, sizeof a) < 0) { perror("bind"); return 1; }
		if (udp) {
			struct timeval tv = {.tv_sec = 2};
			setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
			for (;;) {
				struct sockaddr_in from;
				socklen_t fl = sizeof from;
				int k = recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
				if (k < 0) return 0; /* the client stopped: idle for 2 s */
				sendto(s, buf, k, 0, (struct sockaddr *)&from, fl);
			}
		}
		listen(s, 1);
		int c = accept(s, NULL, NULL);
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		while (full(c, buf, size, 1) == 0 && full(c, buf, size, 0) == 0) {
		}
		return 0;
	}
	int size = atoi(argv[5]);
	double secs = atof(argv[6]);
	a.sin_port = htons(atoi(argv[4]));
	inet_pton(AF_INET, argv[3], &a.sin_addr);
	int s = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	size_t cap = 1 << 20, n = 0;
	double *rtt = malloc(cap * sizeof *rtt);
	double start = now_ns(), end = start + secs * 1e9, sum = 0, t0;
	memset(buf, 'x', size);
	while ((t0 = now_ns()) < end) {
		if (full(s, buf, size, 0) < 0) { perror("write"); return 1; }
		if (udp ? read(s, buf, sizeof buf) <= 0 : full(s, buf, size, 1) < 0) { perror("read"); return 1; }
		double d = now_ns() - t0;
		if (n == cap) rtt = realloc(rtt, (cap *= 2) * sizeof *rtt);
		rtt[n++] = d;
		sum += d;
	}
	double elapsed = now_ns() - start;
	qsort(rtt, n, sizeof *rtt, cmp);
	printf("transactions_per_s %.1f rtt_mean_us %.3f rtt_p50_us %.3f rtt_p99_us %.3f\n", n / (elapsed / 1e9),
	       sum / n / 1e3, rtt[(size_t)(0.5 * n + 0.999999) - 1] / 1e3, rtt[(size_t)(0.99 * n + 0.999999) - 1] / 1e3);
	close(s);
	return 0;
}
