/* auto.c — solver `auto`: dantzig below the measured crossover (symmetric M or a P-matrix), lemke otherwise
 * and as the fallback (select.h); a boxed LCP with friction index goes to dantzig at every n (lemke has no
 * friction index). Both run under this solve's clock and limits; the answer is judged by the harness like any
 * other; the message says which method gave it. */
#include "select.h"
#include "solver.h"

#include <stddef.h>
#include <stdlib.h>

struct auto_data {
  int pivoting_max_n; /* -auto_pivoting_max_n */
  struct solver *dantzig, *lemke;
};

static const struct option_decl auto_options[] = {
    {"pivoting_max_n", OPT_INT, offsetof(struct auto_data, pivoting_max_n), SELECT_PIVOTING_MAX_N,
     "[0,100000]", "problems with at most this many unknowns go to dantzig first (0: never)"},
};

static int auto_create(struct solver *s)
{
  struct auto_data *d = calloc(1, sizeof *d);
  s->data = d;
  if (!d) return 1;
  char msg[256];
  return solver_create("dantzig", &d->dantzig, msg, sizeof msg) != 0 ||
         solver_create("lemke", &d->lemke, msg, sizeof msg) != 0;
}

/* The methods honour their own options (-dantzig_..., -lemke_...); limits come from this solver's -cp_. */
static int auto_set_from_options(struct solver *s, char *msg, size_t len)
{
  struct auto_data *d = s->data;
  if (solver_set_from_options(d->dantzig, s->options, msg, len) != 0) return 1;
  return solver_set_from_options(d->lemke, s->options, msg, len);
}

static int auto_setup(struct solver *s, const struct cp_problem *p)
{
  struct auto_data *d = s->data;
  return solver_setup(d->dantzig, p) != 0 || (p->kind != CP_BOXED && solver_setup(d->lemke, p) != 0);
}

/* One method under this solve's clock, limits and settings, with used iterations of -cp_max_it spent. */
static int auto_run(const struct solver *s, struct solver *sub, const struct cp_problem *p, double *z,
                    struct solve_result *r, int used)
{
  sub->set = s->set;
  if (s->set.max_it > 0) sub->set.max_it = s->set.max_it - used;
  sub->t_start = s->t_start;
  return sub->type->solve(sub, p, z, r);
}

static int auto_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct auto_data *d = s->data;
  /* a boxed LCP with friction index: dantzig's (lemke has no friction index), at every n */
  if (p->kind == CP_BOXED) return auto_run(s, d->dantzig, p, z, r, 0);
  if (!s->set.warm_start && p->n <= d->pivoting_max_n) {
    if (auto_run(s, d->dantzig, p, z, r, 0) != 0) return 1;
    if (r->status == SOLVE_CONVERGED || !solver_accepts(d->lemke->type, p)) return 0;
    if (s->set.max_it > 0 && r->iterations >= s->set.max_it) return 0; /* the limit is spent */
    /* no answer from dantzig: lemke from the start, the pivots of both counted */
    int pivots = r->iterations;
    enum solve_status first = r->status;
    for (int i = 0; i < p->n; i++)
      z[i] = cp_mid(p->lo[i], p->hi[i], 0.0);
    r->message[0] = '\0';
    r->no_answer = 0;
    int err = auto_run(s, d->lemke, p, z, r, pivots);
    r->iterations += pivots;
    if (!r->message[0])
      snprintf(r->message, sizeof r->message, "lemke after dantzig's %s", solve_status_name(first));
    return err;
  }
  return auto_run(s, d->lemke, p, z, r, 0);
}

static void auto_destroy(struct solver *s)
{
  struct auto_data *d = s->data;
  if (d) {
    solver_destroy(&d->dantzig);
    solver_destroy(&d->lemke);
  }
  free(s->data);
  s->data = NULL;
}

static void auto_view(const struct solver *s, FILE *out)
{
  const struct auto_data *d = s->data;
  fprintf(out, "  dantzig for problems with n <= %d, lemke otherwise and after a dantzig failure\n",
          d->pivoting_max_n);
}

const struct solver_type solver_type_auto = {
    .name = "auto",
    .summary = "the automatic choice: dantzig on small symmetric or P-matrix problems, lemke otherwise and "
               "as fallback",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_BOXED,
    .options = auto_options,
    .n_options = 1,
    .create = auto_create,
    .set_from_options = auto_set_from_options,
    .setup = auto_setup,
    .solve = auto_solve,
    .destroy = auto_destroy,
    .view = auto_view,
};
