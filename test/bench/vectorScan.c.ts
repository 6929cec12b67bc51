// The C int8 scan the `vectors` bench part compares Hearth's semantic search against: the same
// int8 slot file Hearth scans (vectors-<gen>.q8, dimPad bytes per slot), read into memory once, then
// one exact scan plus top-10 per query index read from stdin, its time (ms) printed per line. Built
// with `cc -O3 -march=native`, so the compiler's own vectorization is the bar the WASM kernel meets.
export const C_SCAN_SOURCE = String.raw`
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int8_t *readAll(const char *path, size_t bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  int8_t *buf = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (fread(buf, 1, bytes, f) != bytes) { fprintf(stderr, "short read %s\n", path); exit(2); }
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 6) { fprintf(stderr, "usage: scan q8 dimPad slots queries count\n"); return 2; }
  const size_t dimPad = (size_t)atol(argv[2]), slots = (size_t)atol(argv[3]), count = (size_t)atol(argv[5]);
  const int8_t *v = readAll(argv[1], dimPad * slots);
  const int8_t *qs = readAll(argv[4], dimPad * count);
  int32_t *out = malloc(slots * sizeof(int32_t));
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    const int8_t *q = qs + (size_t)atol(line) * dimPad;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < slots; i++) {
      const int8_t *r = v + i * dimPad;
      int32_t s = 0;
      for (size_t j = 0; j < dimPad; j++) s += (int32_t)q[j] * (int32_t)r[j];
      out[i] = s;
    }
    int32_t best[10]; size_t at[10]; int have = 0;
    for (size_t i = 0; i < slots; i++) {
      if (have == 10 && out[i] <= best[9]) continue;
      int k = have < 10 ? have++ : 9;
      while (k > 0 && best[k - 1] < out[i]) { best[k] = best[k - 1]; at[k] = at[k - 1]; k--; }
      best[k] = out[i]; at[k] = i;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.4f %zu\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, at[0]);
    fflush(stdout);
  }
  return 0;
}
`;
