/* glpk_guard.c — GLPK's fatal errors caught (glpk_guard.h): GLPK calls abort() after an error it detects
 * unless its error hook does not return; ours longjmps back to glpk_guarded. */
#include "glpk_guard.h"

#include <glpk.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

struct glpk_guard {
  jmp_buf jump;
  char line[2][256]; /* GLPK's last two output strings: its error text, then "Error detected in file" */
  int count;
};

static int glpk_term(void *info, const char *s)
{
  struct glpk_guard *g = info;
  snprintf(g->line[g->count & 1], sizeof g->line[0], "%s", s);
  g->count++;
  return 1; /* nonzero: GLPK prints nothing itself */
}

static void glpk_error(void *info)
{
  struct glpk_guard *g = info;
  longjmp(g->jump, 1); /* returning would let GLPK call abort() */
}

/* File scope, not automatic: it is written between setjmp and longjmp (C11 7.13.2.1). GLPK's environment
 * is per thread and not reentrant, so one guard at a time is all there can be. */
static struct glpk_guard glpk_state;

int glpk_guarded(void (*body)(void *ctx), void *ctx, char *msg, size_t len)
{
  struct glpk_guard *g = &glpk_state;
  memset(g, 0, sizeof *g);
  /* Terminal output stays on but goes to our hook: it is how GLPK hands over its error text. */
  int old = glp_term_out(GLP_ON);
  glp_term_hook(glpk_term, g);
  glp_error_hook(glpk_error, g);
  if (setjmp(g->jump) == 0) {
    body(ctx);
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    glp_term_out(old);
    return 0;
  }
  glp_free_env(); /* GLPK's state is undefined after an error: drop it (the next call starts afresh) */
  const char *text = g->count >= 2 ? g->line[g->count & 1] : g->line[0];
  char clean[256];
  size_t k = 0;
  for (; text[k] && text[k] != '\n' && k + 1 < sizeof clean; k++)
    clean[k] = text[k];
  clean[k] = '\0';
  snprintf(msg, len, "GLPK error: %s", clean[0] ? clean : "(no message)");
  return 1;
}
