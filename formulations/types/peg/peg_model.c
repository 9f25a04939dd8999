/* peg_model.c — PEG's constraint model in 2D (Williams, Lu & Trinkle 2016, Secs. 3-5.1; see peg_lcp.h):
 * potential contacts grouped per vertex (one vertex against the edges of one part, in edge order); a
 * vertex near a single edge gives U (eq. 32) when applicable (eq. 29); a vertex near adjacent edges gives,
 * per corner, I over the two contacts and, with the other vertex's two contacts, two X (eq. 33). Choices
 * that follow the authors' code (rpiRobotics/PEG, PEG_constraints_from_contacts.m, PEG_trim_contact_set.m,
 * PEG2_dynamics.m): runs of adjacent edges are trimmed at their ends while two contacts in a row are
 * inapplicable (keeping two); an I needs an applicable contact; an X is kept when both of its contacts
 * are applicable; a U on a contact that is also in an I is dropped; the primary-swap heuristic below;
 * when the corner's vertex has no contacts with both of v's edges (an obtuse corner), U on the more
 * applicable of v's two and on the corner vertex's one. Our choice: among two applicable contacts the
 * primary is the more applicable (the paper suggests applicability as the heuristic, Sec. 4.1), ties to
 * the larger gap. LNC (no X) keeps every corner's I. */
#include "peg_lcp.h"

#include <stdlib.h>
#include <string.h>

void peg_settings_default(struct peg_settings *s, int cross)
{
  peg2d_params_default(&s->detect);
  s->applicability = -0.2;
  s->swap_tol = 1e-3;
  s->cross = cross;
  s->distance_3d = 0.1;
}

void peg_settings_view(const struct peg_settings *s, const char *prefix, FILE *out)
{
  fprintf(
      out,
      "  -%s_distance_factor %g -%s_distance_min %g (delta = max(factor h, min)), -%s_predict %d,\n"
      "  -%s_swept %d, -%s_applicability %g (epsilon_theta), -%s_swap_tol %g, cross-contact constraints %s\n",
      prefix, s->detect.distance_factor, prefix, s->detect.distance_min, prefix, s->detect.predict, prefix,
      s->detect.swept, prefix, s->applicability, prefix, s->swap_tol, s->cross ? "on" : "off");
}

void peg_model_free(struct peg_model *m)
{
  free(m->u);
  free(m->in);
  free(m->x);
  free(m->keys);
  free(m->run);
  free(m->appl);
  free(m->used);
  memset(m, 0, sizeof *m);
}

int peg_model_i_constraints(const struct peg_model *m)
{
  int count = 0;
  for (int k = 0; k < m->ni; k++)
    count += !m->in[k].cont;
  return count;
}

int peg_model_reserve(struct peg_model *m, int n)
{
  if (n <= m->cap) return 0;
  int cap = n < 64 ? 64 : n;
  int *u = realloc(m->u, (size_t)cap * sizeof *u);
  if (u) m->u = u;
  struct peg_pair *in = realloc(m->in, (size_t)cap * sizeof *in);
  if (in) m->in = in;
  struct peg_pair *x = realloc(m->x, 2 * (size_t)cap * sizeof *x);
  if (x) m->x = x;
  struct peg2d_key *k = realloc(m->keys, (size_t)cap * sizeof *k);
  if (k) m->keys = k;
  int *run = realloc(m->run, (size_t)cap * sizeof *run);
  if (run) m->run = run;
  double *a = realloc(m->appl, (size_t)cap * sizeof *a);
  if (a) m->appl = a;
  unsigned char *used = realloc(m->used, (size_t)cap);
  if (used) m->used = used;
  if (!u || !in || !x || !k || !run || !a || !used) return 1;
  m->cap = cap;
  return 0;
}

/* The swap heuristic of the authors' code: a primary penetrating by more than tol whose partner is
 * shallower and penetrates by less than tol hands the impulse to the partner (the vertex lies on the
 * partner's side of the corner). */
static void swap_heuristic(struct peg_pair *p, const struct contact_set *cs, double tol)
{
  double gp = cs->c[p->primary].gap, gk = cs->c[p->kappa].gap;
  if (gp < -tol && gk > gp && gk > -tol) {
    int t = p->primary;
    p->primary = p->kappa;
    p->kappa = t;
  }
}

static void add_inter(struct peg_model *m, const struct contact_set *cs, const struct peg_settings *s, int a,
                      int b)
{
  int ia = m->appl[a] > s->applicability, ib = m->appl[b] > s->applicability;
  if (!ia && !ib) return; /* no contact may carry the force: the authors drop the I */
  struct peg_pair p = {a, b, 0};
  if (!ia || (ib && (m->appl[b] > m->appl[a] || (m->appl[b] == m->appl[a] && cs->c[b].gap > cs->c[a].gap))))
    p = (struct peg_pair){b, a, 0};
  swap_heuristic(&p, cs, s->swap_tol);
  m->in[m->ni++] = p;
  m->used[a] |= 2;
  m->used[b] |= 2;
}

