/* test_corpus_fc.c — frictional-contact problems (cp.h kind fc, the exact Coulomb cone) in the problem corpus
 * (corpus.h, schema version 4): a dense 3D problem and a sparse 2D one (stored as CSR) read back bit for bit
 * with their contact dimension and friction coefficients, and the checker's residual at a trial r the same
 * on the read copy; the same through a pipe record (corpus_stream.h, what a forked task sends); merge keeps
 * them; the Siconos export writes NAME_fc3d.dat / NAME_fc2d.dat that cp_io's FrictionContactProblem reader
 * reads back to the same data; the relaxed variant (cone complementarity) keeps its flag through the file and
 * is left out of the export (Siconos' text is Coulomb's law); a negative or NaN mu in a file makes the
 * problem corrupt with the reason. */
#include "check.h"
#include "corpus.h"
#include "corpus_stream.h"
#include "cp_fc.h"
#include "cp_io.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int same_fc(const struct cp_problem *a, const struct cp_problem *b)
{
  if (a->kind != CP_FC || b->kind != CP_FC || a->n != b->n || a->fc_dim != b->fc_dim ||
      a->fc_relaxed != b->fc_relaxed)
    return 0;
  for (int i = 0; i < a->n; i++)
    if (a->q[i] != b->q[i] || a->lo[i] != b->lo[i] || a->hi[i] != b->hi[i]) return 0;
  for (int c = 0; c < a->n / a->fc_dim; c++)
    if (a->mu[c] != b->mu[c]) return 0;
  return memcmp(a->M, b->M, (size_t)a->n * a->n * sizeof *a->M) == 0;
}

/* The checker's residual at a fixed trial r (not a solution: every term of the natural map counts). */
static double trial_residual(const struct cp_problem *p)
{
  double r[64], u[64];
  struct cp_check c;
  for (int i = 0; i < p->n; i++)
    r[i] = 0.1 + 0.37 * sin(1.3 * i);
  cp_check(p, r, u, &c);
  return c.natural;
}

/* A dense 3D problem of 3 contacts (every W entry nonzero) and a sparse 2D one of 6 contacts (block
 * diagonal W: CSR when stored), non-round data. */
static void make_fc(struct cp_problem **p3, struct cp_problem **p2)
{
  *p3 = cp_fc_create(3, 3), *p2 = cp_fc_create(2, 6);
  for (int i = 0; i < 9; i++) {
    for (int j = 0; j < 9; j++)
      (*p3)->M[i * 9 + j] = (i == j ? 3.0 : 0.0) + 1.0 / (1.0 + i + 2.0 * j);
    (*p3)->q[i] = -0.7 + 0.31 * i;
  }
  for (int c = 0; c < 3; c++)
    (*p3)->mu[c] = 0.3 + c / 7.0;
  for (int c = 0; c < 6; c++) {
    double *W = (*p2)->M;
    W[(2 * c) * 12 + 2 * c] = 1.5 + c / 3.0;
    W[(2 * c + 1) * 12 + 2 * c + 1] = 2.0 / 3.0;
    W[(2 * c) * 12 + 2 * c + 1] = W[(2 * c + 1) * 12 + 2 * c] = 0.1 * c;
    (*p2)->q[2 * c] = c % 2 ? -0.2 * c : 0.15;
    (*p2)->q[2 * c + 1] = 0.01 * c - 0.02;
    (*p2)->mu[c] = c == 0 ? 0.0 : M_PI / (4.0 + c);
  }
}

static void fc_meta(struct corpus_meta *m, const char *name, long step)
{
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", name);
  snprintf(m->driver, sizeof m->driver, "incline");
  snprintf(m->formulation, sizeof m->formulation, "coulomb_cone");
  snprintf(m->solver, sizeof m->solver, "fc_nsgs");
  snprintf(m->status, sizeof m->status, "converged");
  m->h = 0.01;
  m->step = step;
}

