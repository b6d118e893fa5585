/*-------------------------------------------------------------------------
 *
 * cfshard_xact.c
 *	  The coordinator's connections to its shard servers, and the shards'
 *	  part of each of its transactions.
 *
 * Design (README.md, "Scale-out").  The writes and the DDL of a sharded
 * keyspace belong to the coordinator's transaction: they commit on the
 * shards when it commits, and nowhere when it aborts.
 *
 * The coordinator keeps one libpq connection per shard server, for the
 * life of the backend.  A write is encoded (src/api/cfremote.h) into the
 * pending batch of its server; the batches are sent, each in one round
 * trip, before any read of a sharded keyspace (so a transaction reads its
 * own writes), when a batch reaches BATCH_BYTES, and at commit.  The first
 * statement that changes something on a server opens a transaction there;
 * a subtransaction of the coordinator (SAVEPOINT, a PL/pgSQL block with an
 * exception handler) is savepoint s<level> there, made when a statement of
 * that level is sent, and released or rolled back with it.  While any
 * server has a transaction open, the coordinator's reads go through these
 * connections too, so they see its writes.
 *
 * At commit, a transaction that changed one server commits it there
 * (COMMIT) just before the coordinator commits.  One that changed several
 * uses two-phase commit: the coordinator takes a transaction id, prepares
 * the transaction on every server it changed (PREPARE TRANSACTION, gid
 * cfstore_shard_<system identifier>_<transaction id>_<server>), commits
 * here once all are prepared, and then commits each (COMMIT PREPARED).  A
 * failure before the coordinator commits rolls every shard back (ROLLBACK
 * PREPARED for those prepared).  A shard that is lost after the
 * coordinator committed keeps its transaction prepared: its writes are
 * invisible there but not lost, and cfstore_shard.recover() commits them,
 * the coordinator's commit being the decision (it rolls back those of
 * transactions that did not commit here).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/socket.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "portability/instr_time.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "api/cfremote.h"
#include "shard/cfpq.h"
#include "shard/cfshard.h"

PG_FUNCTION_INFO_V1(cfstore_shard_apply);
PG_FUNCTION_INFO_V1(cfstore_shard_lose_before_commit);

/* A batch is sent once it holds this many bytes. */
#define BATCH_BYTES (1024 * 1024)

/* How long a statement cancelled in an error's cleanup is given to end. */
#define DRAIN_MS 5000

/* Pending writes of one subtransaction level, for one server. */
typedef struct CfShardChunk
{
	int			level;
	StringInfoData data;
} CfShardChunk;

/* A shard server's connection and its part of the current transaction. */
typedef struct CfShardConn
{
	char		server[NAMEDATALEN];
	PGconn	   *conn;
	int			depth;			/* 0: no transaction there; 1: BEGIN sent;
								 * n > 1: savepoints s2 .. sn made too */
	bool		prepare_sent;	/* PREPARE TRANSACTION sent, gid below */
	bool		prepared;		/* ... and done */
	bool		lost;			/* a statement's outcome is unknown: the
								 * transaction must not commit */
	char		gid[200];
	/* how to connect, read once from cfstore_shard.server (NULL-terminated) */
	const char *keywords[6];
	const char *values[6];
	List	   *pending;		/* CfShardChunk, in TopTransactionContext */
	Size		pending_bytes;
	List	   *statements;		/* names of the statements prepared on conn
								 * (String, in TopMemoryContext) */
	WaitEventSet *wait;			/* this backend's latch and conn's socket,
								 * made once per connection */
} CfShardConn;

static CfShardConn **shard_conns = NULL;
static int	nshard_conns = 0;
static bool callbacks_registered = false;

/* The server whose commit is lost on purpose (_lose_before_commit), or "". */
static char lose_before_commit[NAMEDATALEN];

static void xact_callback(XactEvent event, void *arg);
static void subxact_callback(SubXactEvent event, SubTransactionId mySubid, SubTransactionId parentSubid,
							 void *arg);

