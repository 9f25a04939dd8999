/* peg_lcp.c — the PEG time-stepping LCP (Williams, Lu & Trinkle 2016, eqs. 43-49) with the single-primary
 * heuristic, nu eliminated: with nu+ = nu_free + M^-1 (sum of impulse columns), nu_free = nu + h M^-1 k,
 *   U row   (eq. 44):  Gn' nu+ + psi_n / h                           >= 0  perp  p_n >= 0
 *   primary (eq. 46):  G_iota' nu+ + c + psi_iota / h                >= 0  perp  p_I >= 0
 *   slack   (eq. 45):  (G_iota - G_kappa)' nu+ + c + (psi_iota - psi_kappa) / h >= 0  perp  c >= 0
 * (E_I1 = E_I2 = 1: in 2D every I has one primary and one other contact; c is in velocity units). An X
 * constraint takes the same rows, its auxiliary impulse along its first contact's normal, as the authors'
 * PEG2_dynamics.m converts X into I (the paper's eq. 48 leaves X's inequality 21 without a partner).
 * Friction (the paper: "augment with one's favourite friction model", refs. 22-23): Stewart-Trinkle's
 * polyhedral cone (Egan et al. eqs. 5-7) on every impulse-carrying contact with mu > 0 — U contacts and
 * I/X primaries — with tangents +-t of that contact's normal: friction rows D' nu+ + lambda >= 0 perp
 * beta >= 0 and cone rows mu p - beta_+ - beta_- >= 0 perp lambda >= 0 (as the authors' PEG2_dynamics.m).
 * Also the formulation glue shared by peg.c and lnc.c. */
#include "peg_lcp.h"

#include "jacobian.h"
#include "joint_block.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct peg_lcp {
  struct jcol *cn;          /* normal column of every contact */
  struct jcol *cf;          /* friction columns: kdir per friction contact */
  const struct jcol **fcol; /* impulse columns in unknown order: p (nimp), then beta (2 nfr) */
  int *force;               /* contact of each p */
  int *fric;                /* impulse index of each friction contact */
  int *pimp;                /* per pair (I then X): the impulse of its constraint */
  int *pfirst;              /* per pair: the first pair of its constraint */
  int cap_c, cap_imp, cap_pair;
  int nimp, nslack, nfr, nu, kdir; /* layout of the last assembly */
  double *nu_free, *work;
  int ndof;
  struct joint_block joints;                /* bilateral joints in front of the LCP (joint_block.h) */
  const struct jcol **rdir, **rsub, **ucol; /* per row / unknown of the LCP, for the joint block */
  int cap_dir;
};

int peg_lcp_create(struct peg_lcp **L)
{
  *L = calloc(1, sizeof **L);
  return *L ? 0 : 1;
}

void peg_lcp_destroy(struct peg_lcp **L)
{
  if (!L || !*L) return;
  struct peg_lcp *l = *L;
  free(l->cn);
  free(l->cf);
  free(l->fcol);
  free(l->force);
  free(l->fric);
  free(l->pimp);
  free(l->pfirst);
  free(l->nu_free);
  free(l->work);
  free(l->rdir);
  free(l->rsub);
  free(l->ucol);
  joint_block_free(&l->joints);
  free(l);
  *L = NULL;
}

