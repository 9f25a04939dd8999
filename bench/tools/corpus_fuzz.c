/* NAME    corpus_fuzz — damages a problem corpus on purpose and checks that reading it stays safe.
 * PURPOSE -flip: for every byte of a corpus in turn (or every K-th), a copy with that byte flipped (XOR 0xff)
 *         is read the ways bench_corpus reads one: opened (the checked reader: corpus.h), every problem
 *         read or rebuilt, listed, merged into a new file and exported as Siconos .dat files, each copy in a
 *         process of its own. Counts the runs, the copies that opened (and the corrupt problems found in
 *         them), those refused with a message, and the failures: a crash (a signal), a hang (past
 *         -seconds) or a process that grew past -max_mb. Exit 0 when there was no failure.
 *         -craft KIND[@I] IN OUT: writes a copy of IN with one named damage, for the tests: shifted_n
 *         (problem I's n one larger; I = 0 unless given), huge_n (its n = 20000: a dense matrix of 3.2 GB if
 *         n were trusted), nan (a NaN in its q), name=TEXT (it renamed TEXT, e.g. ../../x), extend (the
 *         table's extent 10^6 rows, the committed count kept), extend_old (the same in a file without the
 *         committed count).
 * USAGE   corpus_fuzz -flip FILE [-every K] [-from A] [-to B] [-seconds S] [-max_mb M]
 *         corpus_fuzz -craft KIND IN OUT
 * The every-byte run is `make fuzz-corpus`; tests/test_corpus_faults.sh runs a sample. */
#define _GNU_SOURCE /* wait4: the reading process's own peak memory */
#include "corpus_layout.h"
#include "corpus_rebuild.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <petscsys.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- -craft ---- */

static int copy_file(const char *from, const char *to)
{
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  char buf[65536];
  size_t n;
  int rc = !in || !out;
  while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
    rc = fwrite(buf, 1, n, out) != n;
  if (in) fclose(in);
  if (out && fclose(out)) rc = 1;
  return rc;
}

/* Row i of the table of the open file f, changed by kind and written back. 0, or 1. */
static int craft_row(hid_t f, const char *kind, hsize_t i)
{
  hid_t d = H5Dopen2(f, "problems", H5P_DEFAULT), t = corpus_row_type();
  struct row r;
  int rc = d < 0 || corpus_read_slice(d, t, i + 1, (int64_t)i, 1, &r);
  if (!rc && strcmp(kind, "shifted_n") == 0) r.n += 1;
  if (!rc && strcmp(kind, "huge_n") == 0) r.n = 20000;
  if (!rc && strncmp(kind, "name=", 5) == 0) snprintf(r.name, sizeof r.name, "%.120s", kind + 5);
  if (!rc && strcmp(kind, "nan") == 0) {
    hid_t v = H5Dopen2(f, "values", H5P_DEFAULT), fs = H5Dget_space(v);
    hsize_t off = (hsize_t)r.values_offset, one = 1;
    hid_t ms = H5Screate_simple(1, &one, NULL);
    double nan = NAN;
    rc = H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &one, NULL) < 0 ||
         H5Dwrite(v, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, &nan) < 0;
    H5Sclose(ms), H5Sclose(fs), H5Dclose(v);
  }
  if (!rc && strcmp(kind, "nan") != 0) {
    hsize_t one = 1;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &one, NULL);
    rc = H5Sselect_hyperslab(fs, H5S_SELECT_SET, &i, NULL, &one, NULL) < 0 ||
         H5Dwrite(d, t, ms, fs, H5P_DEFAULT, &r) < 0;
    H5Sclose(ms), H5Sclose(fs);
  }
  H5Tclose(t);
  if (d >= 0) H5Dclose(d);
  return rc;
}