/* Name the shard server a failed statement went to. */
static void
conn_error_context(void *arg)
{
	errcontext("on shard server %s", ((CfShardConn *) arg)->server);
}

/*
 * The connection parameters of a registered server, read from
 * cfstore_shard.server into c (which keeps them: the connection may be
 * opened again at commit, where nothing can be read).
 */
static void
server_params(CfShardConn *c)
{
	int			pin;
	const char *server = c->server;
	const char **keywords = c->keywords;
	const char **values = c->values;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	const char *names[4] = {"host", "port", "dbname", "user"};
	int			n = 0;

	args[0] = CStringGetTextDatum(server);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute_with_args("SELECT host, port::text, dbname, user_name FROM cfstore_shard.server WHERE name = $1",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read shard server %s", server);
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("shard server %s is not registered", server)));
	for (int i = 0; i < 4; i++)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1);

		if (v != NULL)
		{
			keywords[n] = names[i];
			values[n] = MemoryContextStrdup(TopMemoryContext, v);
			n++;
		}
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	keywords[n] = "fallback_application_name";
	values[n++] = "cfstore_shard";
	keywords[n] = NULL;
	values[n] = NULL;
}

/* A notice or warning of a shard server: to this server's log, not to its stderr. */
static void
conn_notice(void *arg, const PGresult *res)
{
	ereport(LOG,
			(errmsg_internal("shard server %s: %s", ((CfShardConn *) arg)->server,
							 pchomp(PQresultErrorMessage(res))),
			 errhidestmt(true)));
}

/* Open the connection of c (closed). */
static void
conn_open(CfShardConn *c)
{
	PGconn	   *conn;
	ListCell   *lc;

	if (c->keywords[0] == NULL)
		server_params(c);
	cfPqLoad();
	conn = PQconnectdbParams(c->keywords, c->values, false);
	if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
	{
		char	   *msg = pchomp(conn != NULL ? PQerrorMessage(conn) : "out of memory");

		PQfinish(conn);
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to shard server %s", c->server),
				 errdetail_internal("%s", msg)));
	}
	PQsetNoticeReceiver(conn, conn_notice, c);
	c->conn = conn;
	foreach(lc, c->statements)	/* a new session has none */
		pfree(strVal(lfirst(lc)));
	list_free_deep(c->statements);
	c->statements = NIL;
}

/* Ask c's server to cancel what c is running (PQcancel connects to its postmaster and waits for it). */
static void
conn_cancel(CfShardConn *c)
{
	PGcancel   *cancel = PQgetCancel(c->conn);
	char		errbuf[256];

	if (cancel != NULL)
	{
		(void) PQcancel(cancel, errbuf, sizeof(errbuf));
		PQfreeCancel(cancel);
	}
}

/* Close the connection of c as it is; its transaction there ends with it. */
static void
conn_finish(CfShardConn *c)
{
	PQfinish(c->conn);
	c->conn = NULL;
	if (c->wait != NULL)
		FreeWaitEventSet(c->wait);
	c->wait = NULL;
}

/* Close the connection of c, cancelling what runs there; its transaction there ends with it. */
static void
conn_close(CfShardConn *c)
{
	if (c->conn == NULL)
		return;
	if (PQtransactionStatus(c->conn) == PQTRANS_ACTIVE)
		conn_cancel(c);
	conn_finish(c);
}

/*
 * The outcome of a statement sent to c is unknown (an interrupt, a broken
 * connection): a transaction open there can no longer commit; with none,
 * the connection is just opened again at its next use.
 */
static void
conn_lose(CfShardConn *c)
{
	if (c->depth > 0 || c->prepare_sent)
		c->lost = true;
	else
		conn_close(c);
}

/* Close c's connection, unused since the last transaction, if its server has closed it. */
static void
conn_check(CfShardConn *c)
{
	if (c->conn != NULL && (!PQconsumeInput(c->conn) || PQstatus(c->conn) == CONNECTION_BAD))
		conn_close(c);
}