static int reserve(struct peg_lcp *L, int nc, int nimp, int npair, int kdir, int ndof)
{
  if (npair > L->cap_pair) {
    int *a = realloc(L->pimp, (size_t)npair * sizeof *a);
    if (a) L->pimp = a;
    int *b = realloc(L->pfirst, (size_t)npair * sizeof *b);
    if (b) L->pfirst = b;
    if (!a || !b) return 1;
    L->cap_pair = npair;
  }
  if (kdir != L->kdir) { /* the friction arrays are sized by kdir: grow them afresh */
    L->kdir = kdir;
    L->cap_imp = 0;
  }
  if (nc > L->cap_c) {
    struct jcol *c = realloc(L->cn, (size_t)nc * sizeof *c);
    if (!c) return 1;
    L->cn = c;
    L->cap_c = nc;
  }
  if (nimp > L->cap_imp) {
    struct jcol *f = realloc(L->cf, (size_t)kdir * (size_t)nimp * sizeof *f);
    if (f) L->cf = f;
    const struct jcol **fc =
        realloc(L->fcol, (size_t)(kdir + 1) * (size_t)nimp * sizeof(const struct jcol *));
    if (fc) L->fcol = fc;
    int *force = realloc(L->force, (size_t)nimp * sizeof *force);
    if (force) L->force = force;
    int *fric = realloc(L->fric, (size_t)nimp * sizeof *fric);
    if (fric) L->fric = fric;
    if (!f || !fc || !force || !fric) return 1;
    L->cap_imp = nimp;
  }
  if (ndof != L->ndof || !L->nu_free) {
    free(L->nu_free);
    free(L->work);
    L->nu_free = malloc(((size_t)ndof + 1) * sizeof *L->nu_free);
    L->work = malloc(((size_t)ndof + 1) * sizeof *L->work);
    if (!L->nu_free || !L->work) return 1;
    L->ndof = ndof;
  }
  return 0;
}

/* Row of M and q for the direction x (minus y when y != NULL) with offset q0. */
static void fill_row(const struct peg_lcp *L, const struct jcol *x, const struct jcol *y, int nfc,
                     double *row, double *q, double q0)
{
  for (int j = 0; j < nfc; j++) {
    int u = j < L->nimp ? j : j + L->nslack; /* beta follows the slack unknowns */
    row[u] = jcol_dot_minv(x, L->fcol[j]) - (y ? jcol_dot_minv(y, L->fcol[j]) : 0.0);
  }
  *q = q0 + jcol_dot(x, L->nu_free) - (y ? jcol_dot(y, L->nu_free) : 0.0);
}

/* Joints (joint_block.h): each row's velocity direction and each unknown's impulse column in the layout
 * above — p along its contact's normal, the I/X slack rows along primary minus kappa (their unknowns c are
 * not impulses), beta along its friction direction, lambda neither. */
static int wrap_joints(struct peg_lcp *L, const struct peg_model *m, const struct world *w, double h, int n,
                       struct cp_problem **p)
{
  if (w->nj == 0) {
    L->joints.nj = 0;
    return 0;
  }
  if (n > L->cap_dir) {
    const struct jcol **a = realloc(L->rdir, (size_t)n * sizeof(const struct jcol *));
    if (a) L->rdir = a;
    const struct jcol **b = realloc(L->rsub, (size_t)n * sizeof(const struct jcol *));
    if (b) L->rsub = b;
    const struct jcol **c = realloc(L->ucol, (size_t)n * sizeof(const struct jcol *));
    if (c) L->ucol = c;
    if (!a || !b || !c) {
      cp_destroy(p);
      return 1;
    }
    L->cap_dir = n;
  }
  int npair = m->ni + m->nx, beta0 = L->nimp + npair, nbeta = L->kdir * L->nfr;
  for (int r = 0; r < n; r++) {
    L->rdir[r] = L->rsub[r] = L->ucol[r] = NULL;
    if (r < L->nimp) {
      L->rdir[r] = L->ucol[r] = L->fcol[r];
    } else if (r < beta0) {
      const struct peg_pair *pr = r - L->nimp < m->ni ? &m->in[r - L->nimp] : &m->x[r - L->nimp - m->ni];
      L->rdir[r] = &L->cn[pr->primary];
      L->rsub[r] = &L->cn[pr->kappa];
    } else if (r < beta0 + nbeta) {
      L->rdir[r] = L->ucol[r] = L->fcol[L->nimp + r - beta0];
    }
  }
  return joint_block_wrap(&L->joints, w, h, L->nu_free, L->rdir, L->rsub, L->ucol, p);
}