static int craft(const char *what, const char *in, const char *out)
{
  static const char *const kinds[] = {"shifted_n", "huge_n", "nan", "extend", "extend_old"};
  char kind[256];
  snprintf(kind, sizeof kind, "%s", what);
  char *at = strncmp(kind, "name=", 5) == 0 ? NULL : strchr(kind, '@');
  const hsize_t row = at ? (hsize_t)atol(at + 1) : 0;
  if (at) *at = '\0';
  int known = strncmp(kind, "name=", 5) == 0;
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    known |= strcmp(kind, kinds[k]) == 0;
  if (!known) return fprintf(stderr, "error: -craft %s: unknown damage\n", kind), 2;
  if (copy_file(in, out)) return fprintf(stderr, "error: cannot copy %s to %s\n", in, out), 2;
  corpus_quiet();
  hid_t f = H5Fopen(out, H5F_ACC_RDWR, H5P_DEFAULT);
  int rc = f < 0;
  if (!rc && strncmp(kind, "extend", 6) == 0) {
    hid_t d = H5Dopen2(f, "problems", H5P_DEFAULT);
    hsize_t rows = 1000000;
    rc = d < 0 || H5Dset_extent(d, &rows) < 0;
    if (d >= 0) H5Dclose(d);
    if (!rc && strcmp(kind, "extend_old") == 0) rc = H5Adelete(f, "committed") < 0;
  } else if (!rc) {
    rc = craft_row(f, kind, row);
  }
  if (f >= 0 && H5Fclose(f) < 0) rc = 1;
  if (rc) fprintf(stderr, "error: -craft %s: HDF5 could not change %s\n", kind, out);
  return rc ? 2 : 0;
}

/* ---- -flip ---- */

/* What bench_corpus does with a corpus, in this process: 0 opened (every mode run), 2 refused. */
static int read_all_ways(const char *path, const char *scratch)
{
  struct corpus *c = NULL;
  char err[1024], out[1100], dir[1100];
  if (corpus_open(path, &c, err, sizeof err)) return 2;
  int corrupt = 0;
  for (int i = 0; i < corpus_count(c); i++) {
    const struct corpus_meta *m = corpus_meta_at(c, i);
    struct cp_problem *p = NULL;
    struct corpus_rebuilt *r = NULL;
    corrupt += corpus_corrupt(c, i) != NULL;
    if (m->captured == 2 && !corpus_rebuild(c, i, &r, err, sizeof err)) corpus_rebuilt_difference(r);
    if (m->captured != 2 && !corpus_read(c, i, &p, err, sizeof err)) cp_destroy(&p);
    corpus_rebuilt_free(&r);
  }
  snprintf(out, sizeof out, "%s/merged.h5", scratch);
  snprintf(dir, sizeof dir, "%s/dat", scratch);
  const char *in[1] = {path};
  corpus_merge(out, in, 1, err, sizeof err);
  int written, left_out;
  corpus_export_siconos(c, dir, &written, &left_out, err, sizeof err);
  corpus_close(&c);
  return corrupt ? 3 : 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb, (void)flag, (void)ftw;
  return remove(path) != 0 && errno != ENOENT;
}

/* Removes what is in the folder scratch (keep 1) or the folder with it (keep 0). */
static void clean(const char *scratch, int keep, const char *except)
{
  if (!keep) {
    nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return;
  }
  DIR *d = opendir(scratch);
  struct dirent *e;
  char path[1200];
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, except)) continue;
    snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
  if (d) closedir(d);
}

struct tally {
  long runs, opened, with_corrupt, refused, crashes, hangs, memory;
};

/* One flipped copy read in a child process (its outputs in scratch, removed after). */
static void one_flip(const char *copy, const char *scratch, double seconds, double max_mb, long off,
                     struct tally *t)
{
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    alarm((unsigned)seconds + 1);
    _exit(read_all_ways(copy, scratch));
  }
  int st = 0;
  struct rusage ru;
  while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
  }
  clean(scratch, 1, "flipped.h5");
  t->runs++;
  const double mb = (double)ru.ru_maxrss / 1024.0;
  if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
    t->hangs++;
    printf("hang: byte %ld\n", off);
  } else if (WIFSIGNALED(st)) {
    t->crashes++;
    printf("crash: byte %ld (signal %d, %s)\n", off, WTERMSIG(st), strsignal(WTERMSIG(st)));
  } else if (mb > max_mb) {
    t->memory++;
    printf("memory: byte %ld (%.0f MB)\n", off, mb);
  } else if (WEXITSTATUS(st) == 2) {
    t->refused++;
  } else {
    t->opened++;
    t->with_corrupt += WEXITSTATUS(st) == 3;
  }
}

