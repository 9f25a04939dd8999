/* test_cp_io.c — problem files (solvers/core/cp_io.c): the Siconos dense and sparse-block forms of the same
 * LCPs agree, the MLCP A..b form lands in M = [A C; D B], a plain file round-trips bit for bit, and every
 * malformed case is refused with a message naming the line. */
#include "check.h"
#include "cp_io.h"

#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct cp_problem *load(const char *dir, const char *name)
{
  char path[512], err[512];
  snprintf(path, sizeof path, "%s/siconos/%s", dir, name);
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_AUTO, &p, err, sizeof err) != 0) printf("# %s\n", err);
  return p;
}

static int same_problem(const struct cp_problem *a, const struct cp_problem *b)
{
  if (!a || !b || a->n != b->n || a->n_eq != b->n_eq) return 0;
  for (size_t k = 0; k < (size_t)a->n * a->n; k++)
    if (a->M[k] != b->M[k]) return 0;
  for (int i = 0; i < a->n; i++)
    if (a->q[i] != b->q[i]) return 0;
  return 1;
}

static void test_siconos_files(void)
{
  const char *dir = check_shared_data();
  if (!dir) {
    check_skip("Siconos files: ../shared/data absent");
    return;
  }
  static const char *const pairs[][2] = {{"lcp/lcp_deudeu.dat", "lcp/lcp_deudeu_block.dat"},
                                         {"lcp/lcp_ortiz.dat", "lcp/lcp_ortiz_block.dat"},
                                         {"lcp/lcp_trivial.dat", "lcp/lcp_trivial_block.dat"}};
  for (int k = 0; k < 3; k++) {
    struct cp_problem *a = load(dir, pairs[k][0]), *b = load(dir, pairs[k][1]);
    CHECK(same_problem(a, b), "siconos: dense and sparse-block %s agree", pairs[k][0]);
    cp_destroy(&a);
    cp_destroy(&b);
  }
  struct cp_problem *p = load(dir, "lcp/lcp_CPS_1.dat");
  CHECK(p && p->n == 2 && p->M[0] == 1 && p->M[1] == 1 && p->q[0] == -1,
        "siconos: lcp_CPS_1 read column-major");
  cp_destroy(&p);
  /* Rectangular: A = 1, B = 1, C = -1, D = 1, a = 0, b = -1 after a 3 x 2 first form. RCD: A = [0.1 -0.1;
   * -1.505 0.5], B = 0, C = [-1; 0], D = [0 -1], a = [0, 0.495], b = 0 (the file's first, column-major form
   * holds the same M: checked by hand). */
  p = load(dir, "mlcp/RCD_mlcp.dat");
  CHECK(p && p->kind == CP_MLCP && p->n == 3 && p->n_eq == 2,
        "siconos: RCD_mlcp is a mixed LCP, n_eq 2, m 1");
  if (p) {
    const double M[9] = {0.1, -0.1, -1, -1.505, 0.5, 0, 0, -1, 0}, q[3] = {0, 0.495, 0};
    int ok = 1;
    for (int i = 0; i < 9; i++)
      ok &= p->M[i] == M[i];
    for (int i = 0; i < 3; i++)
      ok &= p->q[i] == q[i];
    CHECK(ok, "siconos: RCD_mlcp M = [A C; D B], q = [a; b]");
  }
  cp_destroy(&p);
  p = load(dir, "mlcp/Rectangular_mlcp.dat");
  CHECK(p && p->n == 2 && p->n_eq == 1 && p->M[0] == 1 && p->M[1] == -1 && p->M[2] == 1 && p->M[3] == 1 &&
            p->q[1] == -1,
        "siconos: Rectangular_mlcp (rectangular first form) read through its A..b form");
  cp_destroy(&p);
}

static void test_round_trip(void)
{
  struct cp_problem *p = cp_mlcp_create(1, 2);
  for (int k = 0; k < 9; k++)
    p->M[k] = 1.0 / (k + 3.0) - 0.1 * k;
  for (int i = 0; i < 3; i++)
    p->q[i] = -0.7 + 1.0 / 3.0 * i;
  char path[] = "/tmp/cb_test_cp_io_XXXXXX", err[512];
  int fd = mkstemp(path);
  CHECK(fd >= 0, "round trip: temporary file");
  struct cp_problem *r = NULL;
  int rc = cp_write_plain(path, p, err, sizeof err);
  CHECK(rc == 0, "round trip: write plain");
  rc = cp_read_file(path, CP_FILE_PLAIN, &r, err, sizeof err);
  CHECK(rc == 0 && same_problem(p, r), "round trip: plain mixed LCP reads back bit for bit");
  remove(path);
  cp_destroy(&p);
  cp_destroy(&r);
}