/* The connection state of a shard server, made on first use (not connected yet). */
static CfShardConn *
shard_conn(const char *server)
{
	CfShardConn *c;

	for (int i = 0; i < nshard_conns; i++)
		if (strcmp(shard_conns[i]->server, server) == 0)
			return shard_conns[i];
	if (!callbacks_registered)
	{
		RegisterXactCallback(xact_callback, NULL);
		RegisterSubXactCallback(subxact_callback, NULL);
		callbacks_registered = true;
	}
	if (strlen(server) >= NAMEDATALEN)
		elog(ERROR, "shard server name too long: %s", server);
	c = MemoryContextAllocZero(TopMemoryContext, sizeof(CfShardConn));
	strlcpy(c->server, server, NAMEDATALEN);
	if (shard_conns == NULL)
		shard_conns = MemoryContextAlloc(TopMemoryContext, sizeof(CfShardConn *));
	else
		shard_conns = repalloc(shard_conns, sizeof(CfShardConn *) * (nshard_conns + 1));
	shard_conns[nshard_conns++] = c;
	return c;
}

/* Raise the error a shard server returned (res, which this frees). */
static void
report_result(CfShardConn *c, PGresult *res)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	char	   *primary = pstrdup(PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) != NULL
								  ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)
								  : pchomp(PQerrorMessage(c->conn)));
	const char *d = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *h = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	char	   *detail = d != NULL ? pstrdup(d) : NULL;
	char	   *hint = h != NULL ? pstrdup(h) : NULL;
	int			code = sqlstate != NULL && strlen(sqlstate) == 5
		? MAKE_SQLSTATE(sqlstate[0], sqlstate[1], sqlstate[2], sqlstate[3], sqlstate[4])
		: ERRCODE_CONNECTION_FAILURE;
	ErrorContextCallback context;

	PQclear(res);
	context.callback = conn_error_context;
	context.arg = c;
	context.previous = error_context_stack;
	error_context_stack = &context;
	ereport(ERROR,
			(errcode(code),
			 errmsg("shard server %s: %s", c->server, primary),
			 detail != NULL ? errdetail_internal("%s", detail) : 0,
			 hint != NULL ? errhint("%s", hint) : 0));
}

/*
 * The result of the statement sent to c, waited for without blocking
 * interrupts; an interrupt leaves the server's transaction lost.  Raises
 * the server's error; the caller PQclears the result.
 */
static PGresult *
conn_result(CfShardConn *c)
{
	PGresult   *volatile last = NULL;

	PG_TRY();
	{
		for (;;)
		{
			PGresult   *res;

			while (PQisBusy(c->conn))
			{
				WaitEvent	event;

				if (c->wait == NULL)
				{
					/* one wait set per connection, not one per wait: fewer system calls a round trip */
					c->wait = CreateWaitEventSet(TopMemoryContext, 3);
					AddWaitEventToSet(c->wait, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
					AddWaitEventToSet(c->wait, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
					AddWaitEventToSet(c->wait, WL_SOCKET_READABLE, PQsocket(c->conn), NULL, NULL);
				}
				(void) WaitEventSetWait(c->wait, -1L, &event, 1, PG_WAIT_EXTENSION);
				ResetLatch(MyLatch);
				CHECK_FOR_INTERRUPTS();
				if ((event.events & WL_SOCKET_READABLE) && !PQconsumeInput(c->conn))
					break;
			}
			res = PQgetResult(c->conn);
			if (res == NULL)
				break;
			PQclear(last);
			last = res;
		}
	}
	PG_CATCH();
	{
		PQclear(last);
		conn_lose(c);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (last == NULL || (PQresultStatus(last) != PGRES_COMMAND_OK && PQresultStatus(last) != PGRES_TUPLES_OK))
	{
		if (PQstatus(c->conn) == CONNECTION_BAD)
		{
			char	   *msg = pchomp(PQerrorMessage(c->conn));

			PQclear(last);
			conn_lose(c);
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("shard server %s: %s", c->server, msg)));
		}
		if (last == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("shard server %s: %s", c->server, pchomp(PQerrorMessage(c->conn)))));
		report_result(c, last);
	}
	return last;
}

