/* test_fuzz_readers.c — the readers of untrusted text under damage: the problem reader (cp_io.c: plain,
 * Siconos LCP and MLCP .dat), the world text (world_io.c, as a problem corpus stores it) and the CSV reader
 * of the engine's files (table.c: ledgers, tasks.csv). Each run damages a valid text one way — a byte
 * replaced, a bit flipped, a byte deleted or inserted, the text cut, a span repeated, a number swapped for a
 * boundary value ("1e308", "-1", "nan", "2147483648", ...) — and hands it to the reader. What must hold:
 * nothing crashes (the sanitizer build runs this too), a refusal says why (a message), and what is accepted
 * is consistent: a problem has finite data and reads back the same after writing it out; a world's text
 * written again reads back to the same text; a table's rows have the header's width and survive a write and
 * a read. The memory the whole test takes stays bounded (a damaged size field must not allocate gigabytes).
 * Runs per reader: FUZZ_RUNS in the environment (default 4000; `make fuzz` runs more). Seeded: the same
 * damage every run. */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "scene.h"
#include "table.h"
#include "world_io.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_TEXT (1 << 20)
/* Peak memory growth allowed over all runs: a damaged size field must not allocate gigabytes. The
 * sanitizer build keeps freed blocks in quarantine (256 MB by default) and adds shadow memory. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_GROWTH_MB 2048L
#else
#define RSS_GROWTH_MB 512L
#endif

static const char *const boundary[] = {"1e308", "-1e308", "1e-320", "-1",          "0",  "2147483648",
                                       "-0",    "nan",    "inf",    "99999999999", "1x", "#"};

/* One damaged copy of seed (len bytes) into out (room for MAX_TEXT); its length. */
static size_t damage(const char *seed, size_t len, gsl_rng *rng, char *out)
{
  size_t at = len ? gsl_rng_uniform_int(rng, len) : 0, n = len;
  memcpy(out, seed, len);
  switch (gsl_rng_uniform_int(rng, 7)) {
  case 0: out[at] = (char)gsl_rng_uniform_int(rng, 256); break;
  case 1: out[at] ^= (char)(1u << gsl_rng_uniform_int(rng, 8)); break;
  case 2: memmove(out + at, out + at + 1, len - at - 1), n--; break;
  case 3:
    memmove(out + at + 1, out + at, len - at);
    out[at] = "0123456789-.e \n,#"[gsl_rng_uniform_int(rng, 17)];
    n++;
    break;
  case 4: n = at; break;
  case 5: { /* a span repeated in place */
    size_t span = 1 + gsl_rng_uniform_int(rng, len - at < 64 ? len - at : 64);
    if (n + span < MAX_TEXT) {
      memmove(out + at + span, out + at, len - at);
      n += span;
    }
    break;
  }
  default: { /* the number (or word) at a random place swapped for a boundary value */
    size_t s = at;
    while (s < len && (out[s] == ' ' || out[s] == '\n' || out[s] == ','))
      s++;
    size_t e = s;
    while (e < len && out[e] != ' ' && out[e] != '\n' && out[e] != ',')
      e++;
    const char *b = boundary[gsl_rng_uniform_int(rng, sizeof boundary / sizeof boundary[0])];
    size_t bl = strlen(b);
    if (len - (e - s) + bl < MAX_TEXT) {
      memmove(out + s + bl, out + e, len - e);
      memcpy(out + s, b, bl);
      n = len - (e - s) + bl;
    }
  }
  }
  out[n] = '\0';
  return n;
}

static char *slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  char *buf = f ? malloc(MAX_TEXT) : NULL;
  *len = buf ? fread(buf, 1, MAX_TEXT / 2, f) : 0;
  if (f) fclose(f);
  if (buf) buf[*len] = '\0';
  return buf;
}

static int problem_consistent(const struct cp_problem *p)
{
  if (p->n <= 0 || !cp_is_linear(p)) return 0;
  for (size_t k = 0; k < (size_t)p->n * (size_t)p->n; k++)
    if (!isfinite(p->M[k])) return 0;
  for (int i = 0; i < p->n; i++)
    if (!isfinite(p->q[i])) return 0;
  return 1;
}