int peg_lcp_assemble(struct peg_lcp *L, const struct peg_model *m, const struct world *w,
                     const struct contact_set *cs, double h, int kdir, struct cp_problem **out,
                     struct row_counts *rows)
{
  int npair = m->ni + m->nx, ngroup = 0;
  for (int j = 0; j < npair; j++) {
    const struct peg_pair *pr = j < m->ni ? &m->in[j] : &m->x[j - m->ni];
    ngroup += !(pr->cont && j != 0 && j != m->ni);
  }
  int nimp = m->nu + ngroup;
  *out = NULL;
  if (kdir < 1 || kdir > 16) return 1;
  if (reserve(L, cs->n > 0 ? cs->n : 1, nimp > 0 ? nimp : 1, npair > 0 ? npair : 1, kdir, w->ndof)) return 1;
  jacobian_free_velocity(w, h, L->nu_free, L->work);
  for (int i = 0; i < cs->n; i++)
    jcol_contact(w, &cs->c[i], cs->c[i].n, &L->cn[i]);
  L->nu = m->nu;
  L->nimp = nimp;
  L->nslack = npair;
  L->nfr = 0;
  for (int k = 0; k < m->nu; k++)
    L->force[k] = m->u[k];
  /* Pairs to constraints: a pair that does not continue the previous one (or starts a list) opens one. */
  for (int j = 0, k = m->nu - 1; j < npair; j++) {
    const struct peg_pair *pr = j < m->ni ? &m->in[j] : &m->x[j - m->ni];
    if (!(pr->cont && j != 0 && j != m->ni)) {
      k++;
      L->force[k] = pr->primary;
      L->pfirst[j] = j;
    } else {
      L->pfirst[j] = L->pfirst[j - 1];
    }
    L->pimp[j] = k;
  }
  double dirs[3 * 16];
  for (int k = 0; k < nimp; k++) {
    int c = L->force[k];
    L->fcol[k] = &L->cn[c];
    if (cs->c[c].mu > 0.0) {
      formulation_tangents(w->dim, cs->c[c].n, kdir, dirs);
      for (int d = 0; d < kdir; d++)
        jcol_contact(w, &cs->c[c], dirs + 3 * d, &L->cf[kdir * L->nfr + d]);
      L->fric[L->nfr++] = k;
    }
  }
  int nfc = nimp + kdir * L->nfr, n = nimp + npair + (kdir + 1) * L->nfr;
  for (int f = 0; f < kdir * L->nfr; f++)
    L->fcol[nimp + f] = &L->cf[f];
  struct cp_problem *p = cp_lcp_create(n > 0 ? n : 1);
  if (!p) return 1;
  if (n == 0) { /* no contacts: a trivial 1x1 LCP (z = 0) keeps the pipeline uniform */
    p->M[0] = 1.0;
    p->q[0] = 0.0;
  }
  int beta0 = nimp + npair, lambda0 = beta0 + kdir * L->nfr;
  for (int k = 0; k < nimp; k++) {
    const struct contact *c = &cs->c[L->force[k]];
    double *row = p->M + (size_t)k * n;
    fill_row(L, &L->cn[L->force[k]], NULL, nfc, row, &p->q[k], c->gap / h);
  }
  for (int j = 0; j < npair; j++) {
    const struct peg_pair *pr = j < m->ni ? &m->in[j] : &m->x[j - m->ni];
    double *row = p->M + (size_t)(nimp + j) * n;
    double q0 = (cs->c[pr->primary].gap - cs->c[pr->kappa].gap) / h;
    fill_row(L, &L->cn[pr->primary], &L->cn[pr->kappa], nfc, row, &p->q[nimp + j], q0);
    for (int t = L->pfirst[j]; t <= j; t++)
      row[nimp + t] = 1.0;                         /* E_I1: lower triangular within the constraint */
    p->M[(size_t)L->pimp[j] * n + nimp + j] = 1.0; /* E_I2: the impulse row sees all its slacks */
  }
  for (int f = 0; f < L->nfr; f++) {
    double *row = p->M + (size_t)(lambda0 + f) * n;
    for (int d = 0; d < kdir; d++) {
      double *fr = p->M + (size_t)(beta0 + kdir * f + d) * n;
      fill_row(L, &L->cf[kdir * f + d], NULL, nfc, fr, &p->q[beta0 + kdir * f + d], 0.0);
      fr[lambda0 + f] = 1.0;            /* E */
      row[beta0 + kdir * f + d] = -1.0; /* -E' */
    }
    row[L->fric[f]] = cs->c[L->force[L->fric[f]]].mu; /* U */
    p->q[lambda0 + f] = 0.0;
  }
  snprintf(p->name, sizeof p->name, "peg nU=%d nI=%d nX=%d nfr=%d", m->nu, m->ni, m->nx, L->nfr);
  if (wrap_joints(L, m, w, h, p->n, &p)) return 1;
  *rows = (struct row_counts){.normal = nimp,
                              .friction = kdir * L->nfr,
                              .slack = L->nfr,
                              .other = npair,
                              .joint = L->joints.nj,
                              .total = p->n};
  *out = p;
  return 0;
}