/*
 * Read and drop the results of the statement c was running, until DRAIN_MS
 * after start (cancelled, it should end at once): a server whose statement
 * ends keeps its connection usable; one whose backend does not answer
 * (stopped, stuck) loses it, closed without another cancel, rather than
 * being waited for, deaf to interrupts, in an error's cleanup.  (The cancel
 * itself, PQcancel, waits for the server's postmaster to take it, as
 * postgres_fdw's does on PostgreSQL 15.)
 */
static void
conn_drain(CfShardConn *c, instr_time start)
{
	for (;;)
	{
		instr_time	now;
		long		left;

		if (!PQconsumeInput(c->conn))
			break;
		while (!PQisBusy(c->conn))
		{
			PGresult   *res = PQgetResult(c->conn);

			if (res == NULL)
				return;
			PQclear(res);
		}
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, start);
		left = DRAIN_MS - (long) INSTR_TIME_GET_MILLISEC(now);
		if (left <= 0)
			break;
		(void) WaitLatchOrSocket(NULL, WL_SOCKET_READABLE | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								 PQsocket(c->conn), left, PG_WAIT_EXTENSION);
	}
	if (c->depth > 0 || c->prepare_sent)
		c->lost = true;			/* the transaction there can no longer commit */
	conn_finish(c);
}

/* Send a statement to c (its parameters, if any, text or binary; results binary if asked). */
static void
conn_send(CfShardConn *c, const char *name, const char *sql, int nparams, const char *const *values,
		  const int *lengths, const int *formats, bool binary)
{
	bool		sent;

	if (c->conn == NULL)
	{
		if (c->depth > 0)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("the transaction lost shard server %s", c->server)));
		conn_open(c);
	}
	if (name != NULL && !list_member(c->statements, makeString((char *) name)))
	{
		/* prepared once per session there: later calls are not parsed again */
		PGresult   *res = PQprepare(c->conn, name, sql, nparams, NULL);
		bool		ok = res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK;
		char	   *msg = ok ? NULL : pchomp(PQerrorMessage(c->conn));

		PQclear(res);
		if (!ok)
		{
			if (PQstatus(c->conn) != CONNECTION_OK)
				conn_lose(c);
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("shard server %s: %s", c->server, msg)));
		}
		{
			MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

			c->statements = lappend(c->statements, makeString(pstrdup(name)));
			MemoryContextSwitchTo(old);
		}
	}
	if (name != NULL)
		sent = PQsendQueryPrepared(c->conn, name, nparams, values, lengths, formats, binary ? 1 : 0);
	else
		sent = PQsendQueryParams(c->conn, sql, nparams, NULL, values, lengths, formats, binary ? 1 : 0);
	if (!sent)
	{
		char	   *msg = pchomp(PQerrorMessage(c->conn));

		conn_lose(c);
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("shard server %s: %s", c->server, msg)));
	}
}

/* Run a statement without parameters on c, raising its error. */
static void
conn_exec(CfShardConn *c, const char *sql)
{
	conn_send(c, NULL, sql, 0, NULL, NULL, NULL, false);
	PQclear(conn_result(c));
}

/* Run a statement on c when no error may be raised (ends of transactions); false if it failed. */
static bool
conn_exec_quietly(CfShardConn *c, const char *sql)
{
	PGresult   *res;
	bool		ok;

	if (c->conn == NULL || c->lost)
		return false;
	res = PQexec(c->conn, sql);
	ok = res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		ereport(WARNING,
				(errmsg("shard server %s: %s failed: %s", c->server, sql,
						res != NULL && PQresultErrorMessage(res)[0] != '\0'
						? pchomp(PQresultErrorMessage(res)) : pchomp(PQerrorMessage(c->conn)))));
	PQclear(res);
	return ok;
}

