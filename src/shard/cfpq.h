/*-------------------------------------------------------------------------
 *
 * cfpq.h
 *	  libpq, loaded when the coordinator first connects to a shard server.
 *
 * Linking libpq into cfstore made every backend that called cfstore load
 * it (and resolve its symbols) at the first call, about 0.8 ms of a new
 * connection's first call, sharded keyspace or not (bench/connect.sh).  So
 * cfstore does not link it: cfPqLoad opens it the first time a backend
 * connects to a shard server, as PostgreSQL opens libpqwalreceiver, and
 * the PQ functions the shard layer calls are pointers this header puts in
 * place of libpq's names in the files of the shard layer that include it:
 * connecting loads it (a result exists only after a connection), and so
 * does a call through PL/Proxy, whose error context pings the servers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFPQ_H
#define CFPQ_H

#include "libpq-fe.h"

/* The libpq functions cfstore calls. */
#define CF_PQ_FUNCTIONS(X) \
	X(PQcancel) X(PQclear) X(PQcmdStatus) X(PQconnectdbParams) X(PQconsumeInput) \
	X(PQerrorMessage) X(PQexec) X(PQfinish) X(PQfreeCancel) X(PQgetCancel) \
	X(PQgetResult) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQisBusy) \
	X(PQnfields) X(PQntuples) X(PQping) X(PQprepare) X(PQresultErrorField) \
	X(PQresultErrorMessage) X(PQresultStatus) X(PQsendQueryParams) \
	X(PQsendQueryPrepared) X(PQsetNoticeReceiver) X(PQsocket) X(PQstatus) \
	X(PQtransactionStatus)

typedef struct CfPq
{
#define CF_PQ_MEMBER(f) __typeof__(f) *f;
	CF_PQ_FUNCTIONS(CF_PQ_MEMBER)
#undef CF_PQ_MEMBER
} CfPq;

extern CfPq cfPq;
extern void cfPqLoad(void);
extern bool cfPqLoaded(void);

/* In the shard layer, libpq's names call through the pointers. */
#ifndef CFPQ_LOADER
#define PQcancel (*cfPq.PQcancel)
#define PQclear (*cfPq.PQclear)
#define PQcmdStatus (*cfPq.PQcmdStatus)
#define PQconnectdbParams (*cfPq.PQconnectdbParams)
#define PQconsumeInput (*cfPq.PQconsumeInput)
#define PQerrorMessage (*cfPq.PQerrorMessage)
#define PQexec (*cfPq.PQexec)
#define PQfinish (*cfPq.PQfinish)
#define PQfreeCancel (*cfPq.PQfreeCancel)
#define PQgetCancel (*cfPq.PQgetCancel)
#define PQgetResult (*cfPq.PQgetResult)
#define PQgetisnull (*cfPq.PQgetisnull)
#define PQgetlength (*cfPq.PQgetlength)
#define PQgetvalue (*cfPq.PQgetvalue)
#define PQisBusy (*cfPq.PQisBusy)
#define PQnfields (*cfPq.PQnfields)
#define PQntuples (*cfPq.PQntuples)
#define PQping (*cfPq.PQping)
#define PQprepare (*cfPq.PQprepare)
#define PQresultErrorField (*cfPq.PQresultErrorField)
#define PQresultErrorMessage (*cfPq.PQresultErrorMessage)
#define PQresultStatus (*cfPq.PQresultStatus)
#define PQsendQueryParams (*cfPq.PQsendQueryParams)
#define PQsendQueryPrepared (*cfPq.PQsendQueryPrepared)
#define PQsetNoticeReceiver (*cfPq.PQsetNoticeReceiver)
#define PQsocket (*cfPq.PQsocket)
#define PQstatus (*cfPq.PQstatus)
#define PQtransactionStatus (*cfPq.PQtransactionStatus)
#endif

#endif							/* CFPQ_H */
