/* test_corpus_faults.c — the corpus writer and reader when things go wrong (corpus.h): a writer that runs
 * into a file size limit (ulimit -f: no room for its next batch) says so naming the file, takes no more
 * problems, and leaves a file holding exactly its committed batches, each problem bit for bit; a file
 * detached from HDF5 after a failed write (corpus_disk.h) keeps the state of its last flush; a second
 * writer on a file is refused naming the file and the first writer, with HDF5's file locking off as well;
 * a writer killed with SIGKILL leaves a stale lock file that the next writer takes; rows past the committed
 * count (a batch that failed) are not read, and a writer reopening the file cuts them off before appending.
 */
#include "check.h"
#include "corpus.h"
#include "corpus_disk.h"

#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A dense LCP of size n whose data depend on k (so that each problem is its own). */
static struct cp_problem *problem(int n, int k)
{
  struct cp_problem *p = cp_lcp_create(n);
  for (int i = 0; i < n * n; i++)
    p->M[i] = 1.0 + (i * 7 + k) % 13 / 3.0;
  for (int i = 0; i < n; i++)
    p->q[i] = -1.0 + (i + k) % 5 / 7.0;
  return p;
}

static void meta(struct corpus_meta *m, int k)
{
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "incline_task0_step%d", k + 1);
  snprintf(m->driver, sizeof m->driver, "incline");
  m->h = 0.01;
  m->step = k + 1;
}

static int same(const struct cp_problem *a, const struct cp_problem *b)
{
  return a->n == b->n && memcmp(a->q, b->q, (size_t)a->n * sizeof *a->q) == 0 &&
         memcmp(a->M, b->M, (size_t)a->n * a->n * sizeof *a->M) == 0;
}

/* Every problem of path reads back as problem(n, k) for its step k + 1: 1 when all do. */
static int all_read_back(const char *path, int n, int *count)
{
  struct corpus *c = NULL;
  char err[1024];
  int ok = corpus_open(path, &c, err, sizeof err) == 0;
  *count = ok ? corpus_count(c) : -1;
  if (!ok) printf("# %s\n", err);
  for (int i = 0; ok && i < corpus_count(c); i++) {
    struct cp_problem *p = NULL, *want = problem(n, (int)corpus_meta_at(c, i)->step - 1);
    ok = corpus_read(c, i, &p, err, sizeof err) == 0 && same(p, want);
    if (!ok) printf("# problem %d: %s\n", i, corpus_corrupt(c, i) ? corpus_corrupt(c, i) : err);
    cp_destroy(&p);
    cp_destroy(&want);
  }
  corpus_close(&c);
  return ok;
}

/* A writer under a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it returns EFBIG) in a
 * child; its messages come back through a pipe. */
static void test_write_fails(const char *dir)
{
  char path[256], msg[1024] = "";
  int fds[2];
  snprintf(path, sizeof path, "%s/limited.h5", dir);
  if (pipe(fds)) {
    CHECK(0, "pipe");
    return;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit rl = {1500 * 1024, 1500 * 1024};
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &rl);
    struct corpus_writer *w = NULL;
    char err[1024] = "";
    int k = 0, rc = corpus_writer_open(path, &w, err, sizeof err);
    for (; !rc && k < 5000; k++) {
      struct corpus_meta m;
      struct cp_problem *p = problem(40, k);
      meta(&m, k);
      rc = corpus_writer_add(w, p, &m, 0, err, sizeof err);
      cp_destroy(&p);
    }
    int later = 0;
    if (rc == 1) { /* one more add: refused at once */
      struct corpus_meta m;
      struct cp_problem *p = problem(40, k + 1);
      meta(&m, k + 1);
      later = corpus_writer_add(w, p, &m, 0, NULL, 0);
      cp_destroy(&p);
    }
    corpus_writer_close(&w, NULL, 0);
    dprintf(fds[1], "%d %d %s", rc, later, err);
    _exit(0);
  }
  close(fds[1]);
  ssize_t got = read(fds[0], msg, sizeof msg - 1);
  msg[got > 0 ? got : 0] = '\0';
  close(fds[0]);
  waitpid(pid, NULL, 0);
  int rc = -1, later = -1, n = -1, held = -2;
  sscanf(msg, "%d %d", &rc, &later);
  const char *holds = strstr(msg, "holds the ");
  if (holds) sscanf(holds, "holds the %d", &held);
  CHECK(rc == 1 && strstr(msg, path) && strstr(msg, "ulimit -f"),
        "a file size limit: the add fails, naming the file and the limit (%s)", msg);
  CHECK(later == 1, "the writer takes no problem after that");
  int whole = all_read_back(path, 40, &n);
  CHECK(whole && n == held && n > 0,
        "the file opens and holds the %d problems committed, each bit for bit (%d)", held, n);
}