/*
 * Bring c's part of the transaction to subtransaction level: open a
 * transaction there if begin (or if one is open already), and make the
 * savepoints missing.
 */
static void
conn_enter(CfShardConn *c, int level, bool begin)
{
	if (c->lost)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("the transaction lost shard server %s", c->server)));
	if (c->depth == 0)
	{
		conn_check(c);
		if (!begin)
			return;
		conn_exec(c, "BEGIN");
		c->depth = 1;
	}
	while (c->depth < level)
	{
		char		sql[32];

		snprintf(sql, sizeof(sql), "SAVEPOINT s%d", c->depth + 1);
		conn_exec(c, sql);
		c->depth++;
	}
}

/* Send c's pending writes, in its transaction, each batch at the level it was written at. */
static void
conn_flush(CfShardConn *c)
{
	while (c->pending != NIL)
	{
		CfShardChunk *chunk = linitial(c->pending);
		const char *values[1] = {chunk->data.data};
		int			lengths[1] = {chunk->data.len};
		int			formats[1] = {1};

		/* chunks are in level order, none below the server's depth (see the subxact callback) */
		conn_enter(c, chunk->level, true);
		conn_send(c, "cfstore_shard_write", "SELECT cfstore._remote_write_batch($1)", 1, values, lengths, formats, false);
		PQclear(conn_result(c));
		c->pending = list_delete_first(c->pending);
	}
	c->pending_bytes = 0;
}

/*
 * At commit: when the transaction wrote one batch, to one server, and has
 * opened no transaction there, send that batch alone, in autocommit: one
 * statement is atomic there, as BEGIN, the batch and COMMIT would be, in
 * one round trip instead of three.  False if that is not the case.
 */
static bool
commit_one_batch(void)
{
	CfShardConn *only = NULL;
	CfShardChunk *chunk;
	const char *values[1];
	int			lengths[1];
	int			formats[1] = {1};

	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];

		if (c->depth > 0 || c->lost)
			return false;
		if (c->pending != NIL)
		{
			if (only != NULL)
				return false;
			only = c;
		}
	}
	if (only == NULL || list_length(only->pending) != 1)
		return false;
	chunk = linitial(only->pending);
	values[0] = chunk->data.data;
	lengths[0] = chunk->data.len;
	conn_check(only);
	conn_send(only, "cfstore_shard_write", "SELECT cfstore._remote_write_batch($1)", 1, values, lengths, formats, false);
	only->pending = NIL;
	only->pending_bytes = 0;
	PQclear(conn_result(only));
	return true;
}

/* Whether the current transaction has anything on a shard server: open there or pending. */
bool
cfShardInTransaction(void)
{
	for (int i = 0; i < nshard_conns; i++)
		if (shard_conns[i]->depth > 0 || shard_conns[i]->pending != NIL)
			return true;
	return false;
}

/* Send every pending write. */
void
cfShardFlush(void)
{
	for (int i = 0; i < nshard_conns; i++)
		conn_flush(shard_conns[i]);
}

/* Add a cell write to the pending writes of its server, sent later in the transaction. */
void
cfShardQueueWrite(const char *server, const CfWrite *w)
{
	CfShardConn *c = shard_conn(server);
	int			level = GetCurrentTransactionNestLevel();
	CfShardChunk *chunk = c->pending != NIL ? llast(c->pending) : NULL;
	int			before;

	if (c->lost)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("the transaction lost shard server %s", c->server)));
	if (c->keywords[0] == NULL)
		server_params(c);
	if (chunk == NULL || chunk->level != level)
	{
		MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);

		chunk = palloc(sizeof(CfShardChunk));
		chunk->level = level;
		initStringInfo(&chunk->data);
		c->pending = lappend(c->pending, chunk);
		MemoryContextSwitchTo(old);
	}
	before = chunk->data.len;
	cfRemoteEncodeWrite(&chunk->data, w);
	c->pending_bytes += chunk->data.len - before;
	if (c->pending_bytes >= BATCH_BYTES)
		conn_flush(c);
}