static void expect_error(const char *text, enum cp_file_format fmt, const char *needle, const char *what)
{
  struct cp_problem *p = NULL;
  char err[512] = "";
  int rc = cp_read_text(text, "case.txt", fmt, &p, err, sizeof err);
  CHECK(rc != 0 && p == NULL && strstr(err, needle) != NULL, "bad input refused: %s (message: %s)", what,
        err);
  cp_destroy(&p);
}

/* head, then n zeros (a q the header's n asks for): a file of a few hundred kB. NULL: out of memory. */
static char *with_zeros(const char *head, int n)
{
  size_t len = strlen(head);
  char *t = malloc(len + 2 * (size_t)n + 2);
  if (!t) return NULL;
  memcpy(t, head, len);
  for (int i = 0; i < n; i++)
    t[len + 2 * (size_t)i] = '0', t[len + 2 * (size_t)i + 1] = i + 1 < n ? ' ' : '\n';
  t[len + 2 * (size_t)n] = '\0';
  return t;
}

/* A matrix in sparse blocks (Siconos storage 1) need not be in the file whole: its header alone would make
 * the reader allocate a dense n x n matrix (n = 30000: 7.2 GB, twice). Above the stated limit for a matrix
 * the file does not hold whole (0.537 GB, n = 8192) it is refused before any allocation; below it, read. */
static void test_sparse_headers(void)
{
  char *lcp = with_zeros("30000\n1 30000 30000\n0\n", 30000);
  char *mlcp = with_zeros("1 0 0 20000\n0 20000\n1\n1 20000 20000\n0\n", 20000);
  char *small = with_zeros("3\n1 3 3\n0\n", 3);
  CHECK(lcp && mlcp && small, "sparse headers: out of memory");
  if (!lcp || !mlcp || !small) goto done;
  expect_error(lcp, CP_FILE_SICONOS_LCP,
               "a 30000 x 30000 matrix is a 7.2 GB dense one, but the rest of the file holds at most",
               "sparse-block LCP of n = 30000 (60 kB of q)");
  expect_error(lcp, CP_FILE_SICONOS_LCP, "limit of 0.537 GB (n = 8192)", "the message states the limit");
  expect_error(mlcp, CP_FILE_SICONOS_MLCP, "a 20000 x 20000 matrix is a 3.2 GB dense one",
               "sparse-block MLCP (first form only) of n + m = 20000");
  struct cp_problem *p = NULL;
  char err[512] = "";
  int rc = cp_read_text(small, "small.dat", CP_FILE_SICONOS_LCP, &p, err, sizeof err);
  CHECK(rc == 0 && p && p->n == 3 && p->M[0] == 0.0, "a small sparse-block LCP still reads (%s)",
        rc ? err : "ok");
  cp_destroy(&p);
done:
  free(lcp);
  free(mlcp);
  free(small);
}

static void test_bad_input(void)
{
  struct cp_problem *p = NULL;
  char err[512];
  int rc =
      cp_read_text("# ok\n2\n2 1\n1 2  # comment\n\n-5 -6\n", "good.txt", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc == 0 && p && p->n == 2 && p->M[1] == 1 && p->q[1] == -6,
        "plain: comments and blank lines allowed");
  cp_destroy(&p);
  expect_error("", CP_FILE_PLAIN, "empty file", "empty file");
  expect_error("x\n", CP_FILE_PLAIN, ":1: dimension n: 'x' is not an integer", "non-integer n");
  expect_error("0\n", CP_FILE_PLAIN, "outside", "n = 0");
  expect_error("2\n2 1\n1\n-5 -6\n", CP_FILE_PLAIN, ":3: row 2 of M: too few", "short row");
  expect_error("2\n2 1 7\n1 2\n-5 -6\n", CP_FILE_PLAIN, ":2: row 1 of M: extra value '7'", "long row");
  expect_error("2\n2 1\n1 2\n", CP_FILE_PLAIN, "q: file ends early", "truncated before q");
  expect_error("2\n2 1\n1 2\n-5 -6\n1 1\n", CP_FILE_PLAIN, ":5: unexpected content", "extra line");
  expect_error("2\n2 abc\n1 2\n-5 -6\n", CP_FILE_PLAIN, ":2: row 1 of M: 'abc' is not a number",
               "non-number");
  expect_error("2\n2 nan\n1 2\n-5 -6\n", CP_FILE_PLAIN, "not a finite number", "NaN in M");
  expect_error("2\n2 1\n1 2\n-5 inf\n", CP_FILE_PLAIN, "not a finite number", "Inf in q");
  expect_error("2\n2 1\n1 2\n-5 1e999\n", CP_FILE_PLAIN, "not a finite number", "overflow in q");
  expect_error("2\n0\n2\n2\n2 2\n1 1\n1\n", CP_FILE_SICONOS_LCP, "file ends early", "truncated Siconos LCP");
  expect_error("2\n0\n3\n3\n3 3\n", CP_FILE_SICONOS_LCP, "expected 2 x 2", "Siconos LCP dimension mismatch");
  expect_error("2\n7\n", CP_FILE_SICONOS_LCP, "storage type", "unknown storage type");
  expect_error("0 0 1 1\n", CP_FILE_SICONOS_MLCP, "neither storage form", "MLCP with no form");
  expect_error("0 1 1 1\n1\n2\n", CP_FILE_SICONOS_MLCP, "file ends early", "truncated MLCP");
}