/* A file detached after a write that failed: closing it writes nothing, so it keeps its last flush. */
static void test_detach(const char *dir)
{
  char path[256];
  snprintf(path, sizeof path, "%s/detached.h5", dir);
  hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = 1024, n = 4096, more = 3 * 4096;
  double v[3 * 4096];
  for (int i = 0; i < 3 * 4096; i++)
    v[i] = i;
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
        sp = H5Screate_simple(1, &zero, &unlimited);
  hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(pl, 1, &chunk);
  hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
  H5Dset_extent(d, &n);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  H5Fflush(f, H5F_SCOPE_LOCAL);
  H5Dset_extent(d, &more); /* the batch that "failed": more chunks, a grown extent, a new chunk index */
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
  corpus_disk_detach(f, path);
  H5Dclose(d), H5Pclose(pl), H5Sclose(sp), H5Fclose(f);
  hsize_t size = 0;
  double back[4096] = {0};
  f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  d = f >= 0 ? H5Dopen2(f, "x", H5P_DEFAULT) : -1;
  sp = d >= 0 ? H5Dget_space(d) : -1;
  if (sp >= 0) H5Sget_simple_extent_dims(sp, &size, NULL);
  int read = d >= 0 && size == n && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0;
  CHECK(read && back[4095] == 4095.0, "a detached file keeps its last flush: %llu elements, its data whole",
        (unsigned long long)size);
  if (sp >= 0) H5Sclose(sp);
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
}

/* A second writer while the first has the file open; the lock after a writer killed with SIGKILL. */
static void test_one_writer(const char *dir)
{
  char path[256], err[1024] = "", lock[300];
  snprintf(path, sizeof path, "%s/locked.h5", dir);
  snprintf(lock, sizeof lock, "%s.lock", path);
  struct corpus_writer *a = NULL, *b = NULL;
  CHECK(corpus_writer_open(path, &a, err, sizeof err) == 0, "a writer opens (%s)", err);
  char pid[32];
  snprintf(pid, sizeof pid, "pid %d", (int)getpid());
  CHECK(corpus_writer_open(path, &b, err, sizeof err) == 1 && strstr(err, path) && strstr(err, pid) &&
            strstr(err, "another writer"),
        "a second writer is refused, naming the file and the first writer (HDF5_USE_FILE_LOCKING=%s): %s",
        getenv("HDF5_USE_FILE_LOCKING"), err);
  corpus_writer_close(&a, NULL, 0);
  CHECK(access(lock, F_OK) != 0, "the first writer's close removes its lock file");
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) {
    struct corpus_writer *w = NULL;
    if (corpus_writer_open(path, &w, NULL, 0)) _exit(1);
    pause();
  }
  const struct timespec tick = {0, 10000000};
  for (int i = 0; i < 500 && access(lock, F_OK) != 0; i++)
    nanosleep(&tick, NULL);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  CHECK(access(lock, F_OK) == 0, "a writer killed with SIGKILL leaves its lock file");
  CHECK(corpus_writer_open(path, &b, err, sizeof err) == 0, "the next writer takes the stale lock (%s)", err);
  corpus_writer_close(&b, NULL, 0);
}

/* Rows past the committed count: a table row appended by hand after the last batch, as a failed batch
 * leaves one. */
static void test_uncommitted(const char *dir)
{
  char path[256], err[1024] = "";
  snprintf(path, sizeof path, "%s/uncommitted.h5", dir);
  struct corpus_meta m;
  struct cp_problem *p = problem(5, 0);
  meta(&m, 0);
  CHECK(corpus_append(path, p, &m, 0, err, sizeof err) == 0, "one problem appended (%s)", err);
  cp_destroy(&p);
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), d = H5Dopen2(f, "problems", H5P_DEFAULT);
  hsize_t three = 3;
  H5Dset_extent(d, &three); /* two rows of zeros: no name, no data */
  H5Dclose(d);
  H5Fclose(f);
  struct corpus *c = NULL;
  CHECK(corpus_open(path, &c, err, sizeof err) == 0 && corpus_count(c) == 1 && corpus_uncommitted(c) == 2,
        "the reader takes the committed row only (2 past it left out) (%s)", err);
  corpus_close(&c);
  p = problem(5, 1);
  meta(&m, 1);
  CHECK(corpus_append(path, p, &m, 0, err, sizeof err) == 0, "a writer appends to it (%s)", err);
  cp_destroy(&p);
  int n = -1;
  CHECK(all_read_back(path, 5, &n) && n == 2, "after it: 2 problems, both whole (%d)", n);
}

int main(void)
{
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1); /* the lock must not depend on HDF5's */
  char dir[] = "/tmp/test_corpus_faults_XXXXXX";
  if (!mkdtemp(dir)) return CHECK(0, "temporary directory"), check_finish();
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  test_write_fails(dir);
  test_detach(dir);
  test_one_writer(dir);
  test_uncommitted(dir);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "note: could not remove %s\n", dir);
  return check_finish();
}