static void add_cross(struct peg_model *m, const struct contact_set *cs, const struct peg_settings *s, int a,
                      int b)
{
  if (!(m->appl[a] > s->applicability && m->appl[b] > s->applicability)) return;
  for (int k = 0; k < m->nx; k++) /* the same corner is met again from the other vertex's group */
    if ((m->x[k].primary == a && m->x[k].kappa == b) || (m->x[k].primary == b && m->x[k].kappa == a)) return;
  struct peg_pair p = {a, b, 0};
  swap_heuristic(&p, cs, s->swap_tol);
  m->x[m->nx++] = p;
}

/* Contacts c1 = C(v, e) and c2 = C(v, e + 1) of vertex v (part sa) against the corner vb = e + 1 of sb. */
static void corner(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                   const struct peg_settings *s, int c1, int c2, int nk)
{
  const struct contact *c = &cs->c[c1];
  m->vv++;
  if (!s->cross) { /* LNC: the vertex's I alone */
    add_inter(m, cs, s, c1, c2);
    return;
  }
  int na = w->shapes[c->sa].polygon->n, vb = cs->c[c2].idb;
  int c3 = peg2d_find(m->keys, nk, c->sb, c->sa, vb, (c->ida + na - 1) % na); /* C(vb, ea_prev) */
  int c4 = peg2d_find(m->keys, nk, c->sb, c->sa, vb, c->ida);                 /* C(vb, ea_next) */
  if (c3 < 0 || c4 < 0) {
    /* vb is not near both of v's edges (an obtuse corner, or v's edge long past vb): as the authors, U on
     * the more applicable of c1, c2 and on the one of c3, c4 that exists */
    m->used[m->appl[c1] >= m->appl[c2] ? c1 : c2] |= 1;
    if (c3 >= 0 || c4 >= 0) m->used[c3 >= 0 ? c3 : c4] |= 1;
    return;
  }
  add_inter(m, cs, s, c1, c2);
  /* allowed: (psi1 >= 0 and psi3 >= 0) or (psi2 >= 0 and psi4 >= 0), i.e. the corners pass on one side */
  add_cross(m, cs, s, c1, c4);
  add_cross(m, cs, s, c2, c3);
}

/* One run of contacts of a vertex against consecutive edges (run[0..len), edge order). */
static void run_constraints(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                            const struct peg_settings *s, const int *run, int len, int nk)
{
  if (len == 1) {
    if (m->appl[run[0]] > s->applicability) m->used[run[0]] |= 1;
    return;
  }
  int first = 0, last = len - 1;
  double eps = s->applicability;
  while (last - first + 1 > 2 && m->appl[run[first]] <= eps && m->appl[run[first + 1]] <= eps)
    first++;
  while (last - first + 1 > 2 && m->appl[run[last]] <= eps && m->appl[run[last - 1]] <= eps)
    last--;
  for (int k = first; k < last; k++)
    corner(m, w, cs, s, run[k], run[k + 1], nk);
}

int peg_model_build(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                    const struct peg_settings *s)
{
  int n = cs->n;
  m->nu = m->ni = m->nx = m->vv = m->xvv = 0;
  if (peg_model_reserve(m, n > 0 ? n : 1)) return 1;
  int nk = 0; /* keys of usable contacts only */
  for (int i = 0; i < n; i++) {
    const struct contact *c = &cs->c[i];
    m->used[i] = 0;
    m->appl[i] = peg2d_applicability(w, c);
    if (m->appl[i] > -1.5) m->keys[nk++] = (struct peg2d_key){c->sa, c->sb, c->ida, c->idb, i};
  }
  qsort(m->keys, (size_t)nk, sizeof *m->keys, peg2d_key_compare);
  int *run = m->run;
  for (int g0 = 0; g0 < nk;) {
    int g1 = g0;
    while (g1 < nk && m->keys[g1].sa == m->keys[g0].sa && m->keys[g1].sb == m->keys[g0].sb &&
           m->keys[g1].ida == m->keys[g0].ida)
      g1++;
    /* one vertex against one part: edges ascending; start after a gap so a run wrapping past the last
     * edge stays whole */
    int g = g1 - g0, ne = w->shapes[m->keys[g0].sb].polygon->n, start = 0;
    if (g < ne)
      for (int k = 0; k < g; k++) {
        int prev = m->keys[g0 + (k + g - 1) % g].idb;
        if (prev != (m->keys[g0 + k].idb + ne - 1) % ne) {
          start = k;
          break;
        }
      }
    int len = 0;
    for (int t = 0; t < g; t++) {
      const struct peg2d_key *k = &m->keys[g0 + (start + t) % g];
      if (len > 0 && cs->c[run[len - 1]].idb != (k->idb + ne - 1) % ne) {
        run_constraints(m, w, cs, s, run, len, nk);
        len = 0;
      }
      run[len++] = k->index;
    }
    if (len > 0) run_constraints(m, w, cs, s, run, len, nk);
    g0 = g1;
  }
  for (int i = 0; i < n; i++)
    if (m->used[i] == 1) m->u[m->nu++] = i;
  return 0;
}
