/* program.c — start and end of every program (program.h): MPI first (so that only rank 0 speaks), the
 * sources read by program_args_parse on every rank, then PETSc from a command line rebuilt from the checked
 * pairs (with -skip_petscrc, PETSC_OPTIONS unset) so that PETSc reads nothing of its own, and the run's
 * options object from the same pairs. */
#include "program.h"

#include <mpi.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *join_argv(int argc, char **argv)
{
  size_t len = 1;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  char *out = calloc(len, 1);
  for (int i = 0; out && i < argc; i++)
    strcat(strcat(out, i ? " " : ""), argv[i]);
  return out;
}

/* The parse on every rank (the same input gives the same result; a rank that could not read a file makes
 * every rank stop). Rank 0 reports, or the first rank that failed when rank 0 did not. */
static int parse_everywhere(const struct program_spec *spec, int argc, char **argv, struct program *p)
{
  char home_rc[4096] = "", msg[2048];
  const char *home = getenv("HOME");
  if (home && home[0]) snprintf(home_rc, sizeof home_rc, "%s/.petscrc", home);
  const char *defaults[4];
  int k = 0;
  if (home_rc[0]) defaults[k++] = home_rc;
  defaults[k++] = ".petscrc";
  defaults[k++] = "petscrc";
  defaults[k] = NULL;
  struct program_sources src = {getenv("PETSC_OPTIONS"), getenv("PETSC_OPTIONS_YAML"), defaults};
  int rc = program_args_parse(spec, argc, argv, &src, &p->args, msg, sizeof msg), worst = rc, rc0 = rc;
  if (!spec->no_mpi) {
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Bcast(&rc0, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (rc && (p->rank == 0 || rc0 == 0)) fprintf(stderr, "error: %s\n", msg);
  if (!worst && p->rank == 0)
    for (int i = 0; i < p->args.n_notes; i++)
      fprintf(stderr, "note: %s\n", p->args.notes[i]);
  return worst;
}

/* argv for PetscInitialize: the checked pairs (not the list options, which PETSc would cut to one word),
 * -skip_petscrc, and -help when PETSc is to print its own. Pointers into p->args. */
static char **petsc_argv(const struct program *p, const char *argv0, int *n)
{
  char **a = calloc(2 * (size_t)p->args.n_pairs + 4, sizeof *a);
  if (!a) return NULL;
  *n = 0;
  a[(*n)++] = (char *)argv0;
  a[(*n)++] = "-skip_petscrc";
  for (int i = 0; i < p->args.n_pairs; i++) {
    const struct program_pair *pp = &p->args.pairs[i];
    if (pp->words) continue;
    a[(*n)++] = pp->name;
    if (pp->value) a[(*n)++] = pp->value;
  }
  if (p->args.help_petsc) a[(*n)++] = "-help";
  return a;
}

int program_start(const struct program_spec *spec, int argc, char **argv, struct program *p)
{
  int mpi_on = 0, pargc = 0, rc = 0;
  memset(p, 0, sizeof *p);
  p->name = spec->name;
  p->size = 1;
  if (!spec->no_mpi) {
    if (MPI_Initialized(&mpi_on) != MPI_SUCCESS || (!mpi_on && MPI_Init(NULL, NULL) != MPI_SUCCESS)) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &p->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p->size);
  }
  if (!(p->command_line = join_argv(argc, argv))) return 1;
  if ((rc = parse_everywhere(spec, argc, argv, p))) return rc;
  p->help = p->args.help;
  p->help_petsc = p->args.help_petsc;
  p->n_positional = p->args.n_positional;
  p->positional = p->args.positional;
  /* PETSc's own readers see nothing but what the argv below says */
  unsetenv("PETSC_OPTIONS");
  if (!spec->no_mpi) {
    char **pargv = petsc_argv(p, argc > 0 ? argv[0] : spec->name, &pargc);
    if (!pargv) return 1;
    p->petsc_argv = pargv; /* PETSc keeps argv (PetscGetArgs): it lives until program_end */
    if (PetscInitialize(&pargc, &pargv, NULL, NULL)) return 1;
    p->started_petsc = 1;
  }
  /* (an options object needs no PetscInitialize) */
  if (PetscOptionsCreate(&p->options)) return 1;
  for (int i = 0; i < p->args.n_pairs; i++) {
    const struct program_pair *pp = &p->args.pairs[i];
    if (!pp->words && PetscOptionsSetValue(p->options, pp->name, pp->value)) return 1;
  }
  return 0;
}

int program_end(struct program *p, int rc)
{
  int on = 0, off = 0;
  if (p->options) PetscOptionsDestroy(&p->options);
  if (p->started_petsc) PetscFinalize();
  if (MPI_Initialized(&on) == MPI_SUCCESS && on && MPI_Finalized(&off) == MPI_SUCCESS && !off) MPI_Finalize();
  program_args_free(&p->args);
  free(p->petsc_argv);
  free(p->command_line);
  memset(p, 0, sizeof *p);
  return rc;
}

int program_main(const struct program_spec *spec, int argc, char **argv, int (*run)(const struct program *p))
{
  struct program p;
  int rc = program_start(spec, argc, argv, &p);
  return program_end(&p, rc ? rc : run(&p));
}

char **program_list(const struct program *p, const char *name, int *n)
{
  for (int i = 0; i < p->args.n_pairs; i++)
    if (p->args.pairs[i].words && strcasecmp(p->args.pairs[i].name, name) == 0) {
      *n = p->args.pairs[i].n_words;
      return p->args.pairs[i].words;
    }
  *n = 0;
  return NULL;
}

const char *program_value(const struct program *p, const char *name)
{
  const char *v = NULL;
  PetscBool set = PETSC_FALSE;
  if (PetscOptionsFindPair(p->options, NULL, name, &v, &set) || !set) return NULL;
  return v ? v : "";
}

char **program_split_list(const char *text, int *n)
{
  size_t len = strlen(text);
  int k = 1;
  for (const char *c = text; *c; c++)
    k += *c == ',';
  char **items = malloc(((size_t)k + 1) * sizeof *items + len + 1);
  if (!items) return NULL;
  char *copy = (char *)(items + k + 1);
  memcpy(copy, text, len + 1);
  *n = 0;
  for (char *c = copy;; c++) {
    if (*n == 0 || c[-1] == '\0') items[(*n)++] = c;
    if (*c == ',')
      *c = '\0';
    else if (*c == '\0')
      break;
  }
  items[*n] = NULL;
  return items;
}

int program_report_unused(const struct program *p, const struct option_decl *d, int n_d,
                          const char *const *more, int n_more,
                          int (*explain)(const char *name, char *msg, size_t len))
{
  char **names = NULL, **values = NULL, msg[512];
  int n = option_unused(p->options, &names, &values), bad = 0;
  if (n <= 0) return n;
  char **own = calloc((size_t)n_d + 1, sizeof *own);
  const char **cand = calloc((size_t)n_d + (size_t)n_more + 1, sizeof *cand);
  int k = 0;
  for (int i = 0; own && cand && i < n_d; i++)
    if ((own[i] = malloc(strlen(d[i].name) + 2))) sprintf(own[i], "-%s", d[i].name), cand[k++] = own[i];
  for (int i = 0; cand && i < n_more; i++)
    cand[k++] = more[i];
  for (int i = 0; i < n; i++) {
    PetscBool petsc_took = PETSC_FALSE; /* -log_view, -malloc_debug, ... read by PetscInitialize */
    if (p->started_petsc && PetscOptionsUsed(NULL, names[i] + 1, &petsc_took) == 0 && petsc_took) continue;
    bad++;
    if (p->rank != 0) continue;
    const char *near = cand ? option_nearest(names[i], cand, k) : NULL;
    if (explain && explain(names[i], msg, sizeof msg))
      fprintf(stderr, "error: %s\n", msg);
    else if (near)
      fprintf(stderr, "error: %s is not an option of this run (did you mean %s?)\n", names[i], near);
    else
      fprintf(stderr, "error: %s is not an option of this run (%s -help lists them)\n", names[i], p->name);
  }
  for (int i = 0; own && i < n_d; i++)
    free(own[i]);
  free(own);
  free(cand);
  option_unused_free(n, names, values);
  return bad;
}