/*
 * Send a read to every server of servers at once, in the transaction's
 * state there, and collect the results (binary) into results; the caller
 * PQclears them.  Pending writes are sent first.  A read the coordinator
 * makes often has a name: it is prepared once per session on each server.
 */
void
cfShardReadAll(char **servers, int n, const char *name, const char *sql, int nparams, const char *const *values,
			   const int *lengths, const int *formats, PGresult **results)
{
	CfShardConn **cs = palloc(sizeof(CfShardConn *) * n);
	volatile int got = 0;

	cfShardFlush();
	for (int i = 0; i < n; i++)
	{
		cs[i] = shard_conn(servers[i]);
		conn_enter(cs[i], GetCurrentTransactionNestLevel(), false);
	}
	for (int i = 0; i < n; i++)
		conn_send(cs[i], name, sql, nparams, values, lengths, formats, true);
	PG_TRY();
	{
		for (int i = 0; i < n; i++)
		{
			results[i] = conn_result(cs[i]);
			got++;
		}
	}
	PG_CATCH();
	{
		/* the servers not read yet are stopped and drained, so their connections stay usable */
		instr_time	start;

		for (int i = got + 1; i < n; i++)
			if (cs[i]->conn != NULL && !cs[i]->lost)
				conn_cancel(cs[i]);
		/* all of them are given DRAIN_MS together */
		INSTR_TIME_SET_CURRENT(start);
		for (int i = got + 1; i < n; i++)
			if (cs[i]->conn != NULL && !cs[i]->lost)
				conn_drain(cs[i], start);
		for (int i = 0; i < got; i++)
			PQclear(results[i]);
		PG_RE_THROW();
	}
	PG_END_TRY();
	pfree(cs);
}

/* The prepared transaction's gid of c in the current transaction. */
static void
make_gid(CfShardConn *c)
{
	FullTransactionId fxid = GetTopFullTransactionId();

	snprintf(c->gid, sizeof(c->gid), "cfstore_shard_" UINT64_FORMAT "_" UINT64_FORMAT "_%s",
			 GetSystemIdentifier(), U64FromFullTransactionId(fxid), c->server);
}

/* Before the coordinator commits: send what is pending, then commit or prepare on the shards. */
static void
pre_commit(void)
{
	int			open = 0;
	ErrorData  *volatile first_error = NULL;

	if (commit_one_batch())
		return;
	cfShardFlush();
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];

		if (c->lost)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("the transaction lost shard server %s", c->server),
					 errdetail("What it did there is rolled back.")));
		if (c->depth > 0)
		{
			if (PQtransactionStatus(c->conn) != PQTRANS_INTRANS)
				ereport(ERROR,
						(errcode(ERRCODE_IN_FAILED_SQL_TRANSACTION),
						 errmsg("the transaction on shard server %s has failed", c->server)));
			open++;
		}
	}
	if (open == 1)
	{
		for (int i = 0; i < nshard_conns; i++)
			if (shard_conns[i]->depth > 0)
			{
				CfShardConn *c = shard_conns[i];
				PGresult   *res;

				conn_send(c, NULL, "COMMIT", 0, NULL, NULL, NULL, false);
				res = conn_result(c);
				if (strcmp(PQcmdStatus(res), "COMMIT") != 0)
				{
					PQclear(res);
					c->depth = 0;
					ereport(ERROR,
							(errcode(ERRCODE_TRANSACTION_ROLLBACK),
							 errmsg("shard server %s rolled the transaction back", c->server)));
				}
				PQclear(res);
				c->depth = 0;
			}
		return;
	}
	if (open == 0)
		return;
	/* two-phase commit: every server prepares, all at once */
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];
		char		sql[256];

		if (c->depth == 0)
			continue;
		make_gid(c);
		snprintf(sql, sizeof(sql), "PREPARE TRANSACTION '%s'", c->gid);
		conn_send(c, NULL, sql, 0, NULL, NULL, NULL, false);
		c->prepare_sent = true;
	}
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];
		MemoryContext cxt = CurrentMemoryContext;

		if (!c->prepare_sent || c->prepared)
			continue;
		/* every answer is collected before an error is raised: the abort rolls back those prepared */
		PG_TRY();
		{
			PQclear(conn_result(c));
			c->prepared = true;
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(cxt);
			if (first_error == NULL)
				first_error = CopyErrorData();
			FlushErrorState();
		}
		PG_END_TRY();
		c->depth = 0;
	}
	if (first_error != NULL)
		ReThrowError(first_error);
}

