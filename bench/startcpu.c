/* startcpu: run a command N times, one after another, and print each run's
 * CPU time (user + system, microseconds, from wait4's rusage of that child
 * alone) on a line of its own. The command's stdout and stderr go to
 * /dev/null. bench/startup.sh uses it; GNU time's %U %S have 10 ms steps,
 * too coarse for a start of a few ms.
 *
 *   startcpu N CMD [ARG...]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: startcpu N CMD [ARG...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
			}
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int status;
		struct rusage ru;
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("wait4");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "startcpu: %s exited with status %d\n", argv[2], status);
			return 1;
		}
		long us = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
		printf("%ld\n", us);
	}
	return 0;
}