/* What a hostile file does to the reader: long numbers, subnormals, endless or binary input, a header
 * promising more than the file holds, a directory, control bytes and a byte order mark. */
static void test_hostile_input(void)
{
  struct cp_problem *p = NULL;
  char err[512] = "", text[400];
  /* 1. and 140 zeros then 1e5: read whole (it used to be cut at 127 characters and read as 1.0) */
  int k = snprintf(text, sizeof text, "1\n1.");
  for (int i = 0; i < 140; i++)
    text[k++] = '0';
  snprintf(text + k, sizeof text - (size_t)k, "1e5\n-1\n");
  int rc = cp_read_text(text, "long.txt", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc == 0 && p && p->M[0] == 1e5, "a 146-character number is read whole (%g; %s)", p ? p->M[0] : 0.0,
        err);
  cp_destroy(&p);
  /* subnormals: accepted, and a written file reads back bit for bit */
  rc = cp_read_text("2\n1e-320 0\n0 4.9406564584124654e-324\n-1e-310 1\n", "sub.txt", CP_FILE_PLAIN, &p, err,
                    sizeof err);
  CHECK(rc == 0 && p && p->M[0] > 0.0 && p->M[0] < 2.3e-308 && p->M[3] > 0.0, "subnormals are accepted (%s)",
        rc ? err : "ok");
  char path[] = "/tmp/cb_test_cp_io_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "subnormal round trip: temporary file");
  struct cp_problem *r = NULL;
  if (p) {
    p->q[1] = -0x1p-1074; /* the smallest subnormal */
    rc = cp_write_plain(path, p, err, sizeof err) || cp_read_file(path, CP_FILE_PLAIN, &r, err, sizeof err);
    CHECK(rc == 0 && same_problem(p, r), "subnormal round trip: -write output reads back bit for bit (%s)",
          rc ? err : "ok");
  }
  cp_destroy(&r);
  /* a size limit: refused with a message (tests use a small one; the default is CP_IO_MAX_FILE_BYTES) */
  rc = cp_read_file_limited(path, CP_FILE_PLAIN, 16, &r, err, sizeof err);
  CHECK(rc != 0 && r == NULL && strstr(err, "larger than the reader's limit"), "size limit: %s", err);
  remove(path);
  cp_destroy(&p);
  rc = cp_read_file("/dev/zero", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc != 0 && p == NULL && strstr(err, "/dev/zero: binary data (NUL byte)"), "/dev/zero: %s", err);
  rc = cp_read_file("/tmp", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc != 0 && strstr(err, "/tmp: is a directory"), "a directory: %s", err);
  /* a header promising more data than the file holds: refused before the n x n allocation */
  expect_error("20000\n1 2\n3 4\n", CP_FILE_PLAIN,
               "file ends early: n = 20000 needs at least 400020000 numbers", "n = 20000 over two lines");
  expect_error("100000\n1 2\n3 4\n", CP_FILE_PLAIN, "n = 100000 needs a 80 GB dense matrix", "n = 100000");
  expect_error("0 1 20000 0\n1\n", CP_FILE_SICONOS_MLCP, "file ends early: n = 20000", "MLCP n = 20000");
  test_sparse_headers();
  /* control bytes are escaped in messages; a leading UTF-8 byte order mark is skipped */
  expect_error("2\n2 1\x1b[31m\n1 2\n-5 -6\n", CP_FILE_PLAIN, "'1\\x1b[31m' is not a number",
               "escape sequence");
  rc = cp_read_text("2\n2 \x01\n1 2\n-5 -6\n", "ctl.txt", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc != 0 && !strchr(err, '\x01') && strstr(err, "'\\x01'"), "a control byte is shown as \\x01: %s",
        err);
  rc = cp_read_text("\xef\xbb\xbf"
                    "2\n2 1\n1 2\n-5 -6\n",
                    "bom.txt", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc == 0 && p && p->n == 2 && p->q[1] == -6, "a leading byte order mark is skipped (%s)",
        rc ? err : "ok");
  cp_destroy(&p);
  expect_error("2\n2 \xef\xbb\xbf"
               "1\n1 2\n-5 -6\n",
               CP_FILE_PLAIN, "'\\xef\\xbb\\xbf1' is not a number", "a byte order mark inside is escaped");
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_siconos_files();
  test_hostile_input();
  test_round_trip();
  test_bad_input();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