/* After the coordinator committed: commit the prepared transactions. */
static void
commit_prepared(void)
{
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];
		char		sql[256];

		if (!c->prepared)
			continue;
		c->prepared = false;
		c->prepare_sent = false;
		if (strcmp(lose_before_commit, c->server) == 0)
		{
			conn_close(c);
			lose_before_commit[0] = '\0';
		}
		snprintf(sql, sizeof(sql), "COMMIT PREPARED '%s'", c->gid);
		if (c->conn == NULL || !conn_exec_quietly(c, sql))
			ereport(WARNING,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("shard server %s has not committed prepared transaction %s", c->server, c->gid),
					 errdetail("The transaction committed here; its writes there are prepared, not lost."),
					 errhint("Run cfstore_shard.recover() once the server is back.")));
	}
}

/* The coordinator's transaction aborted: roll back everything on the shards. */
static void
abort_all(void)
{
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];

		c->pending = NIL;		/* freed with TopTransactionContext */
		c->pending_bytes = 0;
		if (c->conn != NULL && !c->lost && c->prepare_sent && !c->prepared)
		{
			/* a PREPARE whose answer was not collected: did it prepare? */
			PGresult   *res;
			bool		ok = false;

			while ((res = PQgetResult(c->conn)) != NULL)
			{
				ok = PQresultStatus(res) == PGRES_COMMAND_OK;
				PQclear(res);
			}
			c->prepared = ok;
			if (ok)
				c->depth = 0;
		}
		if (c->conn != NULL && (c->lost || PQtransactionStatus(c->conn) == PQTRANS_ACTIVE))
			conn_close(c);
		if (c->prepare_sent && (c->prepared || c->conn == NULL))
		{
			char		sql[256];

			snprintf(sql, sizeof(sql), "ROLLBACK PREPARED '%s'", c->gid);
			if (c->conn == NULL || !conn_exec_quietly(c, sql))
				ereport(WARNING,
						(errmsg("shard server %s may keep prepared transaction %s of a transaction that aborted",
								c->server, c->gid),
						 errhint("Run cfstore_shard.recover() once the server is back.")));
		}
		else if (c->depth > 0 && c->conn != NULL && !conn_exec_quietly(c, "ROLLBACK"))
			conn_close(c);
		c->depth = 0;
		c->prepare_sent = false;
		c->prepared = false;
		c->lost = false;
	}
}

/* End of the coordinator's transaction. */
static void
xact_callback(XactEvent event, void *arg pg_attribute_unused())
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
			pre_commit();
			break;
		case XACT_EVENT_PRE_PREPARE:
			if (cfShardInTransaction())
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot PREPARE a transaction that has changed a sharded keyspace")));
			break;
		case XACT_EVENT_COMMIT:
			commit_prepared();
			for (int i = 0; i < nshard_conns; i++)
				shard_conns[i]->pending = NIL;
			break;
		case XACT_EVENT_ABORT:
			abort_all();
			break;
		default:
			break;
	}
}