int peg_lcp_recover(const struct peg_lcp *L, const struct world *w, const struct contact_set *cs,
                    const double *z, double *nu, double *pn)
{
  for (int i = 0; i < w->ndof; i++)
    nu[i] = L->nu_free[i];
  joint_block_recover(&L->joints, z, nu);
  z += L->joints.nj; /* the LCP's unknowns follow the joint impulses */
  for (int j = 0; j < L->nimp + L->kdir * L->nfr; j++) {
    int u = j < L->nimp ? j : j + L->nslack;
    jcol_axpy_minv(L->fcol[j], z[u], nu);
  }
  for (int i = 0; i < cs->n; i++)
    pn[i] = 0.0;
  for (int k = 0; k < L->nimp; k++)
    pn[L->force[k]] += z[k];
  return 0;
}

struct peg_state {
  struct peg_settings set;
  struct peg_model model;
  struct peg_lcp *lcp;
};

int peg_type_create(struct formulation *f, int cross)
{
  struct peg_state *d = calloc(1, sizeof *d);
  if (!d || peg_lcp_create(&d->lcp)) {
    free(d);
    return 1;
  }
  peg_settings_default(&d->set, cross);
  f->data = d;
  return 0;
}

/* PEG_SETTINGS_OPTIONS's offsets are into struct peg_settings. */
_Static_assert(offsetof(struct peg_state, set) == 0, "the settings must be the state's first member");

int peg_type_set_from_options(struct formulation *f, const char *prefix, char *msg, size_t len)
{
  const struct peg_state *d = f->data;
  if (d->set.detect.distance_factor + d->set.detect.distance_min <= 0.0) {
    snprintf(msg, len, "-%s_distance_factor and -%s_distance_min must not both be 0 (delta would be 0)",
             prefix, prefix);
    return 1;
  }
  return 0;
}

int peg_type_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  const struct peg_state *d = f->data;
  int rc = w->dim == 3 ? peg3d_detect(w, &d->set, h, cs) : peg2d_detect(w, &d->set.detect, h, cs);
  if (rc) return formulation_fail(f, "out of memory detecting contacts");
  return 0;
}

int peg_type_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      struct cp_problem **p)
{
  struct peg_state *d = f->data;
  *p = NULL;
  if (w->dim == 3 ? peg3d_model_build(&d->model, w, cs, &d->set) : peg_model_build(&d->model, w, cs, &d->set))
    return formulation_fail(f, "out of memory building the constraint model of %d contacts", cs->n);
  if (peg_lcp_assemble(d->lcp, &d->model, w, cs, h, w->dim == 2 ? 2 : f->friction_dirs, p, &f->rows))
    return formulation_fail(f, "out of memory assembling %d contacts", cs->n);
  return 0;
}

int peg_type_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                     const double *z, double *nu, double *pn)
{
  const struct peg_state *d = f->data;
  (void)h;
  return peg_lcp_recover(d->lcp, w, cs, z, nu, pn);
}

void peg_type_destroy(struct formulation *f)
{
  struct peg_state *d = f->data;
  if (!d) return;
  peg_model_free(&d->model);
  peg_lcp_destroy(&d->lcp);
  free(d);
  f->data = NULL;
}

void peg_type_view(const struct formulation *f, const char *prefix, FILE *out)
{
  const struct peg_state *d = f->data;
  peg_settings_view(&d->set, prefix, out);
}

const struct peg_model *peg_type_model(const struct formulation *f)
{
  const struct peg_state *d = f->data;
  return &d->model;
}
