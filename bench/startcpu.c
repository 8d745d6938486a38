/* startcpu: the CPU time of commands, to the microsecond (wait4's rusage
 * of each child alone); GNU time's %U %S have 10 ms steps, too coarse for
 * a start of a few ms or a run of 5 ms.
 *
 *   startcpu N CMD [ARG...]        run CMD N times, one after another, its
 *                                  stdout and stderr to /dev/null, and print
 *                                  each run's CPU microseconds (user +
 *                                  system) on a line of its own
 *                                  (bench/startup.sh)
 *   startcpu -o FILE CMD [ARG...]  run CMD once, its output passed through,
 *                                  and write "user_s system_s voluntary
 *                                  involuntary" (seconds to the microsecond,
 *                                  context switches) to FILE, as GNU time's
 *                                  -f '%U %S %w %c' -o FILE does; exits as
 *                                  CMD did (bench/net-vs-reference.sh)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* run starts argv[0] with argv, its output to /dev/null when quiet, and
 * waits for it; returns its wait status, -1 when it could not be run. */
static int run(char **argv, int quiet, struct rusage *ru) {
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return -1;
	}
	if (pid == 0) {
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
			}
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	if (wait4(pid, &status, 0, ru) < 0) {
		perror("wait4");
		return -1;
	}
	return status;
}

int main(int argc, char **argv) {
	if (argc >= 4 && strcmp(argv[1], "-o") == 0) {
		struct rusage ru;
		int status = run(argv + 3, 0, &ru);
		if (status < 0)
			return 1;
		FILE *f = fopen(argv[2], "w");
		if (f == NULL) {
			perror(argv[2]);
			return 1;
		}
		fprintf(f, "%ld.%06ld %ld.%06ld %ld %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
			(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_nvcsw, ru.ru_nivcsw);
		fclose(f);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: startcpu N CMD [ARG...] | startcpu -o FILE CMD [ARG...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	for (int i = 0; i < n; i++) {
		struct rusage ru;
		int status = run(argv + 2, 1, &ru);
		if (status < 0)
			return 1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "startcpu: %s exited with status %d\n", argv[2], status);
			return 1;
		}
		long us = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
		printf("%ld\n", us);
	}
	return 0;
}