/* End of a subtransaction of the coordinator: release or roll back its savepoint on the shards. */
static void
subxact_callback(SubXactEvent event, SubTransactionId mySubid pg_attribute_unused(),
				 SubTransactionId parentSubid pg_attribute_unused(), void *arg pg_attribute_unused())
{
	int			level = GetCurrentTransactionNestLevel();

	if (event != SUBXACT_EVENT_PRE_COMMIT_SUB && event != SUBXACT_EVENT_ABORT_SUB)
		return;
	for (int i = 0; i < nshard_conns; i++)
	{
		CfShardConn *c = shard_conns[i];
		ListCell   *lc;
		char		sql[64];

		if (event == SUBXACT_EVENT_PRE_COMMIT_SUB)
		{
			if (c->lost)
				continue;		/* the transaction fails at commit */
			/* its pending writes now belong to the parent */
			foreach(lc, c->pending)
			{
				CfShardChunk *chunk = lfirst(lc);

				if (chunk->level == level)
					chunk->level = level - 1;
			}
			if (c->depth >= level)
			{
				snprintf(sql, sizeof(sql), "RELEASE SAVEPOINT s%d", level);
				conn_exec(c, sql);
				c->depth = level - 1;
			}
			continue;
		}
		/* abort: its pending writes are dropped, what it sent rolled back */
		while (c->pending != NIL && ((CfShardChunk *) llast(c->pending))->level >= level)
		{
			c->pending_bytes -= ((CfShardChunk *) llast(c->pending))->data.len;
			c->pending = list_delete_last(c->pending);
		}
		if (c->depth >= level)
		{
			if (c->conn != NULL && PQtransactionStatus(c->conn) == PQTRANS_ACTIVE)
				c->lost = true;
			snprintf(sql, sizeof(sql), "ROLLBACK TO SAVEPOINT s%d", level);
			if (!conn_exec_quietly(c, sql))
				c->lost = true;
			else
			{
				snprintf(sql, sizeof(sql), "RELEASE SAVEPOINT s%d", level);
				if (!conn_exec_quietly(c, sql))
					c->lost = true;
			}
			c->depth = level - 1;
		}
	}
}

/*
 * _apply(statements): run statements on every registered shard server,
 * in order, inside the current transaction's part on each (DDL of a
 * sharded keyspace): they commit with the coordinator, or nowhere.
 */
Datum
cfstore_shard_apply(PG_FUNCTION_ARGS)
{
	int			pin;
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *stmts;
	bool	   *nulls;
	int			nstmts;
	char	  **servers;
	int			nservers;

	MemoryContext caller = CurrentMemoryContext;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &stmts, &nulls, &nstmts);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute("SELECT name FROM cfstore_shard.server ORDER BY name", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the shard servers");
	nservers = (int) SPI_processed;
	servers = MemoryContextAlloc(caller, sizeof(char *) * Max(nservers, 1));
	for (int i = 0; i < nservers; i++)
		servers[i] = MemoryContextStrdup(caller, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
	cfSearchPathRestore(pin);
	SPI_finish();
	cfShardFlush();
	for (int i = 0; i < nservers; i++)
	{
		CfShardConn *c = shard_conn(servers[i]);

		conn_enter(c, GetCurrentTransactionNestLevel(), true);
		for (int j = 0; j < nstmts; j++)
			if (!nulls[j])
				conn_exec(c, TextDatumGetCString(stmts[j]));
	}
	PG_RETURN_VOID();
}

/*
 * _lose_before_commit(server): in this session's next two-phase commit,
 * drop the connection to server just before committing its prepared
 * transaction, as a server lost at that moment would (for tests).
 */
Datum
cfstore_shard_lose_before_commit(PG_FUNCTION_ARGS)
{
	strlcpy(lose_before_commit, text_to_cstring(PG_GETARG_TEXT_PP(0)), NAMEDATALEN);
	PG_RETURN_VOID();
}