static int flip(const char *path, long every, long from, long to, double seconds, double max_mb)
{
  FILE *fp = fopen(path, "rb");
  struct stat st;
  if (!fp || stat(path, &st) != 0) return fprintf(stderr, "error: cannot read %s\n", path), 2;
  unsigned char *buf = malloc((size_t)st.st_size + 1);
  if (!buf || fread(buf, 1, (size_t)st.st_size, fp) != (size_t)st.st_size)
    return fclose(fp), free(buf), fprintf(stderr, "error: cannot read %s\n", path), 2;
  fclose(fp);
  /* in memory when /dev/shm is there: every run writes a merged file and an export */
  char scratch[64], copy[96];
  snprintf(scratch, sizeof scratch, "%s/corpus_fuzz_XXXXXX",
           access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(scratch)) return free(buf), fprintf(stderr, "error: no temporary folder\n"), 2;
  snprintf(copy, sizeof copy, "%s/flipped.h5", scratch);
  corpus_set_check_limit(seconds);
  if (to <= 0 || to > (long)st.st_size) to = (long)st.st_size;
  struct tally t = {0};
  for (long off = from; off < to; off += every) {
    buf[off] ^= 0xff;
    FILE *out = fopen(copy, "wb");
    int bad = !out || fwrite(buf, 1, (size_t)st.st_size, out) != (size_t)st.st_size;
    if (out && fclose(out)) bad = 1;
    buf[off] ^= 0xff;
    if (bad) return free(buf), fprintf(stderr, "error: cannot write %s\n", copy), 2;
    one_flip(copy, scratch, 2 * seconds, max_mb, off, &t);
  }
  printf(
      "corpus_fuzz %s: %ld runs (bytes %ld to %ld, every %ld): %ld opened (%ld with corrupt problems found), "
      "%ld refused with a message; %ld crashes, %ld hangs, %ld over %.0f MB\n",
      path, t.runs, from, to - 1, every, t.opened, t.with_corrupt, t.refused, t.crashes, t.hangs, t.memory,
      max_mb);
  clean(scratch, 0, NULL);
  free(buf);
  return t.crashes || t.hangs || t.memory;
}

int main(int argc, char **argv)
{
  if (argc == 5 && strcmp(argv[1], "-craft") == 0) return craft(argv[2], argv[3], argv[4]);
  if (argc < 3 || strcmp(argv[1], "-flip") != 0) {
    fprintf(stderr,
            "usage: corpus_fuzz -flip FILE [-every K] [-from A] [-to B] [-seconds S] [-max_mb M]\n"
            "       corpus_fuzz -craft shifted_n|huge_n|nan|extend|extend_old|name=TEXT[@I] IN OUT\n");
    return 2;
  }
  long every = 1, from = 0, to = 0;
  double seconds = 5, max_mb = 512;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-every") == 0)
      every = atol(argv[i + 1]);
    else if (strcmp(argv[i], "-from") == 0)
      from = atol(argv[i + 1]);
    else if (strcmp(argv[i], "-to") == 0)
      to = atol(argv[i + 1]);
    else if (strcmp(argv[i], "-seconds") == 0)
      seconds = atof(argv[i + 1]);
    else if (strcmp(argv[i], "-max_mb") == 0)
      max_mb = atof(argv[i + 1]);
    else
      return fprintf(stderr, "error: unknown option %s\n", argv[i]), 2;
  }
  if (every < 1 || from < 0 || seconds <= 0)
    return fprintf(stderr, "error: bad -every, -from or -seconds\n"), 2;
  if (PetscInitializeNoArguments()) return 1; /* the rebuilt callback problems read options objects */
  int rc = flip(argv[2], every, from, to, seconds, max_mb);
  PetscFinalize();
  return rc;
}