/* Written out and read back: the same n, kind and data. */
static int problem_round_trip(const struct cp_problem *p, const char *tmp)
{
  char err[512];
  struct cp_problem *back = NULL;
  if (cp_write_plain(tmp, p, err, sizeof err) || cp_read_file(tmp, CP_FILE_PLAIN, &back, err, sizeof err))
    return 0;
  int same = back->n == p->n && back->kind == p->kind &&
             memcmp(back->M, p->M, (size_t)p->n * (size_t)p->n * sizeof *p->M) == 0 &&
             memcmp(back->q, p->q, (size_t)p->n * sizeof *p->q) == 0;
  cp_destroy(&back);
  return same;
}

static void fuzz_problems(gsl_rng *rng, long runs, char *buf, const char *tmp)
{
  const char *seeds[] = {"tests/data/lemke_triangle_drop_stewart_trinkle_h0.003.txt",
                         "tests/data/lemke_nonconvex_max_ray.dat", "siconos/lcp/lcp_CPS_1.dat",
                         "siconos/mlcp/deudeu_mlcp.dat", "siconos/mlcp/m3n2_mlcp.dat"};
  const enum cp_file_format fmt[] = {CP_FILE_PLAIN, CP_FILE_SICONOS_LCP, CP_FILE_SICONOS_LCP,
                                     CP_FILE_SICONOS_MLCP, CP_FILE_SICONOS_MLCP};
  const char *data = check_shared_data();
  long accepted = 0, refused = 0, silent = 0, inconsistent = 0, done = 0;
  for (int s = 0; s < 5; s++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", s < 2 ? "." : data ? data : "", seeds[s]);
    size_t len;
    char *seed = s < 2 || data ? slurp(path, &len) : NULL;
    struct cp_problem *p = NULL;
    char err[1024] = "";
    if (!seed || cp_read_text(seed, path, fmt[s], &p, err, sizeof err)) {
      if (s >= 2 && !data)
        check_skip("problem seed %s: the shared data is absent", seeds[s]);
      else
        CHECK(0, "problem seed %s reads: %s", path, err);
      free(seed);
      continue;
    }
    cp_destroy(&p);
    for (long r = 0; r < runs / 5; r++, done++) {
      damage(seed, len, rng, buf);
      err[0] = '\0';
      if (cp_read_text(buf, "fuzz", fmt[s], &p, err, sizeof err)) {
        refused++;
        silent += err[0] == '\0';
      } else {
        accepted++;
        inconsistent += !problem_consistent(p) || !problem_round_trip(p, tmp);
        cp_destroy(&p);
      }
    }
    free(seed);
  }
  CHECK(
      silent == 0 && inconsistent == 0,
      "problem reader: %ld damaged texts, %ld refused (%ld without a message), %ld accepted (%ld not finite "
      "or not reading back the same)",
      done, refused, silent, accepted, inconsistent);
}

static void fuzz_worlds(gsl_rng *rng, long runs, char *buf)
{
  /* 2D with joints, polygons and discs; 3D with polyhedra, spheres and planes; superellipse, superellipsoid
   */
  const char *specs[] = {"chain:links=3",        "cannonball:rows=2",   "box_drop3d",
                         "superellipse_on_line", "superellipsoid_drop", "sphere_two_spheres"};
  long accepted = 0, refused = 0, silent = 0, unstable = 0, done = 0;
  for (int s = 0; s < 6; s++) {
    struct world *w = NULL;
    char *seed = NULL, err[1024] = "";
    size_t len = 0;
    if (scene_create_from_spec(specs[s], NULL, &w, err, sizeof err) || world_to_text(w, &seed, &len)) {
      CHECK(0, "world seed %s: %s", specs[s], err);
      world_destroy(&w);
      continue;
    }
    world_destroy(&w);
    for (long r = 0; r < runs / 6 && len < MAX_TEXT / 2; r++, done++) {
      size_t n = damage(seed, len, rng, buf);
      err[0] = '\0';
      if (world_from_text(buf, n, &w, err, sizeof err)) {
        refused++;
        silent += err[0] == '\0';
        continue;
      }
      accepted++;
      /* what was accepted is a world: its text reads back to the same text */
      char *t1 = NULL, *t2 = NULL;
      size_t l1 = 0, l2 = 0;
      struct world *w2 = NULL;
      int ok = world_to_text(w, &t1, &l1) == 0 && world_from_text(t1, l1, &w2, err, sizeof err) == 0 &&
               world_to_text(w2, &t2, &l2) == 0 && l1 == l2 && memcmp(t1, t2, l1) == 0;
      unstable += !ok;
      free(t1);
      free(t2);
      world_destroy(&w2);
      world_destroy(&w);
    }
    free(seed);
  }
  CHECK(silent == 0 && unstable == 0,
        "world text: %ld damaged texts, %ld refused (%ld without a message), %ld accepted (%ld not reading "
        "back to the same text)",
        done, refused, silent, accepted, unstable);
}

