/* build_info.h — the programs' provenance, written into each build by the Makefile ($(BUILD)/build_info.c,
 * rewritten only when it changes): the commit the programs were built from ("" when the source is not a git
 * checkout) and whether tracked files other than results/ differed from it at build time. meta.json and the
 * corpus record these, not the run directory's checkout, which may be another tree or none. */
#ifndef CB_BUILD_INFO_H
#define CB_BUILD_INFO_H

extern const char build_git_sha[];
extern const int build_git_dirty;

#endif
