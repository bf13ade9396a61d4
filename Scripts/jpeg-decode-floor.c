/* libjpeg-turbo's own decode time for JPEG files: the floor of bench B6's decode stage.
   Each file is read into memory first, then decoded to RGBA with the flags ARSim's decoder
   uses (tjDecompress2, TJPF_RGBA, accurate integer IDCT, fancy upsampling: flags 0) into one
   reused buffer; the median and minimum over the files of one thread's time are printed.
   Build: cc -O2 -o jpeg-decode-floor Scripts/jpeg-decode-floor.c -lturbojpeg
   Run:   ./jpeg-decode-floor BENCH_FOLDER/B6-images/image_*.jpg
   (Documentation/Performance.md, "B6"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.jpg...\n", argv[0]);
    return 64;
  }
  tjhandle handle = tjInitDecompress();
  double *times = malloc(sizeof(double) * (size_t)(argc - 1));
  unsigned char *pixels = NULL;
  size_t capacity = 0;
  int count = 0, width = 0, height = 0;
  for (int i = 1; i < argc; i++) {
    FILE *file = fopen(argv[i], "rb");
    if (!file) { perror(argv[i]); return 66; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)size);
    if (fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(argv[i]); return 66; }
    fclose(file);
    int subsampling, colorspace;
    double start = now_ms();
    if (tjDecompressHeader3(handle, bytes, (unsigned long)size, &width, &height, &subsampling,
                            &colorspace) != 0) {
      fprintf(stderr, "%s: %s\n", argv[i], tjGetErrorStr2(handle));
      return 65;
    }
    size_t needed = (size_t)width * (size_t)height * 4;
    if (needed > capacity) { free(pixels); pixels = malloc(needed); capacity = needed; }
    if (tjDecompress2(handle, bytes, (unsigned long)size, pixels, width, 0, height, TJPF_RGBA, 0)
        != 0) {
      fprintf(stderr, "%s: %s\n", argv[i], tjGetErrorStr2(handle));
      return 65;
    }
    times[count++] = now_ms() - start;
    free(bytes);
  }
  qsort(times, (size_t)count, sizeof(double), compare);
  printf("libjpeg-turbo decode to RGBA, %d files of %d×%d: median %.2f ms, min %.2f ms\n", count,
         width, height, times[count / 2], times[0]);
  tjDestroy(handle);
  return 0;
}
