/* stream: the reference for mem.stream. STREAM's four kernels (McCalpin),
 * the same sizes, order, byte counts and best-of rule as boxtax's
 * mem.stream, with OpenMP threads on contiguous chunks as STREAM does.
 *
 *   stream ELEMENTS NTIMES     print copy scale add triad in MB/s
 *
 * Threads: OMP_NUM_THREADS. Build: gcc -O3 -march=native -fopenmp
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: stream ELEMENTS NTIMES\n");
		return 2;
	}
	long n = atol(argv[1]);
	int ntimes = atoi(argv[2]);
	double *a = aligned_alloc(64, n * sizeof(double) + 64), *b = aligned_alloc(64, n * sizeof(double) + 64),
	       *c = aligned_alloc(64, n * sizeof(double) + 64);
	const double scalar = 3.0;
#pragma omp parallel for schedule(static)
	for (long j = 0; j < n; j++) a[j] = 1, b[j] = 2, c[j] = 0;
#pragma omp parallel for schedule(static)
	for (long j = 0; j < n; j++) a[j] *= 2;
	double best[4] = {1e30, 1e30, 1e30, 1e30}, t;
	for (int k = 0; k < ntimes; k++) {
		double tk[4];
		t = now();
#pragma omp parallel for schedule(static)
		for (long j = 0; j < n; j++) c[j] = a[j];
		tk[0] = now() - t;
		t = now();
#pragma omp parallel for schedule(static)
		for (long j = 0; j < n; j++) b[j] = scalar * c[j];
		tk[1] = now() - t;
		t = now();
#pragma omp parallel for schedule(static)
		for (long j = 0; j < n; j++) c[j] = a[j] + b[j];
		tk[2] = now() - t;
		t = now();
#pragma omp parallel for schedule(static)
		for (long j = 0; j < n; j++) a[j] = b[j] + scalar * c[j];
		tk[3] = now() - t;
		for (int i = 0; k > 0 && i < 4; i++)
			if (tk[i] < best[i]) best[i] = tk[i];
	}
	double bytes[4] = {16.0 * n, 16.0 * n, 24.0 * n, 24.0 * n};
	printf("copy %.1f scale %.1f add %.1f triad %.1f check %g\n", bytes[0] / best[0] / 1e6, bytes[1] / best[1] / 1e6,
	       bytes[2] / best[2] / 1e6, bytes[3] / best[3] / 1e6, a[n / 2] + b[n / 3] + c[n - 1]);
	return 0;
}