/* The problem named name of the corpus at path, read back (NULL when it cannot be). */
static struct cp_problem *read_named(const char *path, const char *name, char *err, size_t len)
{
  struct corpus *c = NULL;
  struct cp_problem *p = NULL;
  if (corpus_open(path, &c, err, len)) return NULL;
  int i = corpus_find(c, name);
  if (i < 0 || corpus_read(c, i, &p, err, len)) p = NULL;
  if (p && corpus_meta_at(c, i)->fc_dim != p->fc_dim) cp_destroy(&p);
  corpus_close(&c);
  return p;
}

static void test_file(const char *dir, const struct cp_problem *p3, const struct cp_problem *p2)
{
  char a[256], merged[256], err[512] = "";
  snprintf(a, sizeof a, "%s/a.h5", dir);
  snprintf(merged, sizeof merged, "%s/m.h5", dir);
  struct corpus_meta m;
  fc_meta(&m, "incline_task1_step1", 1);
  CHECK(corpus_append(a, p3, &m, 0, err, sizeof err) == 0, "append a dense 3D fc problem (%s)", err);
  fc_meta(&m, "incline_task0_step4", 4);
  CHECK(corpus_append(a, p2, &m, 0, err, sizeof err) == 0, "append a sparse 2D fc problem (%s)", err);
  struct corpus *c = NULL;
  CHECK(corpus_open(a, &c, err, sizeof err) == 0 && corpus_schema(c) == 4 && corpus_count(c) == 2 &&
            !strcmp(corpus_meta_at(c, 0)->kind, "fc") && corpus_meta_at(c, 0)->fc_dim == 3 &&
            corpus_meta_at(c, 1)->fc_dim == 2,
        "schema version 4, kind fc with fc_dim 3 and 2 in the table (%s)", err);
  corpus_close(&c);
  struct cp_problem *r3 = read_named(a, "incline_task1_step1", err, sizeof err),
                    *r2 = read_named(a, "incline_task0_step4", err, sizeof err);
  CHECK(r3 && same_fc(r3, p3), "the 3D problem reads back bit for bit: W, q, mu, d, free bounds (%s)", err);
  CHECK(r2 && same_fc(r2, p2), "the 2D problem (CSR) reads back bit for bit, mu = 0 included (%s)", err);
  CHECK(r3 && r2 && trial_residual(r3) == trial_residual(p3) && trial_residual(r2) == trial_residual(p2) &&
            trial_residual(p3) > 0.0,
        "the checker's residual at a trial r is the same on the copies (%g)", trial_residual(p3));
  cp_destroy(&r3);
  cp_destroy(&r2);
  const char *in[] = {a};
  CHECK(corpus_merge(merged, in, 1, err, sizeof err) == 0, "merge (%s)", err);
  r2 = read_named(merged, "incline_task0_step4", err, sizeof err);
  CHECK(r2 && same_fc(r2, p2), "merge keeps the fc problem (%s)", err);
  cp_destroy(&r2);
}

static void test_export(const char *dir, const struct cp_problem *p3, const struct cp_problem *p2)
{
  char a[256], out[256], dat[400], err[512] = "";
  snprintf(a, sizeof a, "%s/a.h5", dir);
  snprintf(out, sizeof out, "%s/export", dir);
  struct corpus *c = NULL;
  int written = 0, left = 0;
  int rc =
      corpus_open(a, &c, err, sizeof err) || corpus_export_siconos(c, out, &written, &left, err, sizeof err);
  CHECK(!rc && written == 2 && left == 0, "export: both fc problems written (%d, %d left out; %s)", written,
        left, err);
  corpus_close(&c);
  const struct {
    const char *file;
    const struct cp_problem *p;
  } f[] = {{"incline_task1_step1_fc3d.dat", p3}, {"incline_task0_step4_fc2d.dat", p2}};
  for (int k = 0; k < 2; k++) {
    struct cp_problem *r = NULL;
    snprintf(dat, sizeof dat, "%s/%s", out, f[k].file);
    CHECK(cp_read_file(dat, CP_FILE_AUTO, &r, err, sizeof err) == 0 && same_fc(r, f[k].p),
          "%s reads back through the Siconos reader to the same data (%s)", f[k].file, err);
    cp_destroy(&r);
  }
}

