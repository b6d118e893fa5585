/*-------------------------------------------------------------------------
 *
 * cfpq.c
 *	  Opening libpq at the first connection to a shard server (cfpq.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dlfcn.h>

#define CFPQ_LOADER
#include "shard/cfpq.h"

/* The library's soname: the libpq cfstore was built against. */
#define CF_LIBPQ "libpq.so.5"

CfPq		cfPq;
static bool loaded = false;

/* Whether this backend has opened libpq. */
bool
cfPqLoaded(void)
{
	return loaded;
}

/* Open libpq and find its functions, once per backend; raise if it cannot be. */
void
cfPqLoad(void)
{
	void	   *lib;
	CfPq		pq;

	if (loaded)
		return;
	lib = dlopen(CF_LIBPQ, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("could not load %s to connect to the shard servers: %s", CF_LIBPQ, dlerror())));
#define CF_PQ_FIND(f) \
	pq.f = (__typeof__(f) *) dlsym(lib, #f); \
	if (pq.f == NULL) \
		ereport(ERROR, \
				(errcode(ERRCODE_UNDEFINED_FUNCTION), \
				 errmsg("could not find %s in %s", #f, CF_LIBPQ)));
	CF_PQ_FUNCTIONS(CF_PQ_FIND)
#undef CF_PQ_FIND
	cfPq = pq;
	loaded = true;
}