static void fuzz_tables(gsl_rng *rng, long runs, char *buf, const char *tmp, const char *tmp2)
{
  static const char seed[] = "task_id,h,formulation,solver,status,residual,step_seconds\n"
                             "# a comment\n"
                             "0,0.01,stewart_trinkle,lemke,ok,1.2e-15,0.00031\n"
                             "1,0.001,geometric_implicit,fb_newton,solve_failed,,0.0042\n"
                             "\n"
                             "2,0.1,peg,path_crash,not_applicable,nan,\n";
  long accepted = 0, refused = 0, bad_width = 0, unstable = 0, done = 0;
  for (long r = 0; r < runs; r++, done++) {
    size_t n = damage(seed, sizeof seed - 1, rng, buf);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(buf, 1, n, f) != n) {
      CHECK(0, "cannot write %s", tmp);
      if (f) fclose(f);
      return;
    }
    fclose(f);
    struct table *t = NULL;
    if (table_read(tmp, r % 2 ? TABLE_TORN_LAST : TABLE_STRICT, &t) != 0) {
      refused++; /* table_read names the file and line on stderr */
      continue;
    }
    accepted++;
    for (int i = 0; i < t->nrow; i++)
      for (int c = 0; c < t->ncol; c++)
        bad_width += table_get(t, i, c) == NULL || strchr(table_get(t, i, c), ',') != NULL;
    struct table *back = NULL;
    f = fopen(tmp2, "wb");
    int ok = f && table_write(t, f) == 0;
    if (f) fclose(f);
    ok = ok && table_read(tmp2, TABLE_STRICT, &back) == 0 && back->nrow == t->nrow && back->ncol == t->ncol;
    for (int i = 0; ok && i < t->nrow; i++)
      for (int c = 0; ok && c < t->ncol; c++)
        ok = strcmp(table_get(t, i, c), table_get(back, i, c)) == 0;
    unstable += !ok;
    table_destroy(&back);
    table_destroy(&t);
  }
  CHECK(bad_width == 0 && unstable == 0,
        "CSV reader: %ld damaged tables, %ld refused, %ld accepted (%ld fields with a comma or missing, %ld "
        "not "
        "surviving a write and a read)",
        done, refused, accepted, bad_width, unstable);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const char *env = getenv("FUZZ_RUNS");
  long runs = env ? atol(env) : 4000;
  char tmp[64], tmp2[64], dir[] = "/tmp/cb_fuzzXXXXXX";
  char *buf = malloc(MAX_TEXT + 1);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 31);
  if (!buf || !mkdtemp(dir) || runs <= 0) {
    CHECK(0, "set-up (FUZZ_RUNS %ld)", runs);
    free(buf);
    gsl_rng_free(rng);
    return check_finish();
  }
  snprintf(tmp, sizeof tmp, "%s/a", dir);
  snprintf(tmp2, sizeof tmp2, "%s/b", dir);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const long rss0 = ru.ru_maxrss;
  /* the readers' own messages (table_read writes to stderr) would flood the log: kept out of it */
  FILE *quiet = freopen("/dev/null", "w", stderr);
  fuzz_problems(rng, runs, buf, tmp);
  fuzz_worlds(rng, runs, buf);
  fuzz_tables(rng, runs, buf, tmp, tmp2);
  getrusage(RUSAGE_SELF, &ru);
  CHECK(ru.ru_maxrss - rss0 < RSS_GROWTH_MB * 1024,
        "peak memory grew by %ld MB over the damaged inputs (< %ld MB)", (ru.ru_maxrss - rss0) / 1024,
        RSS_GROWTH_MB);
  (void)quiet;
  unlink(tmp);
  unlink(tmp2);
  rmdir(dir);
  gsl_rng_free(rng);
  free(buf);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