struct sink_ctx {
  const struct cp_problem *want;
  int same;
};

static int sink(void *ctx, const struct cp_problem *p, const struct corpus_meta *m,
                const struct corpus_callback *cb)
{
  struct sink_ctx *s = ctx;
  (void)m;
  s->same = !cb && same_fc(p, s->want);
  return 0;
}

static void test_stream(const struct cp_problem *p3)
{
  int fds[2];
  if (pipe(fds) != 0) {
    CHECK(0, "pipe");
    return;
  }
  struct corpus_stream_out o = {.fd = fds[1]};
  struct corpus_meta m;
  fc_meta(&m, "incline_task1_step1", 1);
  int rc = corpus_stream_put(&o, p3, &m, NULL) || corpus_stream_flush(&o);
  free(o.buf);
  close(fds[1]);
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  struct corpus_stream s = {0};
  struct sink_ctx ctx = {p3, 0};
  CHECK(!rc && corpus_stream_take(&s, fds[0], sink, &ctx) == 1 && ctx.same,
        "a pipe record carries the fc problem whole (d, mu)");
  corpus_stream_free(&s);
  close(fds[0]);
}

static void test_relaxed(const char *dir, const struct cp_problem *p3)
{
  char path[256], out[256], err[512] = "";
  snprintf(path, sizeof path, "%s/relaxed.h5", dir);
  snprintf(out, sizeof out, "%s/relaxed_export", dir);
  struct cp_problem *p = cp_duplicate(p3);
  p->fc_relaxed = 1;
  struct corpus_meta m;
  fc_meta(&m, "ccp_step1", 1);
  CHECK(corpus_append(path, p, &m, 0, err, sizeof err) == 0, "append a relaxed fc problem (%s)", err);
  struct cp_problem *r = read_named(path, "ccp_step1", err, sizeof err);
  CHECK(r && same_fc(r, p) && r->fc_relaxed == 1, "the relaxed flag reads back (%s)", err);
  cp_destroy(&r);
  struct corpus *c = NULL;
  int written = -1, left = -1;
  int rc = corpus_open(path, &c, err, sizeof err) ||
           corpus_export_siconos(c, out, &written, &left, err, sizeof err);
  CHECK(!rc && written == 0 && left == 1, "export leaves the relaxed problem out (%d written, %d left out)",
        written, left);
  corpus_close(&c);
  cp_destroy(&p);
}

static void test_corrupt(const char *dir, struct cp_problem *p2)
{
  char b[256], err[512] = "";
  snprintf(b, sizeof b, "%s/b.h5", dir);
  struct corpus_meta m;
  const double bad[2] = {-0.25, NAN};
  for (int k = 0; k < 2; k++) {
    p2->mu[3] = bad[k];
    fc_meta(&m, k ? "nan_mu" : "negative_mu", 1);
    corpus_append(b, p2, &m, 0, err, sizeof err);
  }
  struct corpus *c = NULL;
  const char *why[2] = {err, ""};
  if (corpus_open(b, &c, err, sizeof err) == 0 && corpus_count(c) == 2)
    for (int k = 0; k < 2; k++)
      why[k] = corpus_corrupt(c, k) ? corpus_corrupt(c, k) : "(not corrupt)";
  CHECK(strstr(why[0], "mu[3] = -0.25") && strstr(why[1], "mu[3] = nan"),
        "a negative or NaN mu is a corrupt problem: %s / %s", why[0], why[1]);
  corpus_close(&c);
}

int main(void)
{
  char dir[] = "/tmp/test_corpus_fc_XXXXXX";
  if (!mkdtemp(dir)) return CHECK(0, "temporary directory"), check_finish();
  struct cp_problem *p3 = NULL, *p2 = NULL;
  make_fc(&p3, &p2);
  test_file(dir, p3, p2);
  test_export(dir, p3, p2);
  test_stream(p3);
  test_relaxed(dir, p3);
  test_corrupt(dir, p2);
  cp_destroy(&p3);
  cp_destroy(&p2);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) fprintf(stderr, "note: could not remove %s\n", dir);
  return check_finish();
}
